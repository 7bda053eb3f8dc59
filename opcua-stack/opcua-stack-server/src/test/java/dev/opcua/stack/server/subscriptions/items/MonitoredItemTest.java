package dev.opcua.stack.server.subscriptions.items;

import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.HOUR;
import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.filter;
import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.reporting;
import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.request;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataChangeTrigger;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.MonitoredItemModifyRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemModifyResult;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.MonitoringParameters;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A data-change item (Part 4, 5.12.1): first sample, modes, signalling, queue, filters, timestamps, triggering. */
class MonitoredItemTest {

    private final ItemsFixture fixture = new ItemsFixture();
    private final FakeOwner owner = fixture.owner();

    @AfterEach
    void close() {
        fixture.close();
    }

    private static DataValue sample(double value) {
        DateTime now = DateTime.now();
        return DataValue.of(Variant.ofDouble(value), StatusCode.GOOD, now, now);
    }

    private static List<Object> values(List<MonitoredItemNotification> notifications) {
        return notifications.stream().map(n -> n.value().value().value()).toList();
    }

    private void setMode(MonitoringMode mode, MonitoredItem... items) {
        long[] ids = new long[items.length];
        for (int i = 0; i < items.length; i++) {
            ids[i] = items[i].id();
        }
        try {
            owner.items().setMonitoringMode(new OperationContext(null), mode, ids).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void the_first_sample_is_always_reported_and_the_owner_hears_once_per_empty_to_filled_transition() {
        MonitoredItem item = fixture.createOne(owner, reporting(fixture.id("Temp"), 10));

        assertThat(item.queuedNotifications()).isEqualTo(1); // the create read's value
        assertThat(owner.signalsOf(item)).isEqualTo(1);
        item.onSample(sample(21));
        item.onSample(sample(22));
        assertThat(owner.signalsOf(item)).as("still queued: no second signal").isEqualTo(1);

        List<MonitoredItemNotification> published = owner.publish();
        assertThat(values(published)).containsExactly(20.0, 21.0, 22.0);
        assertThat(published).allSatisfy(n -> assertThat(n.clientHandle()).isEqualTo(7));
        assertThat(item.hasNotifications()).isFalse();

        item.onSample(sample(23));
        assertThat(owner.signalsOf(item)).isEqualTo(2);
    }

    @Test
    void a_partial_drain_keeps_the_item_ready_without_a_new_signal() {
        MonitoredItem item = fixture.createOne(owner, reporting(fixture.id("Temp"), 10));
        item.onSample(sample(21));
        item.onSample(sample(22));

        assertThat(values(owner.publish(2))).containsExactly(20.0, 21.0);
        assertThat(item.hasNotifications()).isTrue();
        item.onSample(sample(23));
        assertThat(owner.signalsOf(item)).isEqualTo(1);
        assertThat(values(owner.publish(2))).containsExactly(22.0, 23.0);
    }

    @Test
    void samples_that_do_not_change_are_not_queued() {
        MonitoredItem item = fixture.createOne(owner, reporting(fixture.id("Temp"), 10));
        item.onSample(sample(20)); // same value as the first sample, new timestamps
        item.onSample(sample(20));
        assertThat(item.queuedNotifications()).isEqualTo(1);
    }

    @Test
    void sampling_mode_queues_without_signalling_and_reporting_then_signals_once_with_the_queue() {
        MonitoredItem item = fixture.createOne(owner,
                request(fixture.id("Temp"), MonitoringMode.Sampling, HOUR, 10, true, null));
        item.onSample(sample(21));
        assertThat(item.queuedNotifications()).isEqualTo(2);
        assertThat(owner.signalsOf(item)).isZero();
        assertThat(item.hasNotifications()).isFalse();

        setMode(MonitoringMode.Reporting, item);
        assertThat(owner.signalsOf(item)).isEqualTo(1);
        assertThat(values(owner.publish())).containsExactly(20.0, 21.0);
    }

    @Test
    void disabled_clears_the_queue_ignores_samples_and_enabling_reports_the_current_value_at_once() {
        MonitoredItem item = fixture.createOne(owner, reporting(fixture.id("Temp"), 10));
        setMode(MonitoringMode.Disabled, item);
        assertThat(item.queuedNotifications()).isZero();
        assertThat(owner.publish()).isEmpty(); // the engine drains nothing, the flag is reset
        item.onSample(sample(30));
        assertThat(item.queuedNotifications()).isZero();
        assertThat(fixture.factory.sampledItems()).isZero();

        setMode(MonitoringMode.Reporting, item); // the current stored value, 20, is reported again
        assertThat(fixture.factory.sampledItems()).isEqualTo(1);
        assertThat(values(owner.publish())).containsExactly(20.0);
    }

    @Test
    void an_item_created_disabled_is_not_sampled_and_queues_nothing() {
        MonitoredItem item = fixture.createOne(owner,
                request(fixture.id("Temp"), MonitoringMode.Disabled, 100, 10, true, null));
        assertThat(item.queuedNotifications()).isZero();
        assertThat(fixture.factory.sampledItems()).isZero();
        assertThat(owner.signalsOf(item)).isZero();
    }

    @Test
    void a_full_queue_discards_per_the_policy_sets_the_overflow_bit_and_counts_the_drops() {
        MonitoredItem oldest = fixture.createOne(owner, ItemsFixture.request(value("Temp"), MonitoringMode.Reporting,
                HOUR, 3, true, null, 1));
        MonitoredItem newest = fixture.createOne(owner, ItemsFixture.request(value("Count"), MonitoringMode.Reporting,
                HOUR, 3, false, null, 2));
        for (int i = 1; i <= 4; i++) {
            oldest.onSample(sample(i));
            newest.onSample(sample(i));
        }
        List<MonitoredItemNotification> published = owner.publish();
        // discard oldest: 20, 1, 2, 3, 4 -> 2 (overflow), 3, 4; discard newest: 0, 1, 2, 3, 4 -> 0, 1, 4 (overflow)
        assertThat(rendered(published, 1)).containsExactly("2.0!", "3.0", "4.0");
        assertThat(rendered(published, 2)).containsExactly("0", "1.0", "4.0!");
        assertThat(fixture.counters.dropped.get()).isEqualTo(4);
    }

    private ReadValueId value(String path) {
        return new ReadValueId(fixture.id(path), AttributeIds.Value, null, null);
    }

    /** The values of one client handle, "!" marking the overflow bit. */
    private static List<String> rendered(List<MonitoredItemNotification> notifications, long clientHandle) {
        return notifications.stream().filter(n -> n.clientHandle() == clientHandle)
                .map(n -> n.value().value().value() + (n.value().statusCode().isOverflow() ? "!" : "")).toList();
    }

    @Test
    void timestamps_are_returned_as_asked_and_never_a_source_timestamp_for_other_attributes() {
        DataValue source = fixture.createOne(owner, TimestampsToReturn.Source, reporting(fixture.id("Temp"), 1))
                .lastSample();
        assertThat(source).isNotNull();
        List<MonitoredItemNotification> s = owner.publish();
        assertThat(s.get(0).value().sourceTimestamp()).isNotNull();
        assertThat(s.get(0).value().serverTimestamp()).isNull();

        fixture.createOne(owner, TimestampsToReturn.Server, reporting(fixture.id("Temp"), 1));
        DataValue server = owner.publish().get(0).value();
        assertThat(server.sourceTimestamp()).isNull();
        assertThat(server.serverTimestamp()).isNotNull();

        fixture.createOne(owner, TimestampsToReturn.Neither, reporting(fixture.id("Temp"), 1));
        DataValue neither = owner.publish().get(0).value();
        assertThat(neither.sourceTimestamp()).isNull();
        assertThat(neither.serverTimestamp()).isNull();

        fixture.createOne(owner, TimestampsToReturn.Both, ItemsFixture.request(
                new ReadValueId(fixture.id("Temp"), AttributeIds.BrowseName, null, null), MonitoringMode.Reporting,
                HOUR, 1, true, null, 9));
        DataValue name = owner.publish().get(0).value();
        assertThat(name.value().value().toString()).contains("Temp");
        assertThat(name.sourceTimestamp()).isNull();
        assertThat(name.serverTimestamp()).isNotNull();
    }

    @Test
    void an_absolute_deadband_filters_small_changes() {
        MonitoredItem item = fixture.createOne(owner, request(fixture.id("Temp"), MonitoringMode.Reporting, HOUR, 10,
                true, filter(DataChangeTrigger.StatusValue, 1, 1.0)));
        item.onSample(sample(20.5));
        item.onSample(sample(21.0));
        item.onSample(sample(21.5));
        item.onSample(sample(18.0));
        assertThat(values(owner.publish())).containsExactly(20.0, 21.5, 18.0);
    }

    @Test
    void a_percent_deadband_is_a_share_of_the_eurange_width() {
        // EURange 0..200: 10 % is 20
        MonitoredItem item = fixture.createOne(owner, request(fixture.id("Analog"), MonitoringMode.Reporting, HOUR,
                10, true, filter(DataChangeTrigger.StatusValue, 2, 10)));
        assertThat(item.filter().deadband()).isEqualTo(20.0);
        item.onSample(sample(69));
        item.onSample(sample(71));
        item.onSample(sample(60));
        assertThat(values(owner.publish())).containsExactly(50.0, 71.0);
    }

    @Test
    void the_status_trigger_reports_only_status_changes() {
        MonitoredItem item = fixture.createOne(owner, request(fixture.id("Temp"), MonitoringMode.Reporting, HOUR, 10,
                true, filter(DataChangeTrigger.Status, 0, 0)));
        item.onSample(sample(99));
        item.onSample(DataValue.of(Variant.ofDouble(99), StatusCode.of(StatusCodes.UncertainLastUsableValue),
                DateTime.now(), DateTime.now()));
        List<MonitoredItemNotification> published = owner.publish();
        assertThat(values(published)).containsExactly(20.0, 99.0);
        assertThat(published.get(1).value().statusCode().value()).isEqualTo(StatusCodes.UncertainLastUsableValue);
    }

    @Test
    void status_value_timestamp_reports_a_new_source_timestamp_of_the_same_value() {
        MonitoredItem item = fixture.createOne(owner, request(fixture.id("Temp"), MonitoringMode.Reporting, HOUR, 10,
                true, filter(DataChangeTrigger.StatusValueTimestamp, 0, 0)));
        item.onSample(DataValue.of(Variant.ofDouble(20), StatusCode.GOOD, DateTime.ofEpochMillis(5), null));
        assertThat(owner.publish()).hasSize(2);
    }

    @Test
    void sampling_intervals_and_queue_sizes_are_revised() {
        MonitoredItemSettings settings = MonitoredItemSettings.DEFAULT;
        assertThat(settings.reviseSamplingInterval(-1, 100, false)).isEqualTo(100);
        assertThat(settings.reviseSamplingInterval(-5, 250, false)).isEqualTo(250);
        assertThat(settings.reviseSamplingInterval(Double.NaN, 250, false)).isEqualTo(250);
        assertThat(settings.reviseSamplingInterval(0, 100, false)).isEqualTo(10);
        assertThat(settings.reviseSamplingInterval(0, 100, true)).isEqualTo(0);
        assertThat(settings.reviseSamplingInterval(1, 100, true)).isEqualTo(10);
        assertThat(settings.reviseSamplingInterval(500, 100, false)).isEqualTo(500);
        assertThat(settings.reviseSamplingInterval(1e12, 100, false)).isEqualTo(3_600_000);
        assertThat(settings.reviseQueueSize(0)).isEqualTo(1);
        assertThat(settings.reviseQueueSize(5)).isEqualTo(5);
        assertThat(settings.reviseQueueSize(0xFFFF_FFFFL)).isEqualTo(100);

        var results = fixture.create(owner, TimestampsToReturn.Both,
                request(fixture.id("Temp"), MonitoringMode.Reporting, -1, 0, true, null),
                request(fixture.id("Temp"), MonitoringMode.Reporting, 0, 1000, true, null),
                request(fixture.pushed("P1"), MonitoringMode.Reporting, 0, 2, true, null));
        assertThat(results[0].revisedSamplingInterval()).isEqualTo(100);
        assertThat(results[0].revisedQueueSize()).isEqualTo(1);
        assertThat(results[1].revisedSamplingInterval()).isEqualTo(10);
        assertThat(results[1].revisedQueueSize()).isEqualTo(100);
        assertThat(results[2].revisedSamplingInterval()).isEqualTo(0);
    }

    @Test
    void modify_changes_handle_queue_interval_and_filter_for_what_follows() throws Exception {
        MonitoredItem item = fixture.createOne(owner, reporting(fixture.id("Temp"), 5));
        for (int i = 1; i <= 4; i++) {
            item.onSample(sample(i));
        }
        MonitoredItemModifyResult result = owner.items().modify(new OperationContext(null), TimestampsToReturn.Neither,
                new MonitoredItemModifyRequest[] {new MonitoredItemModifyRequest(item.id(),
                        new MonitoringParameters(42, 250, null, 2, true))}).get(5, TimeUnit.SECONDS)[0];
        assertThat(result.statusCode().isGood()).isTrue();
        assertThat(result.revisedSamplingInterval()).isEqualTo(250);
        assertThat(result.revisedQueueSize()).isEqualTo(2);
        assertThat(item.samplingInterval()).isEqualTo(250);
        assertThat(item.timestampsToReturn()).isEqualTo(TimestampsToReturn.Neither);
        assertThat(fixture.counters.dropped.get()).isEqualTo(3);

        List<MonitoredItemNotification> published = owner.publish();
        assertThat(values(published)).containsExactly(3.0, 4.0);
        assertThat(published.get(0).value().statusCode().isOverflow()).isTrue();
        assertThat(published).allSatisfy(n -> assertThat(n.clientHandle()).isEqualTo(42));
    }

    @Test
    void a_queue_of_one_keeps_the_newest_value_without_the_overflow_bit_across_resizes() throws Exception {
        MonitoredItem item = fixture.createOne(owner, reporting(fixture.id("Temp"), 1));
        owner.publish(); // the first value
        item.onSample(sample(1));
        item.onSample(sample(2));
        assertThat(item.queuedNotifications()).isEqualTo(1);
        assertThat(fixture.counters.dropped.get()).isEqualTo(1);

        modifyQueueSize(item, 3);
        item.onSample(sample(3));
        item.onSample(sample(4));
        assertThat(item.queueSize()).isEqualTo(3);
        assertThat(item.queuedNotifications()).isEqualTo(3);

        modifyQueueSize(item, 1);
        assertThat(item.queueSize()).isEqualTo(1);
        List<MonitoredItemNotification> published = owner.publish();
        assertThat(rendered(published, 1)).as("discard oldest keeps the newest, unmarked in a queue of one")
                .containsExactly("4.0");
        assertThat(fixture.counters.dropped.get()).isEqualTo(3);
    }

    @Test
    void an_idle_sampled_item_holds_the_stored_value_itself_not_a_copy() {
        MonitoredItem item = fixture.createOne(owner, reporting(fixture.id("Temp"), 1));
        owner.publish(); // the first value, from the create read
        fixture.tick(); // the same value again: not queued
        DataValue stored = ((dev.opcua.stack.server.addressspace.VariableNode) fixture.plant.store()
                .get(fixture.id("Temp"))).value();

        assertThat(owner.publish()).isEmpty();
        assertThat(item.lastSample()).isSameAs(stored);
        assertThat(item.nodeId()).isSameAs(fixture.plant.store().get(fixture.id("Temp")).nodeId());
    }

    private void modifyQueueSize(MonitoredItem item, long queueSize) throws Exception {
        MonitoredItemModifyResult result = owner.items().modify(new OperationContext(null), TimestampsToReturn.Both,
                new MonitoredItemModifyRequest[] {new MonitoredItemModifyRequest(item.id(),
                        new MonitoringParameters(1, HOUR, null, queueSize, true))}).get(5, TimeUnit.SECONDS)[0];
        assertThat(result.statusCode().isGood()).isTrue();
    }

    @Test
    void a_triggering_item_releases_the_queue_of_linked_items_in_sampling_mode() {
        MonitoredItem trigger = fixture.createOne(owner, reporting(fixture.id("Temp"), 10));
        MonitoredItem sampled = fixture.createOne(owner,
                request(fixture.id("Count"), MonitoringMode.Sampling, HOUR, 10, true, null));
        MonitoredItem reported = fixture.createOne(owner, reporting(fixture.id("Text"), 10));
        owner.publish();
        owner.items().setTriggering(trigger.id(), new long[] {sampled.id(), reported.id()}, new long[0]);
        sampled.onSample(sample(5));
        assertThat(owner.signalsOf(sampled)).as("sampling only, not triggered yet").isZero();

        trigger.onSample(sample(21));
        assertThat(owner.signalsOf(sampled)).isEqualTo(1);
        List<MonitoredItemNotification> published = owner.publish();
        assertThat(values(published)).containsExactlyInAnyOrder(21.0, 0, 5.0);

        sampled.onSample(sample(6)); // after the release: queued, not reported until the next trigger
        assertThat(sampled.hasNotifications()).isFalse();
        trigger.onSample(sample(22));
        assertThat(values(owner.publish())).containsExactlyInAnyOrder(22.0, 6.0);
    }

    @Test
    void a_sampling_triggering_item_triggers_without_being_reported_and_a_disabled_one_not_at_all() {
        MonitoredItem trigger = fixture.createOne(owner,
                request(fixture.id("Temp"), MonitoringMode.Sampling, HOUR, 10, true, null));
        MonitoredItem linked = fixture.createOne(owner,
                request(fixture.id("Count"), MonitoringMode.Sampling, HOUR, 10, true, null));
        owner.items().setTriggering(trigger.id(), new long[] {linked.id()}, new long[0]);
        trigger.onSample(sample(21));
        assertThat(values(owner.publish())).containsExactly(0);

        setMode(MonitoringMode.Disabled, trigger);
        linked.onSample(sample(7));
        trigger.onSample(sample(22));
        assertThat(owner.publish()).isEmpty();
    }

    @Test
    void deleting_a_linked_item_removes_its_link() {
        MonitoredItem trigger = fixture.createOne(owner, reporting(fixture.id("Temp"), 10));
        MonitoredItem linked = fixture.createOne(owner,
                request(fixture.id("Count"), MonitoringMode.Sampling, HOUR, 10, true, null));
        owner.items().setTriggering(trigger.id(), new long[] {linked.id()}, new long[0]);
        assertThat(trigger.linkedItems()).containsExactly(linked);

        owner.items().delete(new long[] {linked.id()});
        assertThat(trigger.linkedItems()).isEmpty();
        trigger.onSample(sample(30)); // nothing to trigger, no failure
        assertThat(values(owner.publish())).containsExactly(20.0, 30.0);
    }

    @Test
    void ids_are_unique_and_never_zero_across_subscriptions() {
        FakeOwner other = fixture.owner();
        MonitoredItem a = fixture.createOne(owner, reporting(fixture.id("Temp"), 1));
        MonitoredItem b = fixture.createOne(other, reporting(fixture.id("Temp"), 1));
        assertThat(a.id()).isNotZero().isNotEqualTo(b.id());
        assertThat(other.items().item(a.id())).isNull();
    }

    @Test
    void delete_all_stops_sampling_frees_the_items_and_counts_them() {
        fixture.create(owner, TimestampsToReturn.Both, request(fixture.id("Temp"), MonitoringMode.Reporting, 100, 1,
                true, null), request(fixture.pushed("P1"), MonitoringMode.Reporting, 0, 1, true, null));
        assertThat(fixture.factory.sampledItems()).isEqualTo(1);
        assertThat(fixture.broker.monitoredNodes()).isEqualTo(1);
        owner.items().deleteAll();
        assertThat(owner.items().size()).isZero();
        assertThat(fixture.factory.sampledItems()).isZero();
        assertThat(fixture.broker.monitoredNodes()).isZero();
        assertThat(fixture.counters.live()).isZero();
    }
}
