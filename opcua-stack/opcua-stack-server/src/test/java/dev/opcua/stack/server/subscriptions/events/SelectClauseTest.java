package dev.opcua.stack.server.subscriptions.events;

import static dev.opcua.stack.server.subscriptions.events.Filters.AUDIT_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.BASE_EVENT_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.CONDITION_TYPE;
import static dev.opcua.stack.server.subscriptions.events.Filters.SERVER;
import static dev.opcua.stack.server.subscriptions.events.Filters.el;
import static dev.opcua.stack.server.subscriptions.events.Filters.event;
import static dev.opcua.stack.server.subscriptions.events.Filters.f;
import static dev.opcua.stack.server.subscriptions.events.Filters.field;
import static dev.opcua.stack.server.subscriptions.events.Filters.lit;
import static dev.opcua.stack.server.subscriptions.events.Filters.ns0;
import static dev.opcua.stack.server.subscriptions.events.Filters.op;
import static dev.opcua.stack.server.subscriptions.events.Filters.where;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.FilterOperator;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** Building EventFieldLists from select clauses (Part 4, 7.22.3 and 7.25.3). */
class SelectClauseTest {

    private static EventFilterEvaluator select(SimpleAttributeOperand... clauses) {
        EventFilterEvaluator evaluator = EventFilterEvaluator.compile(new EventFilter(clauses, null), ns0());
        assertThat(evaluator.hasErrors()).as(evaluator.problems().toString()).isFalse();
        return evaluator;
    }

    private static SimpleAttributeOperand eventNode(NodeId type) {
        return new SimpleAttributeOperand(type, new QualifiedName[0], AttributeIds.NodeId, null);
    }

    @Test
    void the_base_event_type_fields_are_selected_in_clause_order() {
        DateTime time = DateTime.ofEpochMillis(1_700_000_000_000L);
        DateTime received = DateTime.ofEpochMillis(1_700_000_000_123L);
        UaEvent e = event(700).time(time).receiveTime(received).message(LocalizedText.of("en", "Boiler hot")).build();
        Variant[] fields = select(field("Severity"), field("EventId"), field("EventType"), field("SourceNode"),
                field("SourceName"), field("Time"), field("ReceiveTime"), field("Message")).select(e);
        assertThat(fields).containsExactly(Variant.ofUInt16(700), Variant.of(e.eventId()), Variant.of(BASE_EVENT_TYPE),
                Variant.of(SERVER), Variant.ofString("Server"), Variant.of(time), Variant.of(received),
                Variant.of(LocalizedText.of("en", "Boiler hot")));
    }

    @Test
    void a_field_the_event_lacks_is_a_null_variant() {
        Variant[] fields = select(field("Severity"), field("ClientUserId"), field("Foo", "Bar"))
                .select(event(1).build());
        assertThat(fields).containsExactly(Variant.ofUInt16(1), Variant.NULL, Variant.NULL);
    }

    @Test
    void a_clause_of_a_subtype_selects_only_from_events_of_that_type() {
        EventFilterEvaluator evaluator = select(field(AUDIT_EVENT_TYPE, "ClientUserId"),
                field(AUDIT_EVENT_TYPE, "Severity"), field(BASE_EVENT_TYPE, "ClientUserId"));
        UaEvent audit = event(AUDIT_EVENT_TYPE, 300).field("ClientUserId", Variant.ofString("operator")).build();
        assertThat(evaluator.select(audit)).containsExactly(Variant.ofString("operator"), Variant.ofUInt16(300),
                Variant.ofString("operator"));
        // A BaseEventType event carrying the same field: only the BaseEventType clause sees it.
        UaEvent base = event(300).field("ClientUserId", Variant.ofString("operator")).build();
        assertThat(evaluator.select(base)).containsExactly(Variant.NULL, Variant.NULL, Variant.ofString("operator"));
    }

    @Test
    void an_empty_browse_path_with_the_node_id_attribute_selects_the_events_node() {
        NodeId conditionId = NodeId.string(2, "Boiler1/HighTemperature");
        EventFilterEvaluator evaluator = select(eventNode(CONDITION_TYPE), eventNode(BASE_EVENT_TYPE));
        assertThat(evaluator.select(event(CONDITION_TYPE, 800).nodeId(conditionId).build()))
                .containsExactly(Variant.of(conditionId), Variant.of(conditionId));
        assertThat(evaluator.select(event(CONDITION_TYPE, 800).build())).containsExactly(Variant.NULL, Variant.NULL);
        assertThat(evaluator.select(event(800).nodeId(conditionId).build()))
                .containsExactly(Variant.NULL, Variant.of(conditionId));
    }

