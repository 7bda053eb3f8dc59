package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import java.util.List;
import org.junit.jupiter.api.Test;

class AddressSpaceFingerprintTest {

    private static final String[] NAMESPACES = {"http://opcfoundation.org/UA/", "urn:server:a", "urn:plant"};

    @Test
    void equal_address_spaces_give_equal_fingerprints_whatever_the_local_namespace_and_values() {
        String a = AddressSpaceFingerprint.compute(NAMESPACES, List.of(plant(
                variable(2, "Level", NodeIds.Double, 1.0), variable(1, "Diagnostics", NodeIds.Int32, 7))));
        String b = AddressSpaceFingerprint.compute(
                new String[] {"http://opcfoundation.org/UA/", "urn:server:b", "urn:plant"},
                List.of(plant(variable(2, "Level", NodeIds.Double, 42.0))));

        assertThat(a).startsWith("sha256:").hasSize("sha256:".length() + 64).isEqualTo(b);
    }

    @Test
    void a_node_more_a_other_data_type_or_another_namespace_order_changes_the_fingerprint() {
        String base = AddressSpaceFingerprint.compute(NAMESPACES, List.of(plant(variable(2, "Level", NodeIds.Double, 0))));

        assertThat(AddressSpaceFingerprint.compute(NAMESPACES, List.of(plant(variable(2, "Level", NodeIds.Double, 0),
                variable(2, "Speed", NodeIds.Double, 0))))).isNotEqualTo(base);
        assertThat(AddressSpaceFingerprint.compute(NAMESPACES, List.of(plant(variable(2, "Level", NodeIds.Float, 0)))))
                .isNotEqualTo(base);
        assertThat(AddressSpaceFingerprint.compute(new String[] {NAMESPACES[0], NAMESPACES[1], "urn:other"},
                List.of(plant(variable(2, "Level", NodeIds.Double, 0))))).isNotEqualTo(base);
    }

    @Test
    void the_cached_fingerprint_is_computed_again_after_invalidate() {
        NodeStoreNodeManager plant = plant(variable(2, "Level", NodeIds.Double, 0));
        dev.opcua.stack.server.nodes.NamespaceTable namespaces =
                new dev.opcua.stack.server.nodes.NamespaceTable("urn:server:a");
        namespaces.register("urn:plant");
        AddressSpaceFingerprint fingerprint = new AddressSpaceFingerprint(namespaces, () -> List.<NodeManager>of(plant));
        String before = fingerprint.value();

        plant.store().add(variable(2, "Added", NodeIds.Double, 0));
        assertThat(fingerprint.value()).as("cached until a model change").isEqualTo(before);
        fingerprint.invalidate();
        assertThat(fingerprint.value()).isNotEqualTo(before);
    }

    private static NodeStoreNodeManager plant(VariableNode... nodes) {
        NodeStoreNodeManager manager = new NodeStoreNodeManager(List.of("urn:plant"), new NodeStore(4));
        for (VariableNode node : nodes) {
            manager.store().add(node);
        }
        return manager;
    }

    private static VariableNode variable(int ns, String name, int dataType, double value) {
        return new VariableNode(NodeId.string(ns, name), QualifiedName.of(ns, name), LocalizedText.of(name), null, 0,
                0, DataValue.of(Variant.ofDouble(value)), ValueAttributes.scalar(NodeId.ns0(dataType)), (short) 1,
                (short) 1, 0, false, 1);
    }
}
