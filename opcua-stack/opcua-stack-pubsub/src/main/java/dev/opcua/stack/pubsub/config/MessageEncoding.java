package dev.opcua.stack.pubsub.config;

/** How a writer group encodes its network messages (Part 14, 7.2): UADP (7.2.4) or JSON (7.2.5). */
public enum MessageEncoding {
    JSON,
    UADP
}
