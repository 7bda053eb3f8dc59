package dev.opcua.stack.server.certificates;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.server.addressspace.MethodNode;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;

/**
 * The 1.05 method ServerConfiguration.GetCertificates (Part 12, 7.10.13; i=32333) with its InputArguments and
 * OutputArguments, added to namespace 0 when the loaded nodeset (1.04) lacks it, so that clients can browse it
 * and learn its arguments like those of the other methods.
 */
final class GetCertificatesNode {

    private static final NodeId HAS_COMPONENT = NodeId.ns0(NodeIds.HasComponent);
    private static final NodeId HAS_PROPERTY = NodeId.ns0(NodeIds.HasProperty);
    private static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);
    private static final NodeId PROPERTY_TYPE = NodeId.ns0(NodeIds.PropertyType);
    private static final NodeId ARGUMENT = NodeId.ns0(NodeIds.Argument);
    private static final short READ = 1;

    private GetCertificatesNode() {
    }

    static void addIfMissing(NodeStore store) {
        NodeId id = NodeId.ns0(NodeIds.ServerConfiguration_GetCertificates);
        if (store.get(id) != null) {
            return;
        }
        MethodNode method = new MethodNode(id, QualifiedName.of(0, "GetCertificates"),
                LocalizedText.of("GetCertificates"), null, 0, 0, true, true);
        store.add(method);
        NodeId owner = NodeId.ns0(NodeIds.ServerConfiguration);
        method.addReference(UaReference.inverse(HAS_COMPONENT, owner));
        store.get(owner).addReference(UaReference.forward(HAS_COMPONENT, id));
        arguments(store, method, NodeIds.ServerConfiguration_GetCertificates_InputArguments, "InputArguments",
                new Argument("CertificateGroupId", NodeId.ns0(NodeIds.NodeId), -1, null, null));
        arguments(store, method, NodeIds.ServerConfiguration_GetCertificates_OutputArguments, "OutputArguments",
                new Argument("CertificateTypeIds", NodeId.ns0(NodeIds.NodeId), 1, new long[] {0}, null),
                new Argument("Certificates", NodeId.ns0(NodeIds.ByteString), 1, new long[] {0}, null));
    }

    private static void arguments(NodeStore store, MethodNode method, int id, String name, Argument... arguments) {
        ExtensionObject[] values = new ExtensionObject[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            values[i] = ExtensionObject.of(arguments[i]);
        }
        NodeId nodeId = NodeId.ns0(id);
        VariableNode property = new VariableNode(nodeId, QualifiedName.of(0, name), LocalizedText.of(name), null, 0, 0,
                DataValue.of(Variant.ofArray(BuiltinType.ExtensionObject, values), StatusCode.GOOD, DateTime.now(),
                        null),
                new ValueAttributes(ARGUMENT, 1, new long[] {arguments.length}), READ, READ, 0, false, READ);
        store.add(property);
        property.addReference(UaReference.inverse(HAS_PROPERTY, method.nodeId()));
        property.addReference(UaReference.forward(HAS_TYPE_DEFINITION, PROPERTY_TYPE));
        method.addReference(UaReference.forward(HAS_PROPERTY, nodeId));
    }
}
