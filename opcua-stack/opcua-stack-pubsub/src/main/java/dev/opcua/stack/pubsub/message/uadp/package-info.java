/**
 * The UADP message mapping of PubSub (Part 14, 7.2.4): {@link dev.opcua.stack.pubsub.message.NetworkMessage}s
 * and {@link dev.opcua.stack.pubsub.message.MetaDataMessage}s to and from the binary UADP layout.
 *
 * <p>{@link dev.opcua.stack.pubsub.message.uadp.UadpMessageEncoder} writes a network message as the
 * {@link dev.opcua.stack.pubsub.message.uadp.UadpLayout} (the three content masks of the WriterGroup and
 * DataSetWriter) says; {@link dev.opcua.stack.pubsub.message.uadp.UadpMessageDecoder} reads whatever header
 * variant arrives, because the flags in the message say what follows (7.2.4.4.2, 7.2.4.5.4). RawData fields
 * (7.2.4.5.11) carry no type information, so both need the data set's metadata through a
 * {@link dev.opcua.stack.pubsub.message.uadp.MetaDataLookup}.
 *
 * <p>Out of scope here: message security (SecurityHeader with signing or encryption, 7.2.4.4.3), chunked
 * network messages (7.2.4.4.4), promoted fields and discovery messages other than the DataSetMetaData
 * announcement (7.2.4.6.4). The decoder refuses them with a {@code BadDecodingError} naming the flag
 * instead of misreading the bytes that follow.
 */
package dev.opcua.stack.pubsub.message.uadp;
