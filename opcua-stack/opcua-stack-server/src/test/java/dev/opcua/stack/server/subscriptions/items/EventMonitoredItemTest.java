package dev.opcua.stack.server.subscriptions.items;

import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.HOUR;
import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.reporting;
import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataChangeTrigger;
import dev.opcua.stack.core.types.enumerated.FilterOperator;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import dev.opcua.stack.core.types.structured.DataChangeFilter;
import dev.opcua.stack.core.types.structured.ElementOperand;
import dev.opcua.stack.core.types.structured.EventFieldList;
import dev.opcua.stack.core.types.structured.EventFilter;
import dev.opcua.stack.core.types.structured.EventFilterResult;
import dev.opcua.stack.core.types.structured.LiteralOperand;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import dev.opcua.stack.core.types.structured.MonitoredItemModifyRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemModifyResult;
import dev.opcua.stack.core.types.structured.MonitoringParameters;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.SimpleAttributeOperand;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Event monitored items (Part 4, 5.12.1 and 7.22.3): filters accepted and refused with their
 * statuses and EventFilterResult, select clauses delivered, the where clause applied, the queue and
 * its EventQueueOverflowEventType event, the monitoring modes, triggering, modify and delete.
 */
class EventMonitoredItemTest {

    private static final NodeId BASE_EVENT_TYPE = NodeId.ns0(NodeIds.BaseEventType);
    private static final NodeId OVERFLOW_TYPE = NodeId.ns0(NodeIds.EventQueueOverflowEventType);
    private static final long HANDLE = 42;

    /** Event queues of 1 .. 10,000 (1,000 by default), so that small queues overflow. */
    private static final MonitoredItemSettings SETTINGS = new MonitoredItemSettings(10, HOUR, 100, 1, 1_000, 10_000);

    private final ItemsFixture fixture = new ItemsFixture(SETTINGS, 0, true);
    private final FakeOwner owner = fixture.owner(10);

    @AfterEach
    void close() {
        fixture.close();
    }

    // ---- filters ---------------------------------------------------------------------------------

    private static SimpleAttributeOperand field(String name) {
        return new SimpleAttributeOperand(BASE_EVENT_TYPE, new QualifiedName[] {QualifiedName.of(0, name)},
                AttributeIds.Value, null);
    }

    private static SimpleAttributeOperand[] selects(String... names) {
        SimpleAttributeOperand[] operands = new SimpleAttributeOperand[names.length];
        for (int i = 0; i < names.length; i++) {
            operands[i] = field(names[i]);
        }
        return operands;
    }

    /** {@code Severity >= minimum}. */
    private static ContentFilter severityAtLeast(int minimum) {
        return new ContentFilter(new ContentFilterElement[] {new ContentFilterElement(
                FilterOperator.GreaterThanOrEqual, new ExtensionObject[] {ExtensionObject.of(field("Severity")),
                    ExtensionObject.of(new LiteralOperand(Variant.ofUInt16(minimum)))})});
    }

    private static EventFilter filter(ContentFilter where, String... names) {
        return new EventFilter(selects(names), where);
    }

    /** Severity, then a clause on an ObjectType that does not exist (BadNodeIdUnknown). */
    private static EventFilter withRejectedClause() {
        return new EventFilter(new SimpleAttributeOperand[] {field("Severity"),
            new SimpleAttributeOperand(NodeId.ns0(999_999), new QualifiedName[] {QualifiedName.of(0, "Severity")},
                    AttributeIds.Value, null)}, null);
    }

    /** EventId, EventType, Severity, Message; the where clause as given. */
    private static EventFilter standard(ContentFilter where) {
        return filter(where, "EventId", "EventType", "Severity", "Message");
    }

    private MonitoredItemCreateRequest eventRequest(NodeId node, MonitoringMode mode, long queueSize,
            boolean discardOldest, UaStructure filter) {
        ExtensionObject body = filter == null ? null : ExtensionObject.of(filter);
        return request(new ReadValueId(node, AttributeIds.EventNotifier, null, null), mode, 0, queueSize, discardOldest,
                body, HANDLE);
    }

    private MonitoredItemCreateRequest onArea(EventFilter filter) {
        return eventRequest(fixture.area(), MonitoringMode.Reporting, 10, true, filter);
    }

    private MonitoredItemCreateResult createResult(MonitoredItemCreateRequest request) {
        return fixture.create(owner, TimestampsToReturn.Both, request)[0];
    }

