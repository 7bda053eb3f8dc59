package dev.opcua.stack.server.subscriptions.events;

import static dev.opcua.stack.server.subscriptions.events.Filters.AUDIT_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.BASE_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.SERVER;
import static dev.opcua.stack.server.subscriptions.events.Filters.event;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The event model: BaseEventType fields (Part 5, 6.4.2), extra fields by browse path, the builder's checks. */
class UaEventTest {

    @Test
    void the_builder_fills_event_id_and_times_and_keeps_the_mandatory_fields() {
        DateTime before = DateTime.now();
        UaEvent e = UaEvent.builder(AUDIT_EVENT_TYPE).sourceNode(SERVER).sourceName("Server")
                .message(LocalizedText.of("en", "Session created")).severity(200).build();
        assertThat(e.eventType()).isEqualTo(AUDIT_EVENT_TYPE);
        assertThat(e.eventId().length()).isEqualTo(16);
        assertThat(e.sourceNode()).isEqualTo(SERVER);
        assertThat(e.sourceName()).isEqualTo("Server");
        assertThat(e.message()).isEqualTo(LocalizedText.of("en", "Session created"));
        assertThat(e.severity()).isEqualTo(200);
        assertThat(e.time()).isEqualTo(e.receiveTime());
        assertThat(e.time().compareTo(before)).isGreaterThanOrEqualTo(0);
        assertThat(e.nodeId()).isNull();
        assertThat(e.nodeIdVariant()).isEqualTo(Variant.NULL);
        assertThat(e.field(FieldPath.EVENT_TYPE)).isEqualTo(Variant.of(AUDIT_EVENT_TYPE));
        assertThat(e.field(FieldPath.SEVERITY)).isEqualTo(Variant.ofUInt16(200));
    }

    @Test
    void event_ids_are_unique_also_from_a_reused_builder() {
        UaEvent.Builder builder = event(1);
        Set<ByteString> ids = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(builder.build().eventId());
        }
        assertThat(ids).hasSize(10_000);
    }

    @Test
    void explicit_id_and_times_are_kept() {
        ByteString id = ByteString.of(new byte[] {1, 2, 3});
        DateTime t = DateTime.ofEpochMillis(1000);
        DateTime r = DateTime.ofEpochMillis(2000);
        UaEvent e = event(1).eventId(id).time(t).receiveTime(r).build();
        assertThat(e.eventId()).isEqualTo(id);
        assertThat(e.time()).isEqualTo(t);
        assertThat(e.receiveTime()).isEqualTo(r);
    }

    @Test
    void missing_mandatory_fields_are_named() {
        assertThatThrownBy(() -> UaEvent.builder(BASE_EVENT_TYPE).sourceNode(SERVER).build())
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("an event of type i=2041 needs the mandatory fields SourceName, Message, Severity "
                        + "(Part 5, 6.4.2)");
        assertThatThrownBy(() -> UaEvent.builder(NodeId.NULL)).hasMessageContaining("null NodeId");
    }

    @Test
    void severity_must_be_within_1_to_1000() {
        assertThatThrownBy(() -> event(1).severity(0)).hasMessageContaining("Severity 0 is outside 1..1000");
        assertThatThrownBy(() -> event(1).severity(1001)).isInstanceOf(IllegalArgumentException.class);
        assertThat(event(1000).build().severity()).isEqualTo(1000);
    }

    @Test
    void extra_fields_are_keyed_by_their_browse_path() {
        FieldPath enabledId = FieldPath.of(QualifiedName.of(0, "EnabledState"), QualifiedName.of(0, "Id"));
        FieldPath custom = FieldPath.of(QualifiedName.of(2, "Temperature"));
        UaEvent e = event(1).field(enabledId, Variant.ofBoolean(true)).field(custom, Variant.ofDouble(80.5))
                .field("ClientUserId", Variant.ofString("admin")).build();
        assertThat(e.field(FieldPath.of("EnabledState", "Id"))).isEqualTo(Variant.ofBoolean(true));
        assertThat(e.field(FieldPath.of(QualifiedName.of(2, "Temperature")))).isEqualTo(Variant.ofDouble(80.5));
        assertThat(e.field(FieldPath.of("Temperature"))).isEqualTo(Variant.NULL);
        assertThat(e.field(FieldPath.of("ClientUserId"))).isEqualTo(Variant.ofString("admin"));
        assertThat(e.hasField(custom)).isTrue();
        assertThat(e.hasField(FieldPath.of("Nothing"))).isFalse();
        assertThat(e.extraFields()).containsExactlyInAnyOrder(enabledId, custom, FieldPath.of("ClientUserId"));
        assertThatThrownBy(() -> e.extraFields().clear()).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void a_null_value_removes_an_extra_field() {
        UaEvent e = event(1).field("Foo", Variant.ofInt32(1)).field("Foo", Variant.NULL).build();
        assertThat(e.hasField(FieldPath.of("Foo"))).isFalse();
    }

    @Test
    void base_event_type_fields_set_by_path_must_have_their_data_type() {
        UaEvent e = event(1).field(FieldPath.SEVERITY, Variant.ofUInt16(900))
                .field("SourceName", Variant.ofString("Pump")).build();
        assertThat(e.severity()).isEqualTo(900);
        assertThat(e.sourceName()).isEqualTo("Pump");
        assertThatThrownBy(() -> event(1).field("Severity", Variant.ofInt32(5)))
                .hasMessage("Severity holds a scalar UInt16, not Variant[Int32 5]");
        assertThatThrownBy(() -> event(1).field("Severity", Variant.ofUInt16(5000)))
                .hasMessageContaining("outside 1..1000");
        assertThatThrownBy(() -> event(1).field("EventType", Variant.of(AUDIT_EVENT_TYPE)))
                .hasMessageContaining("EventType is set by UaEvent.builder");
        assertThatThrownBy(() -> event(1).field(FieldPath.EMPTY, Variant.ofInt32(1)))
                .hasMessageContaining("use nodeId");
    }

    @Test
    void field_paths_of_base_event_type_are_canonical() {
        assertThat(FieldPath.of("Severity")).isSameAs(FieldPath.SEVERITY);
        assertThat(FieldPath.of(QualifiedName.of(0, "EventId"))).isSameAs(FieldPath.EVENT_ID);
        assertThat(FieldPath.of(QualifiedName.of(1, "Severity"))).isNotEqualTo(FieldPath.SEVERITY);
        assertThat(FieldPath.of(new QualifiedName[0])).isSameAs(FieldPath.EMPTY);
        assertThat(FieldPath.of("A", "B")).isEqualTo(FieldPath.of("A").append(QualifiedName.of(0, "B")))
                .hasSameHashCodeAs(FieldPath.of("A", "B"));
        assertThat(FieldPath.of(QualifiedName.of(0, "EnabledState"), QualifiedName.of(2, "Id")))
                .hasToString("EnabledState/2:Id");
        assertThatThrownBy(() -> FieldPath.of(QualifiedName.of(0, "A"), QualifiedName.NULL))
                .hasMessageContaining("browse path element 1 has no name");
    }
}
