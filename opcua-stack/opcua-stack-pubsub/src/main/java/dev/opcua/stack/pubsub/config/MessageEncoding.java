package dev.opcua.stack.pubsub.config;

/** How a writer group encodes its network messages (Part 14, 7.2): UADP (7.2.4) or JSON (7.2.5). */
public enum MessageEncoding {
    JSON("json"),
    UADP("uadp");

    private final String topicName;

    MessageEncoding(String topicName) {
        this.topicName = topicName;
    }

    /** The encoding's level in the MQTT topic tree (Part 14, 7.3.5.4). */
    public String topicName() {
        return topicName;
    }
}