    @Test
    void nested_fields_are_selected_by_their_whole_path() {
        UaEvent condition = event(CONDITION_TYPE, 800)
                .field(FieldPath.of("EnabledState", "Id"), Variant.ofBoolean(true))
                .field(FieldPath.of("EnabledState"), Variant.of(LocalizedText.of("Enabled")))
                .build();
        assertThat(select(field(CONDITION_TYPE, "EnabledState", "Id"), field(CONDITION_TYPE, "EnabledState"))
                .select(condition)).containsExactly(Variant.ofBoolean(true), Variant.of(LocalizedText.of("Enabled")));
    }

    @Test
    void an_index_range_selects_part_of_the_value_or_reports_no_data() {
        UaEvent e = event(1).field("Values", Variant.ofArray(BuiltinType.Int32, new int[] {10, 20, 30})).build();
        EventFilterEvaluator evaluator = select(
                new SimpleAttributeOperand(BASE_EVENT_TYPE, new QualifiedName[] {QualifiedName.of(0, "SourceName")},
                        AttributeIds.Value, "0:2"),
                new SimpleAttributeOperand(BASE_EVENT_TYPE, new QualifiedName[] {QualifiedName.of(0, "Values")},
                        AttributeIds.Value, "1"),
                new SimpleAttributeOperand(BASE_EVENT_TYPE, new QualifiedName[] {QualifiedName.of(0, "Values")},
                        AttributeIds.Value, "7:9"));
        assertThat(evaluator.select(e)).containsExactly(Variant.ofString("Ser"),
                Variant.ofArray(BuiltinType.Int32, new int[] {20}),
                Variant.ofScalar(BuiltinType.StatusCode, StatusCode.of(StatusCodes.BadIndexRangeNoData)));
    }

    @Test
    void a_rejected_clause_yields_null_while_the_others_are_selected() {
        EventFilterEvaluator evaluator = EventFilterEvaluator.compile(new EventFilter(new SimpleAttributeOperand[] {
            field("Severity"), field(NodeId.numeric(9, 9), "X"), field("SourceName")}, null), ns0());
        assertThat(evaluator.isValid()).isTrue();
        assertThat(evaluator.select(event(5).build()))
                .containsExactly(Variant.ofUInt16(5), Variant.NULL, Variant.ofString("Server"));
    }

    @Test
    void evaluate_applies_the_where_clause_then_selects() {
        EventFilterEvaluator evaluator = EventFilterEvaluator.compile(new EventFilter(
                new SimpleAttributeOperand[] {field("Severity"), field("SourceName")},
                where(op(FilterOperator.GreaterThan, f("Severity"), lit(100)))), ns0());
        assertThat(evaluator.evaluate(event(50).build())).isNull();
        assertThat(evaluator.evaluate(event(150).build()))
                .containsExactly(Variant.ofUInt16(150), Variant.ofString("Server"));
        EventFieldList list = evaluator.toFieldList(42, event(150).build());
        assertThat(list.clientHandle()).isEqualTo(42);
        assertThat(list.eventFields()).hasSize(2);
        assertThat(evaluator.toFieldList(42, event(1).build())).isNull();
        assertThat(evaluator.fieldCount()).isEqualTo(2);
    }

    @Test
    void without_a_where_clause_every_event_passes() {
        EventFilterEvaluator evaluator = select(field("Severity"));
        assertThat(evaluator.matches(event(1).build())).isTrue();
        assertThat(evaluator.result().whereClauseResult().elementResults()).isEmpty();
    }

    @Test
    void evaluating_an_event_allocates_little_more_than_the_result_array() {
        java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        assumeTrue(bean instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
        assumeTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        EventFilterEvaluator evaluator = EventFilterEvaluator.compile(new EventFilter(
                new SimpleAttributeOperand[] {
                    field("EventId"), field("EventType"), field("Severity"), field("Message")},
                where(op(FilterOperator.And, el(1), el(2)),
                        op(FilterOperator.GreaterThanOrEqual, f("Severity"), lit(Variant.ofUInt16(500))),
                        op(FilterOperator.OfType, lit(BASE_EVENT_TYPE)))), ns0());
        UaEvent e = event(AUDIT_EVENT_TYPE, 700).build();
        int n = 200_000;
        long sink = 0;
        for (int i = 0; i < n; i++) {
            sink += evaluator.evaluate(e).length;
        }
        long thread = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(thread);
        for (int i = 0; i < n; i++) {
            sink += evaluator.evaluate(e).length;
        }
        long perEvent = (threads.getThreadAllocatedBytes(thread) - before) / n;
        assertThat(sink).isEqualTo(8L * n);
        // A Variant[4]: 16-byte header + 4 references, at most 48 bytes with uncompressed references.
        assertThat(perEvent).isLessThanOrEqualTo(48);
    }
}
