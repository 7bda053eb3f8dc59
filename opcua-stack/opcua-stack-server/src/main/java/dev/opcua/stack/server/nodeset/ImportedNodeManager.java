package dev.opcua.stack.server.nodeset;

import dev.opcua.stack.core.encoding.generic.FieldEncoding;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.DataTypeCheck;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import java.util.function.Function;

/**
 * The node manager of one imported NodeSet2 file: owns its models' namespaces and serves its nodes
 * from memory. A written value must fit the variable's DataType as the address space defines it
 * (Part 4, 5.11.4): a model's enumeration takes an Int32, its subtype of a built-in type that
 * built-in type, its structure an ExtensionObject of that structure (or of a subtype's encoding
 * this server does not decode).
 */
public final class ImportedNodeManager extends NodeStoreNodeManager {

    private final ImportedModel model;
    private final DataTypes dataTypes;

    /** @param addressSpace finds any node of the server, for the supertypes of DataTypes */
    public ImportedNodeManager(ImportedModel model, Function<NodeId, UaNode> addressSpace) {
        super(model.namespaceUris(), model.store(), true);
        this.model = model;
        this.dataTypes = new DataTypes(addressSpace);
    }

    public ImportedModel model() {
        return model;
    }

    /** Its nodes may be added and deleted through the NodeManagement services (Part 4, 5.7). */
    @Override
    public boolean acceptsNodeManagement() {
        return true;
    }

    @Override
    protected boolean acceptsValue(VariableNode variable, Variant value) {
        ValueAttributes attributes = variable.valueAttributes();
        NodeId dataType = attributes.dataType();
        if (dataType.namespaceIndex() == 0 || value.isNull()) {
            return DataTypeCheck.accepts(attributes, value);
        }
        FieldEncoding encoding;
        try {
            encoding = dataTypes.fieldEncoding(dataType);
        } catch (IllegalArgumentException e) {
            return false; // a DataType the address space cannot place: no value can be shown to fit
        }
        BuiltinType builtin = encoding instanceof FieldEncoding.Builtin b ? b.type()
                : encoding instanceof FieldEncoding.Enumeration ? BuiltinType.Int32 : BuiltinType.ExtensionObject;
        if (!DataTypeCheck.accepts(new ValueAttributes(builtin.dataTypeId(), attributes.valueRank(),
                attributes.arrayDimensions()), value)) {
            return false;
        }
        if (encoding instanceof FieldEncoding.Structured structured) {
            return fitsStructure(structured, value);
        }
        return true;
    }

    /** Each decoded structure must be of the DataType or a subtype; undecoded bodies are let through. */
    private boolean fitsStructure(FieldEncoding.Structured structured, Variant value) {
        Object v = value.value();
        Object[] elements = v instanceof Object[] array ? array : new Object[] {v};
        for (Object element : elements) {
            UaStructure decoded = element instanceof ExtensionObject eo ? eo.decoded() : null;
            if (decoded != null && !dataTypes.isSubtypeOf(decoded.typeId(), structured.dataType())) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "ImportedNodeManager" + model.namespaceUris();
    }
}
