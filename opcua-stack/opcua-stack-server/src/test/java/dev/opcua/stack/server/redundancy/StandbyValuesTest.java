package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import java.util.List;
import org.junit.jupiter.api.Test;

class StandbyValuesTest {

    private static final long EPOCH = 1_800_000_000_000L;

    /** Value v with source time EPOCH + v s and the server's time a little later. */
    private static DataValue sampled(int v) {
        return DataValue.of(Variant.ofInt32(v), StatusCode.GOOD, DateTime.ofEpochMillis(EPOCH + v * 1_000L), 0,
                DateTime.ofEpochMillis(EPOCH + v * 1_000L + 7), 0);
    }

    private static DurableSubscriptionRecord.Item item(TimestampsToReturn timestamps, int queueSize,
            List<DataValue> queued, DataValue last) {
        return new DurableSubscriptionRecord.Item(5, 50, new ReadValueId(NodeId.string(2, "Line/1"),
                AttributeIds.Value, null, QualifiedName.NULL), MonitoringMode.Reporting, 100, queueSize, true,
                ExtensionObject.NULL, timestamps, false, queued, last, List.of());
    }

    private static List<Integer> values(List<DataValue> queue) {
        return queue.stream().map(v -> (Integer) v.value().value()).toList();
    }

    @Test
    void appends_in_order_only_the_standby_values_newer_than_the_stored_queue_and_last_value() {
        DurableSubscriptionRecord.Item stored = item(TimestampsToReturn.Both, 100, List.of(sampled(3), sampled(4)),
                sampled(4));

        DurableSubscriptionRecord.Item completed = StandbyValues.append(stored,
                List.of(sampled(2), sampled(3), sampled(4), sampled(5), sampled(6)));

        assertThat(values(completed.queuedValues())).containsExactly(3, 4, 5, 6);
        assertThat(completed.lastValue()).as("the filter's reference: the last appended").isEqualTo(sampled(6));
    }

    @Test
    void an_item_whose_last_value_was_already_sent_gets_what_changed_after_it() {
        DurableSubscriptionRecord.Item stored = item(TimestampsToReturn.Both, 100, List.of(), sampled(4));

        DurableSubscriptionRecord.Item completed = StandbyValues.append(stored, List.of(sampled(4), sampled(5)));

        assertThat(values(completed.queuedValues())).containsExactly(5);
    }

    @Test
    void items_without_source_timestamps_are_ordered_by_server_timestamp_and_keep_only_the_timestamps_asked_for() {
        DataValue storedLast = sampled(4);
        DataValue queuedAsSent = DataValue.of(storedLast.value(), StatusCode.GOOD, null, 0,
                storedLast.serverTimestamp(), 0);
        DurableSubscriptionRecord.Item stored = item(TimestampsToReturn.Server, 100, List.of(queuedAsSent),
                storedLast);

        DurableSubscriptionRecord.Item completed = StandbyValues.append(stored, List.of(sampled(4), sampled(5)));

        assertThat(values(completed.queuedValues())).containsExactly(4, 5);
        DataValue appended = completed.queuedValues().get(1);
        assertThat(appended.sourceTimestamp()).as("Server only: no source timestamp").isNull();
        assertThat(appended.serverTimestamp()).isEqualTo(sampled(5).serverTimestamp());
    }

    @Test
    void the_standby_queues_own_overflow_bit_is_not_passed_on() {
        DataValue overflowed = sampled(5);
        overflowed = DataValue.of(overflowed.value(), overflowed.statusCode().withOverflow(),
                overflowed.sourceTimestamp(), 0, overflowed.serverTimestamp(), 0);
        DurableSubscriptionRecord.Item stored = item(TimestampsToReturn.Both, 100, List.of(), sampled(4));

        DurableSubscriptionRecord.Item completed = StandbyValues.append(stored, List.of(overflowed));

        assertThat(completed.queuedValues().get(0).statusCode()).isEqualTo(StatusCode.GOOD);
    }

    @Test
    void an_item_whose_stored_values_carry_no_timestamp_gets_nothing_appended() {
        DataValue untimed = DataValue.of(Variant.ofInt32(4));
        DurableSubscriptionRecord.Item stored = item(TimestampsToReturn.Neither, 100, List.of(untimed), null);

        assertThat(StandbyValues.append(stored, List.of(sampled(5)))).isSameAs(stored);
    }

    @Test
    void a_subscriptions_event_items_and_items_without_a_standby_copy_stay_as_stored() {
        DurableSubscriptionRecord.Item data = item(TimestampsToReturn.Both, 100, List.of(), sampled(1));
        DurableSubscriptionRecord.Item other = new DurableSubscriptionRecord.Item(6, 60, data.itemToMonitor(),
                MonitoringMode.Reporting, 100, 10, true, ExtensionObject.NULL, TimestampsToReturn.Both, false,
                List.of(sampled(1)), sampled(1), List.of());
        DurableSubscriptionRecord stored = new DurableSubscriptionRecord(9, Identity.ANONYMOUS, 100, 2_400, 10, 0,
                (short) 0, true, 0, EPOCH, 12, List.of(), List.of(data, other));
        DurableSubscriptionRecord.Item standbyCopy = new DurableSubscriptionRecord.Item(5, 50, data.itemToMonitor(),
                MonitoringMode.Reporting, 100, 10, true, ExtensionObject.NULL, TimestampsToReturn.Both, false,
                List.of(sampled(1), sampled(2), sampled(3)), sampled(3), List.of());

        StandbyValues.Completed completed = StandbyValues.append(stored, List.of(standbyCopy));

        assertThat(completed.appended()).isEqualTo(2);
        assertThat(values(completed.record().items().get(0).queuedValues())).containsExactly(2, 3);
        assertThat(completed.record().items().get(1)).isEqualTo(other);
        assertThat(completed.record().nextSequenceNumber()).isEqualTo(12);
    }
}
