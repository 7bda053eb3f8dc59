package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;

/** A Method node (Part 3, 5.7). Its arguments are the InputArguments/OutputArguments properties. */
public class MethodNode extends UaNode {

    private final boolean executable;
    private final boolean userExecutable;

    public MethodNode(NodeId nodeId, QualifiedName browseName, LocalizedText displayName, LocalizedText description,
            long writeMask, long userWriteMask, boolean executable, boolean userExecutable) {
        super(nodeId, browseName, displayName, description, writeMask, userWriteMask);
        this.executable = executable;
        this.userExecutable = userExecutable;
    }

    @Override
    public NodeClass nodeClass() {
        return NodeClass.Method;
    }

    public boolean executable() {
        return executable;
    }

    public boolean userExecutable() {
        return userExecutable;
    }

    @Override
    public Variant attribute(int attributeId) {
        switch (attributeId) {
            case AttributeIds.Executable:
                return Variant.ofBoolean(executable);
            case AttributeIds.UserExecutable:
                return Variant.ofBoolean(userExecutable);
            default:
                return super.attribute(attributeId);
        }
    }
}
