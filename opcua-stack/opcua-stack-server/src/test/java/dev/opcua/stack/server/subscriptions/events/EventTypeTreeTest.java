package dev.opcua.stack.server.subscriptions.events;

import static dev.opcua.stack.server.subscriptions.events.Filters.AUDIT_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.AUDIT_SECURITY_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.BASE_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.CONDITION_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.SYSTEM_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.ns0;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectTypeNode;
import dev.opcua.stack.server.addressspace.UaReference;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The ObjectType hierarchy of namespace 0 as OfType and typeDefinitionIds use it (Part 5, 6.4). */
class EventTypeTreeTest {

    private static final NodeId BASE_OBJECT_TYPE = NodeId.ns0(NodeIds.BaseObjectType);

    @Test
    void standard_event_types_are_subtypes_of_base_event_type() {
        EventTypeTree tree = ns0();
        assertThat(tree.isSubtypeOf(AUDIT_EVENT_TYPE, BASE_EVENT_TYPE)).isTrue();
        assertThat(tree.isSubtypeOf(AUDIT_SECURITY_EVENT_TYPE, AUDIT_EVENT_TYPE)).isTrue();
        assertThat(tree.isSubtypeOf(AUDIT_SECURITY_EVENT_TYPE, BASE_EVENT_TYPE)).isTrue();
        assertThat(tree.isSubtypeOf(NodeId.ns0(NodeIds.AlarmConditionType), CONDITION_TYPE)).isTrue();
        assertThat(tree.isSubtypeOf(BASE_EVENT_TYPE, BASE_EVENT_TYPE)).isTrue();
        assertThat(tree.isSubtypeOf(BASE_EVENT_TYPE, AUDIT_EVENT_TYPE)).isFalse();
        assertThat(tree.isSubtypeOf(SYSTEM_EVENT_TYPE, AUDIT_EVENT_TYPE)).isFalse();
        assertThat(tree.isSubtypeOf(BASE_EVENT_TYPE, BASE_OBJECT_TYPE)).isTrue();
        assertThat(tree.supertypeOf(AUDIT_EVENT_TYPE)).isEqualTo(BASE_EVENT_TYPE);
        assertThat(tree.supertypeOf(BASE_OBJECT_TYPE)).isNull();
    }

    @Test
    void only_base_event_type_and_its_subtypes_are_event_types() {
        EventTypeTree tree = ns0();
        assertThat(tree.isEventType(NodeId.ns0(NodeIds.GeneralModelChangeEventType))).isTrue();
        assertThat(tree.isEventType(BASE_OBJECT_TYPE)).isFalse();
        assertThat(tree.isEventType(NodeId.ns0(NodeIds.FolderType))).isFalse();
        assertThat(tree.isKnown(NodeId.ns0(NodeIds.FolderType))).isTrue();
        assertThat(tree.isKnown(NodeId.numeric(5, 1))).isFalse();
        assertThat(tree.isEventType(NodeId.numeric(5, 1))).isFalse();
        assertThat(tree.size()).isGreaterThan(100);
    }

    @Test
    void declared_fields_include_those_inherited_and_nested() {
        EventTypeTree tree = ns0();
        assertThat(tree.declares(BASE_EVENT_TYPE, FieldPath.SEVERITY)).isTrue();
        assertThat(tree.declares(BASE_EVENT_TYPE, FieldPath.of("LocalTime"))).isTrue();
        assertThat(tree.declares(AUDIT_EVENT_TYPE, FieldPath.of("ClientUserId"))).isTrue();
        assertThat(tree.declares(AUDIT_EVENT_TYPE, FieldPath.SEVERITY)).isTrue();
        assertThat(tree.declares(AUDIT_SECURITY_EVENT_TYPE, FieldPath.of("ClientUserId"))).isTrue();
        assertThat(tree.declares(BASE_EVENT_TYPE, FieldPath.of("ClientUserId"))).isFalse();
        assertThat(tree.declares(CONDITION_TYPE, FieldPath.of("EnabledState", "Id"))).isTrue();
        assertThat(tree.declares(CONDITION_TYPE, FieldPath.of("EnabledState", "Nope"))).isFalse();
    }

    @Test
    void node_managers_register_their_own_event_types() {
        EventTypeTree tree = EventTypeTree.of(dev.opcua.stack.server.namespace0.Namespace0Loader.load());
        NodeId boilerAlarm = NodeId.string(2, "BoilerEventType");
        NodeId overheat = NodeId.string(2, "OverheatEventType");
        tree.register(boilerAlarm, SYSTEM_EVENT_TYPE, List.of(FieldPath.of(QualifiedName.of(2, "Temperature"))));
        tree.register(overheat, boilerAlarm, List.of());
        assertThat(tree.isEventType(overheat)).isTrue();
        assertThat(tree.isSubtypeOf(overheat, SYSTEM_EVENT_TYPE)).isTrue();
        assertThat(tree.declares(overheat, FieldPath.of(QualifiedName.of(2, "Temperature")))).isTrue();
        assertThat(tree.declares(overheat, FieldPath.SOURCE_NAME)).isTrue();
        assertThatThrownBy(() -> tree.register(overheat, boilerAlarm, List.of()))
                .hasMessageContaining("is registered already");
        assertThatThrownBy(() -> tree.register(NodeId.string(2, "X"), NodeId.string(2, "Missing"), List.of()))
                .hasMessageContaining("supertype ns=2;s=Missing of ns=2;s=X is not a known ObjectType");
    }

    @Test
    void types_of_a_node_managers_store_are_added_with_their_supertype_in_the_tree() {
        EventTypeTree tree = EventTypeTree.of(dev.opcua.stack.server.namespace0.Namespace0Loader.load());
        NodeStore store = new NodeStore(4);
        NodeId pumpEvent = NodeId.numeric(3, 1);
        ObjectTypeNode type = new ObjectTypeNode(pumpEvent, QualifiedName.of(3, "PumpEventType"),
                LocalizedText.of("PumpEventType"), null, 0, 0, false);
        type.addReference(UaReference.inverse(NodeId.ns0(NodeIds.HasSubtype), BASE_EVENT_TYPE));
        store.add(type);
        tree.addTypes(store);
        assertThat(tree.isEventType(pumpEvent)).isTrue();
        assertThat(tree.supertypeOf(pumpEvent)).isEqualTo(BASE_EVENT_TYPE);
    }

    @Test
    void a_subtype_test_allocates_nothing_and_takes_the_depth_of_the_type() {
        EventTypeTree tree = ns0();
        NodeId deep = NodeId.ns0(NodeIds.ExclusiveLevelAlarmType);
        long start = System.nanoTime();
        boolean all = true;
        for (int i = 0; i < 1_000_000; i++) {
            all &= tree.isSubtypeOf(deep, BASE_EVENT_TYPE);
        }
        assertThat(all).isTrue();
        assertThat(System.nanoTime() - start).isLessThan(2_000_000_000L);
    }
}
