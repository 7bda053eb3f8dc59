package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import java.util.List;

/**
 * The server's local namespace (index 1, its ApplicationUri) with one node: the {@link AddressSpaceFingerprint}
 * as a property of Server.ServerRedundancy ({@link AddressSpaceFingerprint#NODE}, a String), read by the
 * partners' {@link PartnerMonitor}s. Registered only by a server of a Warm, Hot or HotAndMirrored set whose
 * local namespace no application node manager owns.
 */
public final class FingerprintNodeManager extends NodeStoreNodeManager {

    private static final short READ = 1;

    /**
     * @param applicationUri the server's ApplicationUri, the URI of namespace 1
     * @param namespace0 the namespace-0 store: Server.ServerRedundancy gets a HasProperty reference to the node
     */
    public FingerprintNodeManager(String applicationUri, AddressSpaceFingerprint fingerprint, NodeStore namespace0) {
        super(List.of(applicationUri), new NodeStore(2), true);
        NodeId hasProperty = NodeId.ns0(NodeIds.HasProperty);
        VariableNode node = new VariableNode(AddressSpaceFingerprint.NODE, QualifiedName.of(1, "AddressSpaceFingerprint"),
                LocalizedText.of("AddressSpaceFingerprint"),
                LocalizedText.of("SHA-256 of the NamespaceArray from index 2 and the NodeIds, BrowseNames, NodeClasses"
                        + " and DataTypes of the nodes in those namespaces: equal on the servers of a redundant set"),
                0, 0, null, ValueAttributes.scalar(NodeId.ns0(NodeIds.String)), READ, READ, 0, false, READ);
        node.setValueSource(() -> DataValue.of(Variant.ofString(fingerprint.value()), StatusCode.GOOD, null, null));
        node.addReference(UaReference.inverse(hasProperty, RedundancyObject.SERVER_REDUNDANCY));
        node.addReference(UaReference.forward(NodeId.ns0(NodeIds.HasTypeDefinition), NodeId.ns0(NodeIds.PropertyType)));
        store().add(node);
        UaNode owner = namespace0.get(RedundancyObject.SERVER_REDUNDANCY);
        if (owner != null) {
            owner.addReference(UaReference.forward(hasProperty, AddressSpaceFingerprint.NODE));
        }
    }
}
