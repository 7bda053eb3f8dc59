package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.session.SessionSnapshot;
import dev.opcua.stack.server.subscriptions.ItemContainer;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class StandbySamplerTest {

    private static final String A = "urn:test:standby:a";
    private static final String B = "urn:test:standby:b";

    /** The containers a sampler made, with the items it restored in them and whether they were deleted. */
    private static final class Made implements ItemContainer {
        volatile List<DurableSubscriptionRecord.Item> restored = List.of();
        volatile boolean deleted;

        @Override
        public int size() {
            return restored.size();
        }

        @Override
        public void deleteAll() {
            deleted = true;
        }

        @Override
        public int restore(List<DurableSubscriptionRecord.Item> items) {
            restored = List.copyOf(items);
            return items.size();
        }
    }

    private final List<Made> made = new CopyOnWriteArrayList<>();
    private final InMemorySessionStateStore store = new InMemorySessionStateStore();
    private final SessionSnapshot session = new SessionSnapshot(NodeId.guid(1, UUID.randomUUID()), "line 1", null,
            "opc.tcp://localhost:4840/", 60_000, 0, null, EndpointSecurity.NONE, Identity.user("operator"), 3,
            ByteString.wrap(new byte[32]));
    private final NodeId token = NodeId.opaque(0, ByteString.wrap(UUID.randomUUID().toString().getBytes()));

    private static DurableSubscriptionRecord.Item item(long id, MonitoringMode mode, double interval, int queue,
            boolean event) {
        return new DurableSubscriptionRecord.Item(id, id, new ReadValueId(NodeId.string(2, "Line/" + id), 13, null,
                QualifiedName.NULL), mode, interval, queue, false, ExtensionObject.NULL, TimestampsToReturn.Source,
                event, List.of(), null, List.of());
    }

    private void writeAsA(List<DurableSubscriptionRecord.Item> items) {
        DurableSubscriptionRecord subscription = new DurableSubscriptionRecord(7, Identity.user("operator"), 100,
                2_400, 10, 0, (short) 0, true, 0, 1_800_000_000_000L, 1, List.of(), items);
        MirrorLedger.Prepared prepared = new MirrorLedger().changes(session, Session.tokenHash(token),
                List.of(subscription), 1_000);
        store.write(A, List.of(prepared.changes()));
    }

    private StandbySampler sampler(String owner) {
        return new StandbySampler(store, owner, standbyOwner -> {
            Made container = new Made();
            made.add(container);
            return container;
        }, Duration.ofSeconds(5));
    }

    @Test
    void a_partners_data_items_are_sampled_with_both_timestamps_and_a_window_bounded_by_their_queue_size() {
        writeAsA(List.of(item(1, MonitoringMode.Reporting, 100, 1_000, false),
                item(2, MonitoringMode.Sampling, 1_000, 3, false), item(3, MonitoringMode.Disabled, 100, 10, false),
                item(4, MonitoringMode.Reporting, 0, 10, true)));
        try (StandbySampler b = sampler(B)) {
            b.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> b.standbyItems() == 2);

            List<DurableSubscriptionRecord.Item> restored = made.get(0).restored;
            assertThat(restored).extracting(DurableSubscriptionRecord.Item::monitoredItemId).containsExactly(1L, 2L);
            assertThat(restored).extracting(DurableSubscriptionRecord.Item::queueSize)
                    .as("5 s at 100 ms and one more; 5 s at 1 s, but no more than the queue of 3").containsExactly(51, 3);
            assertThat(restored).allSatisfy(i -> {
                assertThat(i.timestamps()).isEqualTo(TimestampsToReturn.Both);
                assertThat(i.discardOldest()).isTrue();
            });
        }
    }

    @Test
    void a_server_does_not_shadow_its_own_sessions_and_drops_what_left_the_store_or_it_took_over() {
        writeAsA(List.of(item(1, MonitoringMode.Reporting, 100, 10, false)));
        try (StandbySampler a = sampler(A); StandbySampler b = sampler(B)) {
            a.start();
            b.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> b.standbyItems() == 1);
            assertThat(a.standbyItems()).as("A's own session").isZero();

            b.drop(session.sessionId());
            assertThat(b.standbyItems()).isZero();
            assertThat(made).singleElement().satisfies(m -> assertThat(m.deleted).isTrue());

            writeAsA(List.of(item(1, MonitoringMode.Reporting, 100, 10, false),
                    item(2, MonitoringMode.Reporting, 100, 10, false)));
            await().during(Duration.ofMillis(1_500)).atMost(Duration.ofSeconds(3)).alias("taken over here: not"
                    + " shadowed again while the store still names A").until(() -> b.standbySubscriptions() == 0);
        }
    }

    @Test
    void a_subscription_that_leaves_the_store_loses_its_standby_items() {
        writeAsA(List.of(item(1, MonitoringMode.Reporting, 100, 10, false)));
        try (StandbySampler b = sampler(B)) {
            b.start();
            await().atMost(Duration.ofSeconds(5)).until(() -> b.standbyItems() == 1);

            store.remove(A, List.of(session.sessionId()));

            await().atMost(Duration.ofSeconds(5)).until(() -> b.standbySubscriptions() == 0);
            assertThat(made.get(0).deleted).isTrue();
        }
    }
}
