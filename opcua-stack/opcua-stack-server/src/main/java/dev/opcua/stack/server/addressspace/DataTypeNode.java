package dev.opcua.stack.server.addressspace;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;

/** A DataType node (Part 3, 5.8.3). */
public class DataTypeNode extends TypeNode {

    private final ExtensionObject dataTypeDefinition;

    /** @param dataTypeDefinition a StructureDefinition or EnumDefinition, or null */
    public DataTypeNode(NodeId nodeId, QualifiedName browseName, LocalizedText displayName, LocalizedText description,
            long writeMask, long userWriteMask, boolean isAbstract, ExtensionObject dataTypeDefinition) {
        super(nodeId, browseName, displayName, description, writeMask, userWriteMask, isAbstract);
        this.dataTypeDefinition = dataTypeDefinition;
    }

    @Override
    public NodeClass nodeClass() {
        return NodeClass.DataType;
    }

    public ExtensionObject dataTypeDefinition() {
        return dataTypeDefinition;
    }

    @Override
    public Variant attribute(int attributeId) {
        if (attributeId == AttributeIds.DataTypeDefinition) {
            return dataTypeDefinition == null ? Variant.NULL : Variant.ofScalar(
                    dev.opcua.stack.core.types.builtin.BuiltinType.ExtensionObject, dataTypeDefinition);
        }
        return super.attribute(attributeId);
    }
}
