package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;

/** The attribute every type node has: IsAbstract (Part 3, 5.5.2, 5.6.5, 5.3, 5.8.3). */
public abstract class TypeNode extends UaNode {

    private final boolean isAbstract;

    protected TypeNode(NodeId nodeId, QualifiedName browseName, LocalizedText displayName, LocalizedText description,
            long writeMask, long userWriteMask, boolean isAbstract) {
        super(nodeId, browseName, displayName, description, writeMask, userWriteMask);
        this.isAbstract = isAbstract;
    }

    public boolean isAbstract() {
        return isAbstract;
    }

    @Override
    public Variant attribute(int attributeId) {
        if (attributeId == AttributeIds.IsAbstract) {
            return Variant.ofBoolean(isAbstract);
        }
        return super.attribute(attributeId);
    }
}
