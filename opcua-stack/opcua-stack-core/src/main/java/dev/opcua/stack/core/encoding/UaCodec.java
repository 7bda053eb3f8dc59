package dev.opcua.stack.core.encoding;

import dev.opcua.stack.core.types.builtin.NodeId;

/**
 * Encodes and decodes the fields of one structure type: fields in order, no type id and no length (those
 * belong to the ExtensionObject or message that carries it). The same codec serves UA Binary (Part 6, 5.2.6)
 * and UA JSON (5.4.6) through {@link UaWriter} and {@link UaReader}.
 *
 * @param <T> the structure's Java type
 */
public interface UaCodec<T> {

    /** Java type this codec reads and writes. */
    Class<T> type();

    /** NodeId of the DefaultBinary encoding object the codec implements. */
    NodeId encodingId();

    /** NodeId of the DataType (what UA JSON names as an ExtensionObject's UaTypeId, Part 6, 5.4.2.16). */
    NodeId dataTypeId();

    void encode(UaWriter encoder, T value);

    T decode(UaReader decoder);
}