    private EventMonitoredItem createEventItem(MonitoredItemCreateRequest request) {
        MonitoredItemCreateResult result = createResult(request);
        assertThat(result.statusCode().value()).as("create %s", result).isEqualTo(StatusCodes.Good);
        return owner.items().eventItem(result.monitoredItemId());
    }

    private MonitoredItemModifyResult modify(long id, long queueSize, boolean discardOldest, UaStructure filter) {
        ExtensionObject body = filter == null ? null : ExtensionObject.of(filter);
        try {
            return owner.items().modify(new OperationContext(null), TimestampsToReturn.Both,
                    new MonitoredItemModifyRequest[] {new MonitoredItemModifyRequest(id,
                            new MonitoringParameters(HANDLE + 1, 100, body, queueSize, discardOldest))})
                    .get(5, TimeUnit.SECONDS)[0];
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private void report(int... severities) {
        for (int severity : severities) {
            fixture.notifiers.report(fixture.area(), event(severity));
        }
    }

    private static UaEvent event(int severity) {
        return UaEvent.builder(BASE_EVENT_TYPE).sourceNode(NodeId.string(2, "Area")).sourceName("Area")
                .message("severity " + severity).severity(severity).build();
    }

    private static List<Integer> severities(List<EventFieldList> events, int column) {
        return events.stream().map(e -> (Integer) e.eventFields()[column].value()).toList();
    }

    private static EventFilterResult filterResult(ExtensionObject body) {
        assertThat(body).isNotNull();
        assertThat(body.isNull()).as("a filterResult is returned").isFalse();
        return body.decoded(EventFilterResult.class);
    }

    @Test
    void a_valid_filter_is_accepted_with_sampling_interval_0_and_no_filter_result() {
        MonitoredItemCreateResult result = createResult(onArea(standard(severityAtLeast(500))));
        assertThat(result.statusCode().value()).isEqualTo(StatusCodes.Good);
        assertThat(result.revisedSamplingInterval()).isZero();
        assertThat(result.revisedQueueSize()).isEqualTo(10);
        assertThat(result.filterResult().isNull()).isTrue();
        EventMonitoredItem item = owner.items().eventItem(result.monitoredItemId());
        assertThat(item.isSubscribed()).isTrue();
        assertThat(fixture.notifiers.listenerCount(fixture.area())).isEqualTo(1);
        assertThat(owner.items().item(result.monitoredItemId())).as("not a data-change item").isNull();
        assertThat(fixture.counters.live()).isEqualTo(1);
    }

    @Test
    void an_event_filter_without_select_clauses_or_with_an_invalid_where_clause_is_refused_with_its_result() {
        MonitoredItemCreateResult noSelect = createResult(onArea(new EventFilter(null, null)));
        assertThat(noSelect.statusCode().value()).isEqualTo(StatusCodes.BadEventFilterInvalid);
        assertThat(noSelect.monitoredItemId()).isZero();

        ContentFilter loop = new ContentFilter(new ContentFilterElement[] {new ContentFilterElement(FilterOperator.Not,
                new ExtensionObject[] {ExtensionObject.of(new ElementOperand(5))})});
        MonitoredItemCreateResult badWhere = createResult(onArea(standard(loop)));
        assertThat(badWhere.statusCode().value()).isEqualTo(StatusCodes.BadEventFilterInvalid);
        EventFilterResult result = filterResult(badWhere.filterResult());
        assertThat(result.whereClauseResult().elementResults()[0].statusCode().value())
                .isEqualTo(StatusCodes.BadFilterOperandInvalid);
        assertThat(result.whereClauseResult().elementResults()[0].operandStatusCodes()[0].value())
                .isEqualTo(StatusCodes.BadFilterElementInvalid);
        assertThat(owner.items().size()).isZero();
        assertThat(fixture.notifiers.listenerCount(fixture.area())).isZero();
    }

    @Test
    void a_rejected_select_clause_keeps_the_item_and_comes_back_in_the_filter_result() {
        MonitoredItemCreateResult result = createResult(onArea(withRejectedClause()));
        assertThat(result.statusCode().value()).isEqualTo(StatusCodes.Good);
        EventFilterResult filterResult = filterResult(result.filterResult());
        assertThat(filterResult.selectClauseResults()[0].isGood()).isTrue();
        assertThat(filterResult.selectClauseResults()[1].value()).isEqualTo(StatusCodes.BadNodeIdUnknown);

        report(300);
        List<EventFieldList> events = owner.publishEvents();
        assertThat(events).hasSize(1);
        assertThat(events.get(0).eventFields()[0].value()).isEqualTo(300);
        assertThat(events.get(0).eventFields()[1].isNull()).as("the rejected field is always null").isTrue();
    }

    @Test
    void nodes_that_are_no_event_notifiers_and_filters_that_do_not_fit_are_refused() {
        EventFilter valid = standard(null);
        assertThat(createResult(eventRequest(fixture.id("Pump"), MonitoringMode.Reporting, 1, true, valid))
                .statusCode().value()).as("EventNotifier without SubscribeToEvents").isEqualTo(StatusCodes.BadNotSupported);
        assertThat(createResult(eventRequest(fixture.id("Temp"), MonitoringMode.Reporting, 1, true, valid))
                .statusCode().value()).as("a variable has no EventNotifier").isEqualTo(StatusCodes.BadAttributeIdInvalid);
        assertThat(createResult(eventRequest(NodeId.string(fixture.plant.namespaceIndex(), "Nowhere"),
                MonitoringMode.Reporting, 1, true, valid)).statusCode().value()).isEqualTo(StatusCodes.BadNodeIdUnknown);
        assertThat(createResult(eventRequest(fixture.area(), MonitoringMode.Reporting, 1, true,
                new DataChangeFilter(DataChangeTrigger.StatusValue, 0, 0))).statusCode().value())
                .isEqualTo(StatusCodes.BadFilterNotAllowed);
        assertThat(createResult(request(new ReadValueId(fixture.area(), AttributeIds.EventNotifier, "1", null),
                MonitoringMode.Reporting, 0, 1, true, ExtensionObject.of(valid), HANDLE)).statusCode().value())
                .isEqualTo(StatusCodes.BadIndexRangeInvalid);
        assertThat(owner.items().size()).isZero();
    }

    @Test
    void a_server_without_events_refuses_event_items_as_unsupported() {
        MonitoredItemContainerFactory dataOnly = new MonitoredItemContainerFactory(fixture.managers, fixture.broker,
                SETTINGS, fixture.counters);
        try {
            FakeOwner plain = new FakeOwner(2, 100, 10, dataOnly);
            MonitoredItemCreateResult result = fixture.create(plain, TimestampsToReturn.Both,
                    onArea(standard(null)))[0];
            assertThat(result.statusCode().value()).isEqualTo(StatusCodes.BadMonitoredItemFilterUnsupported);
            assertThat(dataOnly.eventNotifiers()).isNull();
        } finally {
            dataOnly.close();
        }
    }

    @Test
    void event_queue_sizes_are_revised_per_part_4_7_21() {
        MonitoredItemSettings settings = MonitoredItemSettings.DEFAULT;
        assertThat(settings.reviseEventQueueSize(0)).as("the default").isEqualTo(1_000);
        assertThat(settings.reviseEventQueueSize(1)).as("the minimum").isEqualTo(100);
        assertThat(settings.reviseEventQueueSize(50)).isEqualTo(100);
        assertThat(settings.reviseEventQueueSize(500)).isEqualTo(500);
        assertThat(settings.reviseEventQueueSize(0xFFFF_FFFFL)).as("the maximum").isEqualTo(10_000);
        assertThat(SETTINGS.reviseEventQueueSize(1)).isEqualTo(1);
        MonitoredItemCreateResult result = createResult(eventRequest(fixture.area(), MonitoringMode.Reporting, 0, true,
                standard(null)));
        assertThat(result.revisedQueueSize()).isEqualTo(1_000);
    }

    // ---- delivery ----------------------------------------------------------------------------------

    @Test
    void the_where_clause_keeps_the_matching_events_and_the_select_clauses_give_their_fields_in_order() {
        EventMonitoredItem item = createEventItem(onArea(standard(severityAtLeast(500))));
        UaEvent low = event(100);
        UaEvent medium = event(600);
        UaEvent high = event(900);
        for (UaEvent e : List.of(low, medium, high)) {
            fixture.notifiers.report(fixture.area(), e);
        }
        assertThat(item.queuedNotifications()).isEqualTo(2);
        assertThat(owner.signalsOf(item)).as("the owner hears once per batch").isEqualTo(1);

        List<EventFieldList> events = owner.publishEvents();
        assertThat(events).extracting(EventFieldList::clientHandle).containsOnly(HANDLE);
        assertThat(events.get(0).eventFields()).containsExactly(Variant.of(medium.eventId()),
                Variant.of(BASE_EVENT_TYPE), Variant.ofUInt16(600), Variant.of(LocalizedText.of("severity 600")));
        assertThat(events.get(1).eventFields()[0].value()).isEqualTo(high.eventId());
        assertThat(severities(events, 2)).containsExactly(600, 900);
        assertThat(item.hasNotifications()).isFalse();
    }

    @Test
    void events_of_notifiers_below_reach_the_item_and_those_of_others_do_not() {
        createEventItem(onArea(standard(null)));
        NodeId boiler = NodeId.string(fixture.plant.namespaceIndex(), "Area/Boiler");
        fixture.notifiers.linkNotifier(fixture.area(), boiler);
        fixture.notifiers.report(boiler, event(10));
        fixture.notifiers.report(NodeId.string(fixture.plant.namespaceIndex(), "Elsewhere"), event(20));
        fixture.notifiers.report(NodeId.ns0(NodeIds.Server), event(30));
        assertThat(severities(owner.publishEvents(), 2)).containsExactly(10);
    }

    // ---- queue -------------------------------------------------------------------------------------

    @Test
    void a_full_queue_with_discard_oldest_drops_the_oldest_and_puts_one_overflow_event_first() {
        createEventItem(eventRequest(fixture.area(), MonitoringMode.Reporting, 2, true,
                filter(null, "EventType", "SourceNode", "SourceName", "Severity")));
        report(101, 102, 103, 104);
        List<EventFieldList> events = owner.publishEvents();
        assertThat(events).hasSize(3);
        Variant[] overflow = events.get(0).eventFields();
        assertThat(overflow[0].value()).isEqualTo(OVERFLOW_TYPE);
        assertThat(overflow[1].value()).isEqualTo(NodeId.ns0(NodeIds.Server));
        assertThat(overflow[2].value()).isEqualTo(EventMonitoredItem.OVERFLOW_SOURCE_NAME);
        assertThat(severities(events.subList(1, 3), 3)).containsExactly(103, 104);
        assertThat(fixture.counters.dropped.get()).isEqualTo(2);
    }

    @Test
    void a_full_queue_without_discard_oldest_replaces_the_newest_behind_the_overflow_event() {
        createEventItem(eventRequest(fixture.area(), MonitoringMode.Reporting, 2, false,
                filter(null, "EventType", "Severity")));
        report(101, 102, 103, 104);
        List<EventFieldList> events = owner.publishEvents();
        assertThat(events).extracting(e -> e.eventFields()[0].value())
                .containsExactly(BASE_EVENT_TYPE, OVERFLOW_TYPE, BASE_EVENT_TYPE);
        assertThat(events.get(0).eventFields()[1].value()).isEqualTo(101);
        assertThat(events.get(2).eventFields()[1].value()).isEqualTo(104);
        assertThat(fixture.counters.dropped.get()).isEqualTo(2);
    }

    @Test
    void the_overflow_event_bypasses_the_where_clause_and_comes_once_per_gap() {
        createEventItem(eventRequest(fixture.area(), MonitoringMode.Reporting, 1, true,
                filter(severityAtLeast(500), "EventType", "Severity")));
        report(600, 700, 800);
        List<EventFieldList> first = owner.publishEvents();
        assertThat(first).extracting(e -> e.eventFields()[0].value()).containsExactly(OVERFLOW_TYPE, BASE_EVENT_TYPE);
        assertThat(first.get(1).eventFields()[1].value()).isEqualTo(800);
        report(900);
        assertThat(owner.publishEvents()).extracting(e -> e.eventFields()[1].value()).containsExactly(900);
    }

    @Test
    void a_partial_drain_keeps_the_rest_for_the_next_cycle() {
        EventMonitoredItem item = createEventItem(onArea(standard(null)));
        report(1, 2, 3);
        assertThat(severities(owner.publishEvents(2), 2)).containsExactly(1, 2);
        assertThat(item.hasNotifications()).isTrue();
        assertThat(severities(owner.publishEvents(2), 2)).containsExactly(3);
        assertThat(item.hasNotifications()).isFalse();
    }

    // ---- modes, triggering, modify, delete ---------------------------------------------------------

    @Test
    void disabled_unsubscribes_and_clears_the_queue_and_enabling_subscribes_again() {
        EventMonitoredItem item = createEventItem(eventRequest(fixture.area(), MonitoringMode.Disabled, 10, true,
                standard(null)));
        assertThat(item.isSubscribed()).isFalse();
        assertThat(fixture.notifiers.listenerCount(fixture.area())).isZero();
        report(1);
        assertThat(item.queuedNotifications()).isZero();

        assertThat(item.setMode(MonitoringMode.Reporting)).as("no first sample to read").isFalse();
        assertThat(fixture.notifiers.listenerCount(fixture.area())).isEqualTo(1);
        report(2);
        assertThat(item.queuedNotifications()).isEqualTo(1);

        item.setMode(MonitoringMode.Disabled);
        assertThat(item.queuedNotifications()).isZero();
        assertThat(item.isSubscribed()).isFalse();
        assertThat(fixture.notifiers.listenerCount(fixture.area())).isZero();
        report(3);
        assertThat(owner.publishEvents()).isEmpty();
    }

    @Test
    void sampling_queues_without_reporting_until_reporting_or_a_trigger() {
        EventMonitoredItem item = createEventItem(eventRequest(fixture.area(), MonitoringMode.Sampling, 10, true,
                standard(null)));
        report(5);
        assertThat(item.queuedNotifications()).isEqualTo(1);
        assertThat(owner.signalsOf(item)).isZero();
        assertThat(owner.publishEvents()).isEmpty();

        MonitoredItem temp = fixture.createOne(owner, reporting(fixture.id("Temp"), 1));
        owner.items().setTriggering(temp.id(), new long[] {item.id()}, new long[0]);
        owner.publish();
        fixture.set("Temp", Variant.ofDouble(99));
        fixture.tick();
        assertThat(severities(owner.publishEvents(), 2)).as("released by the triggering data item").containsExactly(5);

        report(6);
        item.setMode(MonitoringMode.Reporting);
        assertThat(severities(owner.publishEvents(), 2)).containsExactly(6);
    }

    @Test
    void an_event_item_triggers_the_items_linked_to_it() {
        EventMonitoredItem events = createEventItem(onArea(standard(null)));
        MonitoredItem temp = fixture.createOne(owner, request(fixture.id("Temp"), MonitoringMode.Sampling, HOUR, 5,
                true, null));
        owner.items().setTriggering(events.id(), new long[] {temp.id()}, new long[0]);
        assertThat(owner.publish()).isEmpty();
        report(7);
        assertThat(owner.publish()).as("the Temp sample queued in Sampling mode").hasSize(1);
    }

    @Test
    void modify_changes_handle_queue_and_filter_and_refuses_invalid_filters_keeping_the_old_one() {
        EventMonitoredItem item = createEventItem(onArea(standard(severityAtLeast(500))));
        report(600);

        MonitoredItemModifyResult changed = modify(item.id(), 3, true, filter(null, "Severity"));
        assertThat(changed.statusCode().value()).isEqualTo(StatusCodes.Good);
        assertThat(changed.revisedSamplingInterval()).isZero();
        assertThat(changed.revisedQueueSize()).isEqualTo(3);
        assertThat(item.clientHandle()).isEqualTo(HANDLE + 1);
        report(100);
        List<EventFieldList> events = owner.publishEvents();
        assertThat(events).extracting(e -> e.eventFields().length).containsOnly(1);
        assertThat(severities(events, 0)).containsExactly(600, 100);
        assertThat(events).extracting(EventFieldList::clientHandle).containsOnly(HANDLE + 1);

        MonitoredItemModifyResult refused = modify(item.id(), 3, true, new EventFilter(null, null));
        assertThat(refused.statusCode().value()).isEqualTo(StatusCodes.BadEventFilterInvalid);
        assertThat(modify(item.id(), 3, true, new DataChangeFilter(DataChangeTrigger.Status, 0, 0)).statusCode()
                .value()).isEqualTo(StatusCodes.BadFilterNotAllowed);
        assertThat(item.filter().fieldCount()).as("the old filter stays").isEqualTo(1);

        MonitoredItemModifyResult withResult = modify(item.id(), 3, true, withRejectedClause());
        assertThat(withResult.statusCode().isGood()).isTrue();
        assertThat(filterResult(withResult.filterResult()).selectClauseResults()[1].isGood()).isFalse();
    }

    @Test
    void shrinking_the_queue_discards_per_the_policy_and_queues_the_overflow_event() {
        EventMonitoredItem item = createEventItem(eventRequest(fixture.area(), MonitoringMode.Sampling, 5, true,
                filter(null, "EventType", "Severity")));
        report(1, 2, 3, 4);
        modify(item.id(), 2, false, filter(null, "EventType", "Severity"));
        assertThat(item.queuedNotifications()).isEqualTo(3);
        item.setMode(MonitoringMode.Reporting);
        List<EventFieldList> events = owner.publishEvents();
        assertThat(events).extracting(e -> e.eventFields()[0].value())
                .containsExactly(BASE_EVENT_TYPE, BASE_EVENT_TYPE, OVERFLOW_TYPE);
        assertThat(events.subList(0, 2)).extracting(e -> e.eventFields()[1].value()).containsExactly(1, 2);
        assertThat(fixture.counters.dropped.get()).isEqualTo(2);
    }

    @Test
    void delete_cancels_the_registration_and_delete_all_frees_every_event_item() {
        EventMonitoredItem item = createEventItem(onArea(standard(null)));
        createEventItem(onArea(standard(null)));
        assertThat(fixture.notifiers.listenerCount(fixture.area())).isEqualTo(2);
        report(1);

        StatusCode[] results = owner.items().delete(new long[] {item.id()});
        assertThat(results[0].isGood()).isTrue();
        assertThat(item.isSubscribed()).isFalse();
        assertThat(item.queuedNotifications()).isZero();
        assertThat(fixture.notifiers.listenerCount(fixture.area())).isEqualTo(1);

        owner.items().deleteAll();
        assertThat(fixture.notifiers.listenerCount(fixture.area())).isZero();
        assertThat(fixture.notifiers.isObserved(fixture.area())).isFalse();
        assertThat(fixture.counters.live()).isZero();
    }

    @Test
    void an_event_is_shared_by_the_items_that_queue_it_not_copied() {
        EventMonitoredItem a = createEventItem(onArea(standard(null)));
        EventMonitoredItem b = createEventItem(onArea(filter(null, "EventId")));
        UaEvent e = event(3);
        fixture.notifiers.report(fixture.area(), e);
        assertThat(a.queuedNotifications()).isEqualTo(1);
        assertThat(b.queuedNotifications()).isEqualTo(1);
        List<EventFieldList> events = owner.publishEvents();
        assertThat(events).hasSize(2);
        assertThat(events).extracting(f -> f.eventFields()[0].value()).containsOnly(e.eventId());
        assertThat(e.eventId()).isInstanceOf(ByteString.class);
    }

    @Test
    void events_reported_from_several_threads_while_publishing_are_delivered_or_counted_as_dropped()
            throws Exception {
        EventMonitoredItem item = createEventItem(eventRequest(fixture.area(), MonitoringMode.Reporting, 500, true,
                filter(null, "Message")));
        int reporters = 4;
        int perReporter = 5_000;
        CountDownLatch done = new CountDownLatch(reporters);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < reporters; t++) {
            int reporter = t;
            threads.add(new Thread(() -> {
                for (int i = 0; i < perReporter; i++) {
                    fixture.notifiers.report(fixture.area(), UaEvent.builder(BASE_EVENT_TYPE)
                            .sourceNode(fixture.area()).sourceName("Area").message(reporter + ":" + i).severity(1)
                            .build());
                }
                done.countDown();
            }, "event-item-test-reporter-" + t));
        }
        threads.forEach(Thread::start);
        List<EventFieldList> delivered = new ArrayList<>();
        while (done.getCount() > 0) {
            delivered.addAll(owner.publishEvents(100));
        }
        for (Thread thread : threads) {
            thread.join(5_000);
        }
        delivered.addAll(owner.publishEvents());
        assertThat(item.queuedNotifications()).isZero();

        long overflowEvents = delivered.stream()
                .filter(e -> ((LocalizedText) e.eventFields()[0].value()).text().startsWith("events were lost"))
                .count();
        assertThat(delivered.size() - overflowEvents + fixture.counters.dropped.get())
                .isEqualTo((long) reporters * perReporter);
        int[] last = new int[reporters];
        Arrays.fill(last, -1);
        for (EventFieldList e : delivered) {
            String text = ((LocalizedText) e.eventFields()[0].value()).text();
            if (!text.startsWith("events were lost")) {
                int reporter = Integer.parseInt(text.substring(0, text.indexOf(':')));
                int sequence = Integer.parseInt(text.substring(text.indexOf(':') + 1));
                assertThat(sequence).as("each reporter's events stay in order").isGreaterThan(last[reporter]);
                last[reporter] = sequence;
            }
        }
    }
}
