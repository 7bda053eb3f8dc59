package dev.opcua.stack.server.subscriptions.durable;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataChangeTrigger;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.DataChangeFilter;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.session.Identity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The record of a durable subscription survives its encoding and the in-memory store unchanged. */
class DurableRecordsTest {

    /** A record with a retransmission queue, a data item with 1,000 queued values and an event item. */
    static DurableSubscriptionRecord sample(long id) {
        List<DataValue> values = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            values.add(DataValue.of(Variant.of(i), StatusCode.GOOD, DateTime.ofEpochMillis(1_700_000_000_000L + i),
                    DateTime.ofEpochMillis(1_700_000_000_001L + i)));
        }
        NotificationMessage sent = new NotificationMessage(41, DateTime.ofEpochMillis(1_700_000_000_000L),
                new ExtensionObject[] {ExtensionObject.of(new DataChangeNotification(new MonitoredItemNotification[] {
                        new MonitoredItemNotification(7, DataValue.of(Variant.of(-1)))}, null))});
        ExtensionObject filter = ExtensionObject.of(new DataChangeFilter(DataChangeTrigger.StatusValueTimestamp, 0, 0.0));
        DurableSubscriptionRecord.Item data = new DurableSubscriptionRecord.Item(1001, 7,
                new ReadValueId(NodeId.string(2, "Line/Speed"), 13, null, QualifiedName.NULL), MonitoringMode.Reporting, 100.0, 10000,
                true, filter, TimestampsToReturn.Both, false, values, values.get(999), List.of());
        DurableSubscriptionRecord.Item events = new DurableSubscriptionRecord.Item(1002, 8,
                new ReadValueId(NodeId.ns0(2253), 12, null, QualifiedName.NULL), MonitoringMode.Reporting, 0, 500, true,
                ExtensionObject.NULL, null, true, List.of(), null,
                List.of(new Variant[] {Variant.of("a"), Variant.of(500)}, new Variant[] {Variant.NULL, Variant.of(1)}));
        return new DurableSubscriptionRecord(id, Identity.user("operator"), 250.0, 345_600, 10, 1000, (short) 3, true,
                24, 1_800_000_000_000L, 42, List.of(sent), List.of(data, events));
    }

    @Test
    void recordRoundTripsThroughItsBytes() {
        DurableSubscriptionRecord record = sample(123456789L);
        DurableSubscriptionRecord back = DurableRecordCodec.decode(DurableRecordCodec.encode(record));
        assertSame(record, back);
    }

    @Test
    void certificateAndAnonymousOwnersRoundTrip() {
        DurableSubscriptionRecord r = sample(5);
        for (Identity owner : List.of(Identity.ANONYMOUS, Identity.certificate("CN=x", "00ff"))) {
            DurableSubscriptionRecord withOwner = new DurableSubscriptionRecord(5, owner, 1, 3, 1, 0, (short) 0, false,
                    1, 0, 1, List.of(), List.of());
            assertThat(DurableRecordCodec.decode(DurableRecordCodec.encode(withOwner)).owner()).isEqualTo(owner);
        }
    }

    @Test
    void anotherFormatVersionIsRefused() {
        byte[] bytes = DurableRecordCodec.encode(sample(1));
        bytes[0] = 9;
        assertThatThrownBy(() -> DurableRecordCodec.decode(bytes)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void inMemoryStoreSavesReplacesRemovesAndLoads() {
        InMemoryDurableSubscriptionStore store = new InMemoryDurableSubscriptionStore();
        store.save(sample(1));
        store.save(sample(2));
        store.save(sample(2));
        assertThat(store.loadAll()).extracting(DurableSubscriptionRecord::subscriptionId)
                .containsExactlyInAnyOrder(1L, 2L);
        store.remove(1);
        store.remove(77);
        assertThat(store.loadAll()).singleElement().satisfies(r -> assertSame(sample(2), r));
    }

    /** Field by field: DataValue and Variant arrays compare by content. */
    static void assertSame(DurableSubscriptionRecord expected, DurableSubscriptionRecord actual) {
        assertThat(actual).usingRecursiveComparison().isEqualTo(expected);
    }
}
