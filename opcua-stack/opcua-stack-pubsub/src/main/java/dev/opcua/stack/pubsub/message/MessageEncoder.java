package dev.opcua.stack.pubsub.message;

/** Turns messages into the bytes of one message mapping (Part 14, 7.2: UADP or JSON) for one writer group. */
public interface MessageEncoder {

    /** The bytes of a network message of data set messages. */
    byte[] encode(NetworkMessage message);

    /** The bytes of a metadata message. */
    byte[] encodeMetaData(MetaDataMessage message);
}
