package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import java.util.Objects;

/** A VariableType node (Part 3, 5.6.5), with its default value. */
public class VariableTypeNode extends TypeNode {

    private final Variant value;
    private final ValueAttributes valueAttributes;

    public VariableTypeNode(NodeId nodeId, QualifiedName browseName, LocalizedText displayName,
            LocalizedText description, long writeMask, long userWriteMask, boolean isAbstract, Variant value,
            ValueAttributes valueAttributes) {
        super(nodeId, browseName, displayName, description, writeMask, userWriteMask, isAbstract);
        this.value = value == null ? Variant.NULL : value;
        this.valueAttributes = Objects.requireNonNull(valueAttributes, "valueAttributes");
    }

    @Override
    public NodeClass nodeClass() {
        return NodeClass.VariableType;
    }

    public Variant value() {
        return value;
    }

    public ValueAttributes valueAttributes() {
        return valueAttributes;
    }

    @Override
    public Variant attribute(int attributeId) {
        if (attributeId == AttributeIds.Value) {
            return value;
        }
        Variant v = valueAttributes.read(attributeId);
        return v != null ? v : super.attribute(attributeId);
    }
}
