package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;

/** A ReferenceType node (Part 3, 5.3). */
public class ReferenceTypeNode extends TypeNode {

    private final boolean symmetric;
    private final LocalizedText inverseName;

    /** @param inverseName name of the inverse direction, null for symmetric and abstract types without one */
    public ReferenceTypeNode(NodeId nodeId, QualifiedName browseName, LocalizedText displayName,
            LocalizedText description, long writeMask, long userWriteMask, boolean isAbstract, boolean symmetric,
            LocalizedText inverseName) {
        super(nodeId, browseName, displayName, description, writeMask, userWriteMask, isAbstract);
        this.symmetric = symmetric;
        this.inverseName = inverseName;
    }

    @Override
    public NodeClass nodeClass() {
        return NodeClass.ReferenceType;
    }

    public boolean symmetric() {
        return symmetric;
    }

    public LocalizedText inverseName() {
        return inverseName;
    }

    @Override
    public Variant attribute(int attributeId) {
        switch (attributeId) {
            case AttributeIds.Symmetric:
                return Variant.ofBoolean(symmetric);
            case AttributeIds.InverseName:
                return inverseName == null ? Variant.NULL : Variant.of(inverseName);
            default:
                return super.attribute(attributeId);
        }
    }
}
