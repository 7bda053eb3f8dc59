package dev.opcua.stack.core.encoding;

import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.builtin.NodeId;

/**
 * Encodes and decodes the fields of one structure type in UA Binary (Part 6, 5.2.6): fields in order,
 * no type id and no length (those belong to the ExtensionObject or message that carries it).
 *
 * @param <T> the structure's Java type
 */
public interface UaCodec<T> {

    /** Java type this codec reads and writes. */
    Class<T> type();

    /** NodeId of the DefaultBinary encoding object the codec implements. */
    NodeId encodingId();

    void encode(UaEncoder encoder, T value);

    T decode(UaDecoder decoder);
}
