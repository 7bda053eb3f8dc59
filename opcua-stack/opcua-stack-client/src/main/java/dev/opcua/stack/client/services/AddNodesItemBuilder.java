package dev.opcua.stack.client.services;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeAttributesMask;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.AddNodesItem;
import dev.opcua.stack.core.types.structured.ObjectAttributes;
import dev.opcua.stack.core.types.structured.VariableAttributes;
import java.util.Objects;

/**
 * Builds the AddNodesItem (Part 4, 5.7.2) of an Object or a Variable: the parent, the hierarchical
 * reference from it (HasComponent by default), the BrowseName, and the attributes set here, each marked
 * in the specifiedAttributes mask (Part 4, 7.24.1) so that the server applies its defaults to the rest.
 *
 * <pre>{@code
 * AddNodesItem setpoint = AddNodesItemBuilder.variable(line, QualifiedName.of(ns, "Setpoint"))
 *         .requestedNodeId(NodeId.string(ns, "Line.Setpoint"))
 *         .value(42.0)                 // DataType Double from the value, unless dataType(...) says otherwise
 *         .build();
 * }</pre>
 */
public final class AddNodesItemBuilder {

    private static final short CURRENT_READ_WRITE = 0x03;

    private final NodeClass nodeClass;
    private final NodeId parent;
    private final QualifiedName browseName;
    private NodeId referenceType = NodeId.ns0(NodeIds.HasComponent);
    private ExpandedNodeId requested = ExpandedNodeId.NULL;
    private ExpandedNodeId typeDefinition = ExpandedNodeId.NULL;
    private LocalizedText displayName;
    private LocalizedText description;
    private Variant value;
    private NodeId dataType;
    private Integer valueRank;
    private Short accessLevel;

    private AddNodesItemBuilder(NodeClass nodeClass, NodeId parent, QualifiedName browseName) {
        this.nodeClass = nodeClass;
        this.parent = Objects.requireNonNull(parent, "parent");
        this.browseName = Objects.requireNonNull(browseName, "browseName");
    }

    /** A Variable below {@code parent}; of BaseDataVariableType unless {@link #typeDefinition} says otherwise. */
    public static AddNodesItemBuilder variable(NodeId parent, QualifiedName browseName) {
        return new AddNodesItemBuilder(NodeClass.Variable, parent, browseName);
    }

    /** An Object below {@code parent}; of BaseObjectType unless {@link #typeDefinition} says otherwise. */
    public static AddNodesItemBuilder object(NodeId parent, QualifiedName browseName) {
        return new AddNodesItemBuilder(NodeClass.Object, parent, browseName);
    }

    /** The hierarchical reference from the parent: HasComponent by default, Organizes below a folder. */
    public AddNodesItemBuilder referenceType(NodeId value) {
        referenceType = Objects.requireNonNull(value, "referenceType");
        return this;
    }

    /** The NodeId the new node should have; without one the server chooses. */
    public AddNodesItemBuilder requestedNodeId(NodeId value) {
        requested = ExpandedNodeId.of(Objects.requireNonNull(value, "requestedNodeId"));
        return this;
    }

    /** The ObjectType or VariableType of the node; the server creates the children it declares Mandatory. */
    public AddNodesItemBuilder typeDefinition(NodeId value) {
        typeDefinition = ExpandedNodeId.of(Objects.requireNonNull(value, "typeDefinition"));
        return this;
    }

    public AddNodesItemBuilder displayName(String value) {
        displayName = LocalizedText.of(value);
        return this;
    }

    public AddNodesItemBuilder description(String value) {
        description = LocalizedText.of(value);
        return this;
    }

    /** A Variable's initial value: a {@link Variant} as it is, any other Java value through {@link Variant#of}. */
    public AddNodesItemBuilder value(Object initial) {
        requireVariable("value");
        value = initial instanceof Variant v ? v : Variant.of(initial);
        return this;
    }

    /** A Variable's DataType; by default the built-in type of the value, when one is given. */
    public AddNodesItemBuilder dataType(NodeId value) {
        requireVariable("dataType");
        dataType = Objects.requireNonNull(value, "dataType");
        return this;
    }

    /** A Variable's ValueRank (-1 scalar, 1 one dimension ...); by default scalar, or 1 for an array value. */
    public AddNodesItemBuilder valueRank(int value) {
        requireVariable("valueRank");
        valueRank = value;
        return this;
    }

    /** A Variable's AccessLevel bits (Part 3, 8.57); by default CurrentRead and CurrentWrite. */
    public AddNodesItemBuilder accessLevel(int value) {
        requireVariable("accessLevel");
        accessLevel = (short) value;
        return this;
    }

    public AddNodesItem build() {
        long mask = NodeAttributesMask.DisplayName.value();
        LocalizedText shown = displayName != null ? displayName : LocalizedText.of(browseName.name());
        if (description != null) {
            mask |= NodeAttributesMask.Description.value();
        }
        ExtensionObject attributes;
        if (nodeClass == NodeClass.Object) {
            attributes = ExtensionObject.of(new ObjectAttributes(mask, shown, description, 0, 0, (short) 0));
        } else {
            NodeId type = dataType;
            if (type == null && value != null && !value.isNull() && value.type() != BuiltinType.Variant) {
                type = value.type().dataTypeId();
            }
            int rank = valueRank != null ? valueRank : value != null && value.isArray() ? 1 : -1;
            short access = accessLevel != null ? accessLevel : CURRENT_READ_WRITE;
            mask |= NodeAttributesMask.ValueRank.value() | NodeAttributesMask.AccessLevel.value()
                    | NodeAttributesMask.UserAccessLevel.value();
            if (type != null) {
                mask |= NodeAttributesMask.DataType.value();
            }
            if (value != null) {
                mask |= NodeAttributesMask.Value.value();
            }
            attributes = ExtensionObject.of(new VariableAttributes(mask, shown, description, 0, 0,
                    value == null ? Variant.NULL : value, type == null ? NodeId.NULL : type, rank, null, access, access,
                    0, false));
        }
        return new AddNodesItem(ExpandedNodeId.of(parent), referenceType, requested, browseName, nodeClass, attributes,
                typeDefinition);
    }

    private void requireVariable(String attribute) {
        if (nodeClass != NodeClass.Variable) {
            throw new IllegalStateException(attribute + " is an attribute of Variables, not of an " + nodeClass);
        }
    }
}
