package dev.opcua.stack.history.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Durable subscriptions kept in a file outlive the store object: save, reopen, load, remove, reopen. */
class DurableSubscriptionFileStoreTest {

    @TempDir
    Path dir;

    private static DurableSubscriptionRecord record(long id, int queued) {
        List<DataValue> values = new ArrayList<>();
        for (int i = 0; i < queued; i++) {
            values.add(DataValue.of(Variant.of((double) i), StatusCode.GOOD,
                    DateTime.ofEpochMillis(1_700_000_000_000L + i), DateTime.ofEpochMillis(1_700_000_000_000L + i)));
        }
        NotificationMessage sent = new NotificationMessage(17, DateTime.ofEpochMillis(1_700_000_000_000L),
                new ExtensionObject[] {ExtensionObject.of(new DataChangeNotification(new MonitoredItemNotification[] {
                        new MonitoredItemNotification(1, DataValue.of(Variant.of(-1.0)))}, null))});
        DurableSubscriptionRecord.Item item = new DurableSubscriptionRecord.Item(9, 1,
                new ReadValueId(NodeId.string(2, "Line/Temperature"), 13, null, QualifiedName.NULL),
                MonitoringMode.Reporting, 50, 10000, true, ExtensionObject.NULL, TimestampsToReturn.Both, false,
                values, values.isEmpty() ? null : values.get(values.size() - 1), List.of());
        return new DurableSubscriptionRecord(id, Identity.user("operator"), 100, 864_000, 10, 0, (short) 0, true, 24,
                1_800_000_000_000L, 18, List.of(sent), List.of(item));
    }

    @Test
    void recordsWithQueuedValuesSurviveReopeningInOrder() {
        try (MVStoreDurableSubscriptionStore store = MVStoreDurableSubscriptionStore.open(dir)) {
            store.save(record(1, 200));
            store.save(record(2, 0));
            store.save(record(2, 3)); // replaces
        }
        try (MVStoreDurableSubscriptionStore store = MVStoreDurableSubscriptionStore.open(dir)) {
            List<DurableSubscriptionRecord> loaded = store.loadAll();
            assertThat(loaded).extracting(DurableSubscriptionRecord::subscriptionId).containsExactlyInAnyOrder(1L, 2L);
            DurableSubscriptionRecord one = loaded.stream().filter(r -> r.subscriptionId() == 1).findFirst().get();
            assertThat(one).usingRecursiveComparison().isEqualTo(record(1, 200));
            assertThat(one.items().get(0).queuedValues()).extracting(v -> v.value().value())
                    .containsExactlyElementsOf(java.util.stream.IntStream.range(0, 200).mapToObj(i -> (Object) (double) i)
                            .toList());
            assertThat(loaded.stream().filter(r -> r.subscriptionId() == 2).findFirst().get().items().get(0)
                    .queuedValues()).hasSize(3);
            store.remove(1);
        }
        try (MVStoreDurableSubscriptionStore store = MVStoreDurableSubscriptionStore.open(dir)) {
            assertThat(store.loadAll()).extracting(DurableSubscriptionRecord::subscriptionId).containsExactly(2L);
            assertThat(store.file().getFileName().toString()).isEqualTo(MVStoreDurableSubscriptionStore.FILE_NAME);
        }
    }
}
