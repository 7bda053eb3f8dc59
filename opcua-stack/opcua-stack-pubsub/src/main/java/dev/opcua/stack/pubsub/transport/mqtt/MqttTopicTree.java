package dev.opcua.stack.pubsub.transport.mqtt;

import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTopics.Encoding;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTopics.MessageType;
import java.util.Objects;

/**
 * The standard topic tree of Part 14 (1.05.04: 7.3.5.7; 1.05.02: 7.3.4.7) under one prefix:
 * {@code <Prefix>/<Encoding>/<MqttMessageType>/<PublisherId>[/<WriterGroup>[/<DataSetWriter>]]}. The prefix is
 * system defined, {@code opcua} by default (connection property MqttTopicPrefix); it should be one topic level but
 * may be several. {@link MqttTopics} has the same builders for the default prefix.
 *
 * <p>Names: the standard puts the PublisherId, WriterGroup name and DataSetWriter name into the topic as they are
 * and defines no escaping, so a name that cannot be one topic level is refused here with an
 * {@link IllegalArgumentException} naming it: empty, or containing {@code /} (level separator), {@code +} or
 * {@code #} (wildcards) or U+0000. Escaping instead would give topics other implementations do not expect.
 */
public final class MqttTopicTree {

    /** The prefix the standard names as default. */
    public static final String DEFAULT_PREFIX = "opcua";

    private final String prefix;

    private MqttTopicTree(String prefix) {
        this.prefix = prefix;
    }

    /**
     * A tree under {@code prefix}: one or more non-empty levels separated by {@code /}, without wildcards.
     */
    public static MqttTopicTree withPrefix(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        if (prefix.isEmpty() || prefix.startsWith("/") || prefix.endsWith("/") || prefix.contains("//")) {
            throw new IllegalArgumentException("invalid topic prefix '" + prefix + "': one or more non-empty topic"
                    + " levels separated by '/'");
        }
        for (String level : prefix.split("/")) {
            level("topic prefix", level);
        }
        return new MqttTopicTree(prefix);
    }

    public String prefix() {
        return prefix;
    }

    /** DataSetMessages of a WriterGroup whose DataSetWriters share the group's queue (7.3.5.7.3); not retained. */
    public String data(Encoding encoding, PublisherId publisherId, String writerGroupName) {
        return base(encoding, MessageType.DATA, publisherId) + "/" + level("WriterGroup name", writerGroupName);
    }

    /** DataSetMessages of one DataSetWriter with a queue of its own (7.3.5.7.3); not retained. */
    public String data(Encoding encoding, PublisherId publisherId, String writerGroupName, String dataSetWriterName) {
        return data(encoding, publisherId, writerGroupName) + "/" + level("DataSetWriter name", dataSetWriterName);
    }

    /** The DataSetMetaData of one DataSetWriter (7.3.5.7.4); retained. */
    public String metadata(Encoding encoding, PublisherId publisherId, String writerGroupName,
            String dataSetWriterName) {
        return base(encoding, MessageType.METADATA, publisherId) + "/" + level("WriterGroup name", writerGroupName)
                + "/" + level("DataSetWriter name", dataSetWriterName);
    }

    /**
     * The Status of a Publisher (7.3.5.7.7); retained. A Publisher that alone uses its PublisherId registers a
     * Status message with PubSubState Error and IsCyclic false as its MQTT will on this topic.
     */
    public String status(Encoding encoding, PublisherId publisherId) {
        return base(encoding, MessageType.STATUS, publisherId);
    }

    /** The PubSubConnection (WriterGroups and DataSetWriters) of a Publisher (7.3.5.7.8); retained. */
    public String connection(Encoding encoding, PublisherId publisherId) {
        return base(encoding, MessageType.CONNECTION, publisherId);
    }

    /** The ApplicationDescription of a Publisher (7.3.5.7.5); retained. */
    public String application(Encoding encoding, PublisherId publisherId) {
        return base(encoding, MessageType.APPLICATION, publisherId);
    }

    /** The ServerEndpoints of a Publisher that is also a Server (7.3.5.7.6); retained. */
    public String endpoints(Encoding encoding, PublisherId publisherId) {
        return base(encoding, MessageType.ENDPOINTS, publisherId);
    }

    /** Filter: every topic of one message type of one publisher and below ({@code .../<type>/<PublisherId>/#}). */
    public String filter(Encoding encoding, MessageType messageType, PublisherId publisherId) {
        return base(encoding, messageType, publisherId) + "/#";
    }

    /**
     * Filter: one message type of every publisher under this prefix ({@code <Prefix>/<Encoding>/<type>/#}), e.g.
     * {@code opcua/json/status/#}, the standard's example for watching all Publishers (Table 203).
     */
    public String filter(Encoding encoding, MessageType messageType) {
        return prefix + "/" + encoding.level() + "/" + messageType.level() + "/#";
    }

    /** Filter: all data of one publisher, every WriterGroup and DataSetWriter ({@code .../data/<PublisherId>/#}). */
    public String allData(Encoding encoding, PublisherId publisherId) {
        return filter(encoding, MessageType.DATA, publisherId);
    }

    /** Filter: all metadata of one publisher ({@code .../metadata/<PublisherId>/#}). */
    public String allMetadata(Encoding encoding, PublisherId publisherId) {
        return filter(encoding, MessageType.METADATA, publisherId);
    }

    /** Filter: the status of every publisher ({@code <Prefix>/<Encoding>/status/#}). */
    public String allStatus(Encoding encoding) {
        return filter(encoding, MessageType.STATUS);
    }

    private String base(Encoding encoding, MessageType messageType, PublisherId publisherId) {
        Objects.requireNonNull(encoding, "encoding");
        Objects.requireNonNull(messageType, "messageType");
        Objects.requireNonNull(publisherId, "publisherId");
        return prefix + "/" + encoding.level() + "/" + messageType.level() + "/"
                + level("PublisherId", publisherId.toString());
    }

    private static String level(String what, String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("the " + what + " must not be empty to be an MQTT topic level");
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '/' || c == '+' || c == '#' || c == '\u0000') {
                throw new IllegalArgumentException("the " + what + " '" + name + "' cannot be an MQTT topic level: it"
                        + " contains '" + (c == 0 ? "\\u0000" : String.valueOf(c)) + "' (Part 14 defines no"
                        + " escaping; rename it or configure a QueueName)");
            }
        }
        return name;
    }

    @Override
    public String toString() {
        return "MqttTopicTree[" + prefix + "]";
    }
}
