package dev.opcua.stack.server.services.nodemanagement;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeAttributesMask;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.NodeAttributes;
import dev.opcua.stack.core.types.structured.ObjectAttributes;
import dev.opcua.stack.core.types.structured.ObjectTypeAttributes;
import dev.opcua.stack.core.types.structured.VariableAttributes;
import dev.opcua.stack.core.types.structured.VariableTypeAttributes;
import dev.opcua.stack.server.addressspace.DataTypeNode;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.ObjectTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.addressspace.VariableTypeNode;
import dev.opcua.stack.server.nodes.DataTypeCheck;

/**
 * Makes the node AddNodes asks for from its NodeAttributes (Part 4, 7.24; the specifiedAttributes mask
 * says which fields count, Part 4, 7.24.1) and checks them against the node's type (Part 3, 5.6.5 and
 * 6.4): a Variable's or VariableType's DataType must be a DataType of this server and the type's
 * DataType or a subtype of it, its ValueRank one the type's ValueRank allows (Part 3, 5.6.2, Table 13),
 * ArrayDimensions as long as a fixed ValueRank says and the Value of that DataType and ValueRank.
 * Attributes of another node class, or undecoded ones, are BadNodeAttributesInvalid.
 *
 * <p>What is not given: the DisplayName is the BrowseName's name, DataType and ValueRank the type's,
 * AccessLevel CurrentRead and CurrentWrite, MinimumSamplingInterval -1 (indeterminate). Historizing is
 * always false: the history recorder records the variables configured at start only.
 */
final class NewNodeAttributes {

    private static final int CURRENT_READ_WRITE = 0x03;
    private static final NodeId BASE_DATA_TYPE = NodeId.ns0(NodeIds.BaseDataType);

    private final EditableNodes nodes;

    NewNodeAttributes(EditableNodes nodes) {
        this.nodes = nodes;
    }

    /**
     * The node of {@code nodeClass} with its attributes; not yet in a store and without references.
     *
     * @param type the type definition of an Object or Variable, the supertype of an ObjectType or VariableType
     * @throws UaException BadNodeAttributesInvalid naming what is wrong
     */
    UaNode create(NodeClass nodeClass, NodeId id, QualifiedName browseName, ExtensionObject encoded, UaNode type) {
        NodeAttributes attributes = decode(nodeClass, encoded);
        long mask = attributes == null ? 0 : attributes.specifiedAttributes();
        LocalizedText displayName = has(mask, NodeAttributesMask.DisplayName) && attributes.displayName() != null
                && attributes.displayName().text() != null ? attributes.displayName() : LocalizedText.of(browseName.name());
        LocalizedText description = has(mask, NodeAttributesMask.Description) ? attributes.description() : null;
        long writeMask = has(mask, NodeAttributesMask.WriteMask) ? attributes.writeMask() : 0;
        long userWriteMask = has(mask, NodeAttributesMask.UserWriteMask) ? attributes.userWriteMask() : writeMask;
        switch (nodeClass) {
            case Object: {
                short eventNotifier = attributes instanceof ObjectAttributes o && has(mask, NodeAttributesMask.EventNotifier)
                        ? o.eventNotifier() : 0;
                return new ObjectNode(id, browseName, displayName, description, writeMask, userWriteMask, eventNotifier);
            }
            case ObjectType: {
                boolean isAbstract = attributes instanceof ObjectTypeAttributes t && has(mask, NodeAttributesMask.IsAbstract)
                        && t.isAbstract();
                return new ObjectTypeNode(id, browseName, displayName, description, writeMask, userWriteMask, isAbstract);
            }
            case Variable: {
                VariableAttributes v = attributes instanceof VariableAttributes a ? a : null;
                ValueAttributes typeValue = ((VariableTypeNode) type).valueAttributes();
                ValueAttributes value = valueAttributes(mask, v == null ? null : v.dataType(), v == null ? 0 : v.valueRank(),
                        v == null ? null : v.arrayDimensions(), typeValue, "VariableType " + type.nodeId());
                Variant initial = has(mask, NodeAttributesMask.Value) && v.value() != null ? v.value() : Variant.NULL;
                checkValue(initial, value);
                short accessLevel = has(mask, NodeAttributesMask.AccessLevel) ? v.accessLevel() : CURRENT_READ_WRITE;
                short userAccessLevel = has(mask, NodeAttributesMask.UserAccessLevel)
                        ? (short) (v.userAccessLevel() & accessLevel) : accessLevel;
                double minimumSamplingInterval = has(mask, NodeAttributesMask.MinimumSamplingInterval)
                        ? v.minimumSamplingInterval() : -1;
                DateTime now = DateTime.now();
                return new VariableNode(id, browseName, displayName, description, writeMask, userWriteMask,
                        DataValue.of(initial, StatusCode.GOOD, now, now), value, accessLevel, userAccessLevel,
                        minimumSamplingInterval, false, accessLevel & 0xFF);
            }
            case VariableType: {
                VariableTypeAttributes v = attributes instanceof VariableTypeAttributes a ? a : null;
                ValueAttributes value = valueAttributes(mask, v == null ? null : v.dataType(), v == null ? 0 : v.valueRank(),
                        v == null ? null : v.arrayDimensions(), ((VariableTypeNode) type).valueAttributes(),
                        "supertype " + type.nodeId());
                Variant initial = has(mask, NodeAttributesMask.Value) && v.value() != null ? v.value() : Variant.NULL;
                checkValue(initial, value);
                boolean isAbstract = has(mask, NodeAttributesMask.IsAbstract) && v.isAbstract();
                return new VariableTypeNode(id, browseName, displayName, description, writeMask, userWriteMask,
                        isAbstract, initial, value);
            }
            default:
                throw new IllegalArgumentException("no attributes for NodeClass " + nodeClass);
        }
    }

