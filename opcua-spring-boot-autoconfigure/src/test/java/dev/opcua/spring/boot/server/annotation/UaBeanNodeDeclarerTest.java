package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.NamespaceTable;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The nodes a bean's model becomes before any server runs (Part 3, 5.5 to 5.7): objects, nested objects,
 * variables that read their members, methods, an alarm source as event notifier, and the typed objects
 * left for their type.
 */
class UaBeanNodeDeclarerTest {

    private static final String NS = "urn:test:annotations:declarer";

    static final class Motor {
        @UaVariable(description = "winding temperature")
        @UaLimitAlarm(high = 80)
        volatile double temperature = 40;
    }

    static final class Nameplate {
        @UaVariable
        volatile String serialNumber = "F-1000";
    }

    @OpcUaNamespace(value = NS, name = "Filler", description = "bottle filler")
    static final class Filler {
        @UaVariable(access = UaAccess.READ_WRITE)
        volatile double speed = 1.5;

        @UaObject
        final Motor motor = new Motor();

        @UaObject(type = "nsu=urn:test:types;i=1012")
        final Nameplate nameplate = new Nameplate();

        @UaMethod
        public void start() {
        }
    }

    private final Filler filler = new Filler();
    private final UaBeanNodeDeclarer declarer = new UaBeanNodeDeclarer(InMemoryNodeManager.builder(NS),
            new UaBeanMemberAccess(null), null);

    private InMemoryNodeManager started() {
        declarer.declare(UaBeanIntrospector.introspect("filler", filler));
        InMemoryNodeManager nodes = declarer.build();
        NamespaceTable namespaces = new NamespaceTable("urn:test:server");
        namespaces.register(NS);
        nodes.startup(namespaces);
        return nodes;
    }

    @Test
    void the_bean_becomes_an_object_with_its_variables_methods_and_nested_objects() {
        InMemoryNodeManager nodes = started();
        ObjectNode filler = (ObjectNode) nodes.store().get(nodes.nodeId("Filler"));
        assertThat(filler.description()).isEqualTo(LocalizedText.of("bottle filler"));
        assertThat(filler.referenceList()).contains(
                UaReference.forward(NodeId.ns0(NodeIds.HasComponent), nodes.nodeId("Filler.Speed")),
                UaReference.forward(NodeId.ns0(NodeIds.HasComponent), nodes.nodeId("Filler.Start")),
                UaReference.forward(NodeId.ns0(NodeIds.HasComponent), nodes.nodeId("Filler.Motor")));
        assertThat(nodes.store().get(nodes.nodeId("Filler.Motor.Temperature")).description())
                .isEqualTo(LocalizedText.of("winding temperature"));
    }

    @Test
    void a_variable_reads_its_member_on_every_read_and_is_writable_as_the_member_allows() {
        InMemoryNodeManager nodes = started();
        VariableNode speed = (VariableNode) nodes.store().get(nodes.nodeId("Filler.Speed"));
        assertThat(speed.value().value()).isEqualTo(Variant.ofDouble(1.5));
        filler.speed = 2.5;
        assertThat(speed.value().value()).isEqualTo(Variant.ofDouble(2.5));
        assertThat(speed.accessLevel() & 0x02).as("CurrentWrite").isNotZero();
        VariableNode temperature = (VariableNode) nodes.store().get(nodes.nodeId("Filler.Motor.Temperature"));
        assertThat(temperature.accessLevel() & 0x02).as("CurrentWrite").isZero();
    }

    @Test
    void an_object_with_an_alarm_is_an_event_notifier_and_one_without_is_not() {
        InMemoryNodeManager nodes = started();
        assertThat(((ObjectNode) nodes.store().get(nodes.nodeId("Filler.Motor"))).eventNotifier()).isEqualTo((short) 1);
        assertThat(((ObjectNode) nodes.store().get(nodes.nodeId("Filler"))).eventNotifier()).isZero();
    }

    @Test
    void a_typed_object_is_left_for_its_type_and_its_variables_are_bound_later() {
        InMemoryNodeManager nodes = started();
        assertThat(declarer.typedObjects()).containsOnlyKeys("Filler.Nameplate");
        assertThat(nodes.store().get(NodeId.string(nodes.namespaceIndex(), "Filler.Nameplate")))
                .as("made by the type instantiator at start").isNull();
        assertThat(declarer.variables()).extracting(b -> b.path + (b.typed ? " (typed)" : ""))
                .containsExactly("Filler.Speed", "Filler.Motor.Temperature", "Filler.Nameplate.SerialNumber (typed)");
    }

    @Test
    void variables_are_found_by_their_holder_and_java_name_and_from_the_bean_by_dotted_path() {
        started();
        assertThat(declarer.byHolder().get(filler).keySet())
                .containsExactlyInAnyOrder("speed", "motor.temperature", "nameplate.serialNumber");
        List<UaVariableBinding> temperature = declarer.byHolder().get(filler.motor).get("temperature");
        assertThat(temperature).extracting(b -> b.path).containsExactly("Filler.Motor.Temperature");
        assertThat(declarer.byHolder().get(filler.nameplate)).containsOnlyKeys("serialNumber");
    }
}
