package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.encoding.generic.FieldEncoding;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StandardDataTypes;
import dev.opcua.stack.server.addressspace.DataTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import java.util.function.Function;

/**
 * Questions about DataTypes answered from the address space (Part 3, 5.8.3 and Part 5, 12): a
 * type's supertype (inverse HasSubtype), its "Default Binary" and "Default XML" encodings
 * (HasEncoding), and how its values are encoded as a structure field.
 */
final class DataTypes {

    static final NodeId HAS_SUBTYPE = NodeId.ns0(NodeIds.HasSubtype);
    static final NodeId HAS_ENCODING = NodeId.ns0(NodeIds.HasEncoding);
    private static final NodeId STRUCTURE = NodeId.ns0(NodeIds.Structure);
    private static final NodeId ENUMERATION = NodeId.ns0(NodeIds.Enumeration);
    private static final String DEFAULT_BINARY = "Default Binary";
    private static final String DEFAULT_XML = "Default XML";
    /** Deeper than any real hierarchy: guards against a cycle of HasSubtype references. */
    private static final int MAX_DEPTH = 64;

    private final Function<NodeId, UaNode> nodes;

    /** @param nodes finds a node anywhere in the address space (null when absent) */
    DataTypes(Function<NodeId, UaNode> nodes) {
        this.nodes = nodes;
    }

    /** The supertype of a DataType, or null for BaseDataType or an unknown type. */
    NodeId supertype(NodeId dataType) {
        UaNode node = nodes.apply(dataType);
        if (node == null) {
            return null;
        }
        for (UaReference r : node.references()) {
            if (!r.forward() && r.referenceTypeId().equals(HAS_SUBTYPE) && r.targetId().isLocal()) {
                return r.targetId().nodeId();
            }
        }
        return null;
    }

    /** Whether {@code type} is {@code base} or one of its subtypes. */
    boolean isSubtypeOf(NodeId type, NodeId base) {
        NodeId current = type;
        for (int i = 0; current != null && i < MAX_DEPTH; i++) {
            if (current.equals(base)) {
                return true;
            }
            current = supertype(current);
        }
        return false;
    }

    boolean isEnumeration(NodeId type) {
        return isSubtypeOf(type, ENUMERATION);
    }

    /** The NodeId of the type's "Default Binary" encoding object, or null. */
    NodeId binaryEncoding(NodeId dataType) {
        return encoding(dataType, DEFAULT_BINARY);
    }

    /** The NodeId of the type's "Default XML" encoding object, or null. */
    NodeId xmlEncoding(NodeId dataType) {
        return encoding(dataType, DEFAULT_XML);
    }

    private NodeId encoding(NodeId dataType, String encodingName) {
        UaNode node = nodes.apply(dataType);
        if (node == null) {
            return null;
        }
        for (UaReference r : node.references()) {
            if (r.forward() && r.referenceTypeId().equals(HAS_ENCODING) && r.targetId().isLocal()) {
                UaNode encoding = nodes.apply(r.targetId().nodeId());
                if (encoding != null && encodingName.equals(encoding.browseName().name())) {
                    return encoding.nodeId();
                }
            }
        }
        return null;
    }

    /**
     * The DataType an ExtensionObject's TypeId names: the id itself when it is a DataType, the
     * source of its HasEncoding reference when it is an encoding object; null when unknown.
     */
    NodeId dataTypeOf(NodeId typeOrEncoding) {
        UaNode node = nodes.apply(typeOrEncoding);
        if (node == null) {
            return null;
        }
        if (node instanceof DataTypeNode) {
            return node.nodeId();
        }
        for (UaReference r : node.references()) {
            if (!r.forward() && r.referenceTypeId().equals(HAS_ENCODING) && r.targetId().isLocal()) {
                return r.targetId().nodeId();
            }
        }
        return null;
    }

    /**
     * How a field of this DataType is encoded (Part 6, 5.2.6): a built-in type or simple subtype as
     * its built-in type, an enumeration as Int32, an abstract structure as an ExtensionObject, a
     * concrete structure inline with its binary encoding.
     *
     * @throws IllegalArgumentException when the type or its supertypes are unknown, or a concrete
     *     structure has no "Default Binary" encoding
     */
    FieldEncoding fieldEncoding(NodeId dataType) {
        NodeId current = dataType;
        for (int i = 0; current != null && i < MAX_DEPTH; i++) {
            if (current.equals(ENUMERATION)) {
                return current.equals(dataType) ? new FieldEncoding.Builtin(BuiltinType.Int32)
                        : new FieldEncoding.Enumeration(dataType);
            }
            if (current.equals(STRUCTURE)) {
                UaNode node = nodes.apply(dataType);
                if (dataType.equals(STRUCTURE) || (node instanceof DataTypeNode d && d.isAbstract())) {
                    return new FieldEncoding.Builtin(BuiltinType.ExtensionObject);
                }
                NodeId encoding = binaryEncoding(dataType);
                if (encoding == null) {
                    throw new IllegalArgumentException("structure DataType " + dataType
                            + " has no \"Default Binary\" encoding");
                }
                return new FieldEncoding.Structured(dataType, encoding);
            }
            BuiltinType builtin = StandardDataTypes.encodingOf(current);
            if (builtin != null) {
                return new FieldEncoding.Builtin(builtin);
            }
            current = supertype(current);
        }
        throw new IllegalArgumentException("DataType " + dataType + " is unknown or has no known supertype");
    }
}
