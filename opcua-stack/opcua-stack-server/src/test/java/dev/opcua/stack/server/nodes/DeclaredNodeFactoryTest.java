package dev.opcua.stack.server.nodes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.history.aggregate.AggregateConfiguration;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.WellKnownRole;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The nodes the declarations become when the manager starts: the history configuration of a historizing
 * variable (Part 11, 5.2.2), DataTypes named by namespace URI, a node's own role permissions (Part 3, 5.2.9).
 */
class DeclaredNodeFactoryTest {

    private static final String NS = "urn:test:plant";
    private static final NodeId HAS_PROPERTY = NodeId.ns0(NodeIds.HasProperty);
    private static final NodeId HAS_COMPONENT = NodeId.ns0(NodeIds.HasComponent);
    private static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);

    /** Starts the manager in a namespace table holding its namespace (and {@code others}), as the server does. */
    private static InMemoryNodeManager started(InMemoryNodeManagerBuilder builder, String... others) {
        NamespaceTable namespaces = new NamespaceTable("urn:test:server");
        for (String other : others) {
            namespaces.register(other);
        }
        namespaces.register(NS);
        InMemoryNodeManager manager = builder.build();
        manager.startup(namespaces);
        return manager;
    }

    private static Variant value(NodeStore store, NodeId node) {
        return ((VariableNode) store.get(node)).value().value();
    }

    @Test
    void a_stepped_variable_references_its_history_configuration_with_stepped_and_the_default_aggregate_settings() {
        InMemoryNodeManager manager = started(InMemoryNodeManager.builder(NS).object("Boiler")
                .variable("Boiler.Setpoint", BuiltinType.Double, v -> v.stepped()));
        NodeStore store = manager.store();
        NodeId setpoint = manager.nodeId("Boiler.Setpoint");
        NodeId configuration = manager.nodeId("Boiler.Setpoint.HA Configuration");
        assertThat(configuration).isEqualTo(NodeId.string(manager.namespaceIndex(), "Boiler.Setpoint.HA Configuration"));
        assertThat(store.get(setpoint).referenceList()).contains(
                UaReference.forward(NodeId.ns0(NodeIds.HasHistoricalConfiguration), configuration));
        assertThat(store.get(configuration).referenceList()).contains(
                UaReference.forward(HAS_TYPE_DEFINITION, NodeId.ns0(NodeIds.HistoricalDataConfigurationType)));
        assertThat(value(store, NodeId.string(manager.namespaceIndex(), "Boiler.Setpoint.HA Configuration.Stepped")))
                .isEqualTo(Variant.ofBoolean(true));

        NodeId aggregates = NodeId.string(manager.namespaceIndex(),
                "Boiler.Setpoint.HA Configuration.AggregateConfiguration");
        assertThat(store.get(configuration).referenceList()).contains(UaReference.forward(HAS_COMPONENT, aggregates));
        AggregateConfiguration defaults = AggregateConfiguration.DEFAULT;
        assertThat(value(store, NodeId.string(aggregates.namespaceIndex(), aggregates.stringId() + ".PercentDataBad")))
                .isEqualTo(Variant.ofByte(defaults.percentDataBad()));
        assertThat(store.get(aggregates).referenceList()).filteredOn(r -> r.referenceTypeId().equals(HAS_PROPERTY))
                .hasSize(4);

        VariableNode variable = (VariableNode) store.get(setpoint);
        assertThat(variable.historizing()).isTrue();
        assertThat(variable.accessLevel() & 0x04).as("HistoryRead").isNotZero();
        assertThat(variable.accessLevel() & 0x08).as("HistoryWrite").isZero();
    }

    @Test
    void a_sloped_variable_says_so_and_a_variable_that_is_not_historized_has_no_configuration() {
        InMemoryNodeManager manager = started(InMemoryNodeManager.builder(NS)
                .variable("Level", BuiltinType.Double, v -> v.historyWritable())
                .variable("Alarm", BuiltinType.Boolean, v -> { }));
        int ns = manager.namespaceIndex();
        assertThat(value(manager.store(), NodeId.string(ns, "Level.HA Configuration.Stepped")))
                .isEqualTo(Variant.ofBoolean(false));
        assertThat(((VariableNode) manager.store().get(manager.nodeId("Level"))).accessLevel() & 0x08)
                .as("HistoryWrite").isNotZero();
        assertThatThrownBy(() -> manager.nodeId("Alarm.HA Configuration"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThat(((VariableNode) manager.store().get(manager.nodeId("Alarm"))).historizing()).isFalse();
    }

    @Test
    void the_history_configuration_of_a_numeric_node_is_named_after_the_node_id() {
        InMemoryNodeManager manager = started(InMemoryNodeManager.builder(NS)
                .variable("Level", BuiltinType.Double, v -> v.id(7).historizing()));
        int ns = manager.namespaceIndex();
        assertThat(manager.nodeId("Level.HA Configuration"))
                .isEqualTo(NodeId.string(ns, NodeId.numeric(ns, 7) + ".HA Configuration"));
    }

    @Test
    void a_data_type_named_by_namespace_uri_gets_the_servers_index_for_it() {
        String types = "urn:test:types";
        InMemoryNodeManager manager = started(InMemoryNodeManager.builder(NS)
                .variable("Recipe", ExpandedNodeId.of(NodeId.numeric(0, 3001), types, 0), v -> { })
                .variable("Count", ExpandedNodeId.of(NodeId.ns0(NodeIds.Int32)), v -> { }), types);
        int typesIndex = 2;
        VariableNode recipe = (VariableNode) manager.store().get(manager.nodeId("Recipe"));
        assertThat(recipe.valueAttributes().dataType()).isEqualTo(NodeId.numeric(typesIndex, 3001));
        VariableNode count = (VariableNode) manager.store().get(manager.nodeId("Count"));
        assertThat(count.valueAttributes().dataType()).isEqualTo(NodeId.ns0(NodeIds.Int32));
    }

    @Test
    void a_data_type_of_a_namespace_the_server_lacks_stops_the_start_naming_the_variable() {
        InMemoryNodeManagerBuilder builder = InMemoryNodeManager.builder(NS)
                .variable("Recipe", ExpandedNodeId.of(NodeId.numeric(0, 3001), "urn:test:missing", 0), v -> { });
        assertThatThrownBy(() -> started(builder))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Recipe")
                .hasMessageContaining("urn:test:missing");
    }

    @Test
    void roles_narrow_the_namespace_default_for_the_named_permission_only() {
        NodePermissions operatorsRead = NodePermissions.of(Map.of(
                WellKnownRole.OPERATOR, Set.of(Permission.BROWSE, Permission.READ, Permission.WRITE),
                WellKnownRole.ENGINEER, Set.of(Permission.BROWSE, Permission.READ, Permission.WRITE)));
        InMemoryNodeManager manager = started(InMemoryNodeManager.builder(NS)
                .defaultPermissions(operatorsRead)
                .variable("Setpoint", BuiltinType.Double, v -> v.writeRoles(WellKnownRole.ENGINEER))
                .variable("Speed", BuiltinType.Double, v -> { }));
        NodeStore store = manager.store();
        NodePermissions setpoint = store.permissionsOf(store.get(manager.nodeId("Setpoint")));
        assertThat(setpoint.allows(WellKnownRole.OPERATOR.mask(), Permission.WRITE)).isFalse();
        assertThat(setpoint.allows(WellKnownRole.OPERATOR.mask(), Permission.READ)).isTrue();
        assertThat(setpoint.allows(WellKnownRole.ENGINEER.mask(), Permission.WRITE)).isTrue();
        assertThat(store.permissionsOf(store.get(manager.nodeId("Speed")))).isSameAs(operatorsRead);
    }

    @Test
    void a_folder_organizes_its_children_and_an_object_has_them_as_components() {
        InMemoryNodeManager manager = started(InMemoryNodeManager.builder(NS)
                .folder("Line1")
                .object("Line1.Motor")
                .variable("Line1.Motor.Speed", BuiltinType.Double, v -> { }));
        NodeStore store = manager.store();
        assertThat(store.get(manager.nodeId("Line1")).referenceList()).contains(
                UaReference.inverse(NodeId.ns0(NodeIds.Organizes), NodeId.ns0(NodeIds.ObjectsFolder)),
                UaReference.forward(NodeId.ns0(NodeIds.Organizes), manager.nodeId("Line1.Motor")));
        assertThat(store.get(manager.nodeId("Line1.Motor")).referenceList()).contains(
                UaReference.forward(HAS_COMPONENT, manager.nodeId("Line1.Motor.Speed")));
        assertThat(store.get(manager.nodeId("Line1.Motor.Speed")).referenceList()).containsExactlyInAnyOrder(
                UaReference.inverse(HAS_COMPONENT, manager.nodeId("Line1.Motor")),
                UaReference.forward(HAS_TYPE_DEFINITION, NodeId.ns0(NodeIds.BaseDataVariableType)));
    }
}
