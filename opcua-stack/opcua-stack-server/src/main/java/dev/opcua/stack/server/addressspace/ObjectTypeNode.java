package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.NodeClass;

/** An ObjectType node (Part 3, 5.5.2). */
public class ObjectTypeNode extends TypeNode {

    public ObjectTypeNode(NodeId nodeId, QualifiedName browseName, LocalizedText displayName, LocalizedText description,
            long writeMask, long userWriteMask, boolean isAbstract) {
        super(nodeId, browseName, displayName, description, writeMask, userWriteMask, isAbstract);
    }

    @Override
    public NodeClass nodeClass() {
        return NodeClass.ObjectType;
    }
}
