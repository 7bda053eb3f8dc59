package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;

/**
 * The attributes that describe a value, shared by variables and variable types (Part 3, 5.6.2 and
 * 5.6.5): DataType, ValueRank, ArrayDimensions.
 *
 * @param dataType NodeId of the DataType
 * @param valueRank -3..n as in Part 3, 5.6.2 (-1 scalar, 0 one or more dimensions, 1 one dimension ...)
 * @param arrayDimensions UInt32 length per dimension (0 = unknown), or null
 */
public record ValueAttributes(NodeId dataType, int valueRank, long[] arrayDimensions) {

    /** A scalar of the given data type. */
    public static ValueAttributes scalar(NodeId dataType) {
        return new ValueAttributes(dataType, -1, null);
    }

    /** The attribute, or null when {@code attributeId} is none of the three. */
    Variant read(int attributeId) {
        switch (attributeId) {
            case AttributeIds.DataType:
                return Variant.of(dataType);
            case AttributeIds.ValueRank:
                return Variant.ofInt32(valueRank);
            case AttributeIds.ArrayDimensions:
                return arrayDimensions == null ? Variant.NULL : Variant.ofArray(BuiltinType.UInt32, arrayDimensions.clone());
            default:
                return null;
        }
    }
}