    /** The attributes of the node class, null when none were sent (every default applies). */
    private static NodeAttributes decode(NodeClass nodeClass, ExtensionObject encoded) {
        if (encoded == null || encoded.isNull()) {
            return null;
        }
        Class<? extends NodeAttributes> expected = switch (nodeClass) {
            case Object -> ObjectAttributes.class;
            case ObjectType -> ObjectTypeAttributes.class;
            case Variable -> VariableAttributes.class;
            case VariableType -> VariableTypeAttributes.class;
            default -> throw new IllegalArgumentException("no attributes for NodeClass " + nodeClass);
        };
        Object decoded = encoded.decoded();
        if (!expected.isInstance(decoded)) {
            throw invalid("a node of NodeClass " + nodeClass + " takes " + expected.getSimpleName() + ", not "
                    + (decoded == null ? "an undecoded body of " + encoded.encodingId()
                            : decoded.getClass().getSimpleName()));
        }
        return expected.cast(decoded);
    }

    /** DataType, ValueRank and ArrayDimensions: those given, checked against the type's, else the type's. */
    private ValueAttributes valueAttributes(long mask, NodeId givenDataType, int givenValueRank, long[] givenDimensions,
            ValueAttributes type, String typeName) {
        NodeId dataType = type.dataType() == null ? BASE_DATA_TYPE : type.dataType();
        if (has(mask, NodeAttributesMask.DataType) && givenDataType != null && !givenDataType.isNull()) {
            if (!(nodes.find(givenDataType) instanceof DataTypeNode)) {
                throw invalid("DataType " + givenDataType + " is not a DataType of this server");
            }
            if (!nodes.isSubtypeOf(givenDataType, dataType)) {
                throw invalid("DataType " + givenDataType + " is not " + dataType + " of the " + typeName
                        + " or a subtype of it (Part 3, 5.6.5)");
            }
            dataType = givenDataType;
        }
        int valueRank = type.valueRank();
        if (has(mask, NodeAttributesMask.ValueRank)) {
            if (givenValueRank < -3) {
                throw invalid("ValueRank " + givenValueRank + " is none of -3, -2, -1, 0 or a dimension count");
            }
            if (!rankAllowed(type.valueRank(), givenValueRank)) {
                throw invalid("ValueRank " + givenValueRank + " is not allowed by ValueRank " + type.valueRank()
                        + " of the " + typeName + " (Part 3, 5.6.2)");
            }
            valueRank = givenValueRank;
        }
        long[] dimensions = has(mask, NodeAttributesMask.ArrayDimensions) ? givenDimensions : null;
        if (dimensions != null && dimensions.length > 0 && valueRank > 0 && dimensions.length != valueRank) {
            throw invalid("ArrayDimensions has " + dimensions.length + " entries, ValueRank " + valueRank + " says "
                    + valueRank);
        }
        return new ValueAttributes(dataType, valueRank, dimensions == null || dimensions.length == 0 ? null : dimensions);
    }

    /**
     * Whether a ValueRank narrows the type's (Part 3, 5.6.2): Any (-2) allows every rank, ScalarOrOneDimension
     * (-3) scalar or one dimension, OneOrMoreDimensions (0) any fixed dimension count, Scalar and a fixed
     * count only themselves.
     */
    static boolean rankAllowed(int typeRank, int rank) {
        return switch (typeRank) {
            case -2 -> true;
            case -3 -> rank == -3 || rank == -1 || rank == 1;
            case 0 -> rank >= 0;
            default -> rank == typeRank;
        };
    }

    private static void checkValue(Variant value, ValueAttributes attributes) {
        if (!value.isNull() && !DataTypeCheck.accepts(attributes, value)) {
            throw invalid("the Value " + value + " does not fit DataType " + attributes.dataType() + " and ValueRank "
                    + attributes.valueRank());
        }
    }

    private static boolean has(long mask, NodeAttributesMask bit) {
        return (mask & bit.value()) != 0;
    }

    private static UaException invalid(String message) {
        return new UaException(StatusCodes.BadNodeAttributesInvalid, message);
    }
}
