package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StandardDataTypes;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.ValueAttributes;

/**
 * Whether a written value fits a variable's DataType and ValueRank (Part 4, 5.11.4: otherwise
 * BadTypeMismatch). Built-in data types must match exactly, and so must the built-in encoding of the
 * standard simple subtypes ({@link StandardDataTypes}: a Duration takes a Double); the abstract Number,
 * Integer, UInteger and BaseDataType accept their members; Enumeration takes Int32; other data types
 * (structures) take ExtensionObjects.
 */
public final class DataTypeCheck {

    private DataTypeCheck() {
    }

    public static boolean accepts(ValueAttributes attributes, Variant value) {
        return acceptsType(attributes.dataType(), value) && acceptsRank(attributes.valueRank(), value);
    }

    private static boolean acceptsType(NodeId dataType, Variant value) {
        if (value.isNull()) {
            return true; // a null value is allowed for every data type
        }
        BuiltinType type = value.type();
        BuiltinType encoding = StandardDataTypes.encodingOf(dataType);
        if (encoding == null) {
            return type == BuiltinType.ExtensionObject; // structures of other namespaces
        }
        if (encoding != BuiltinType.Variant) {
            return type == encoding;
        }
        int id = (int) dataType.numericId();
        switch (id) {
            case NodeIds.Number:
                return type.typeId() >= BuiltinType.SByte.typeId() && type.typeId() <= BuiltinType.Double.typeId();
            case NodeIds.Integer:
                return type == BuiltinType.SByte || type == BuiltinType.Int16 || type == BuiltinType.Int32
                        || type == BuiltinType.Int64;
            case NodeIds.UInteger:
                return type == BuiltinType.Byte || type == BuiltinType.UInt16 || type == BuiltinType.UInt32
                        || type == BuiltinType.UInt64;
            default: // BaseDataType
                return true;
        }
    }

    /** ValueRank rules of Part 3, 5.6.2. */
    private static boolean acceptsRank(int valueRank, Variant value) {
        if (value.isNull()) {
            return true;
        }
        int dims = !value.isArray() ? 0 : value.isMatrix() ? value.arrayDimensions().length : 1;
        switch (valueRank) {
            case -3: // ScalarOrOneDimension
                return dims <= 1;
            case -2: // Any
                return true;
            case -1: // Scalar
                return dims == 0;
            case 0: // OneOrMoreDimensions
                return dims >= 1;
            default:
                return dims == valueRank;
        }
    }
}
