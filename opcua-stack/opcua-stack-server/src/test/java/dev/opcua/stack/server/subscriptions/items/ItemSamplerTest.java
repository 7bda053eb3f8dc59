package dev.opcua.stack.server.subscriptions.items;

import static dev.opcua.stack.server.subscriptions.items.ItemsFixture.request;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.server.addressspace.VariableNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Sampling (DESIGN.md section 5): one batched read per group tick, disabled items unsampled, slow managers skipped. */
class ItemSamplerTest {

    private static MonitoredItemCreateRequest every(long millis, dev.opcua.stack.core.types.builtin.NodeId node) {
        return request(node, MonitoringMode.Reporting, millis, 10, true, null);
    }

    @Test
    void a_group_tick_reads_all_its_items_in_one_batch_and_applies_each_result() {
        try (ItemsFixture fixture = new ItemsFixture()) {
            FakeOwner owner = fixture.owner();
            fixture.create(owner, TimestampsToReturn.Both, every(100, fixture.id("Temp")),
                    every(100, fixture.id("Count")), every(100, fixture.pushed("Polled")),
                    every(100, fixture.pushed("P1")));
            owner.publish();
            int pushReads = fixture.pushing.readCalls.get();
            long reads = fixture.factory.samplingReads();

            fixture.set("Temp", Variant.ofDouble(25));
            fixture.set("Count", Variant.ofInt32(3));
            fixture.tick();

            assertThat(fixture.factory.samplingReads() - reads).as("one read for the group").isEqualTo(1);
            assertThat(fixture.pushing.readCalls.get() - pushReads).as("one call for the manager's two items")
                    .isEqualTo(1);
            assertThat(owner.publish()).extracting(n -> n.value().value().value()).containsExactlyInAnyOrder(25.0, 3);
        }
    }

    @Test
    void items_are_grouped_by_their_sampling_interval() {
        try (ItemsFixture fixture = new ItemsFixture()) {
            FakeOwner owner = fixture.owner();
            fixture.create(owner, TimestampsToReturn.Both, every(100, fixture.pushed("Polled")),
                    every(250, fixture.pushed("P1")), every(250, fixture.pushed("P2")));
            long reads = fixture.factory.samplingReads();
            int managerCalls = fixture.pushing.readCalls.get();
            fixture.tick();
            assertThat(fixture.factory.samplingReads() - reads).isEqualTo(2);
            assertThat(fixture.pushing.readCalls.get() - managerCalls).as("one call per group").isEqualTo(2);
            assertThat(fixture.factory.sampledItems()).isEqualTo(3);
        }
    }

    @Test
    void values_held_in_memory_are_sampled_from_their_source_without_a_read() {
        try (ItemsFixture fixture = new ItemsFixture()) {
            FakeOwner owner = fixture.owner();
            fixture.create(owner, TimestampsToReturn.Both, every(100, fixture.id("Temp")),
                    every(250, fixture.id("Count")));
            owner.publish(); // the initial values
            long reads = fixture.factory.samplingReads();
            long sourced = fixture.factory.sourcedSamples();

            fixture.set("Temp", Variant.ofDouble(25));
            DateTime before = DateTime.currentMillisecond(); // server timestamps are whole milliseconds
            fixture.tick();

            assertThat(fixture.factory.samplingReads() - reads).as("no read").isZero();
            assertThat(fixture.factory.sourcedSamples() - sourced).isEqualTo(2);
            List<MonitoredItemNotification> published = owner.publish();
            assertThat(published).singleElement().satisfies(n -> {
                assertThat(n.value().value().value()).isEqualTo(25.0);
                assertThat(n.value().serverTimestamp()).as("the tick's time, as a Read would give")
                        .isNotNull().matches(t -> t.utcTicks() >= before.utcTicks());
                assertThat(n.value().sourceTimestamp()).as("the stored one")
                        .isEqualTo(((VariableNode) fixture.plant.store().get(fixture.id("Temp"))).value().sourceTimestamp());
            });

            fixture.tick(); // nothing changed: the same stored value, no notification
            assertThat(owner.publish()).isEmpty();
        }
    }

    @Test
    void a_sourced_item_follows_its_filter_like_a_read_one() {
        try (ItemsFixture fixture = new ItemsFixture()) {
            FakeOwner owner = fixture.owner();
            fixture.create(owner, TimestampsToReturn.Both, every(100, fixture.id("Temp")));
            owner.publish();
            // a new DataValue with the value of the last one is no change for the default StatusValue trigger
            fixture.set("Temp", Variant.ofDouble(20));
            fixture.tick();
            fixture.set("Temp", Variant.ofDouble(20));
            fixture.tick();
            fixture.set("Temp", Variant.ofDouble(21));
            fixture.tick();
            assertThat(owner.publish()).extracting(n -> n.value().value().value()).containsExactly(21.0);
        }
    }

    @Test
    void disabled_items_are_not_sampled() {
        try (ItemsFixture fixture = new ItemsFixture()) {
            FakeOwner owner = fixture.owner();
            fixture.create(owner, TimestampsToReturn.Both,
                    request(fixture.id("Temp"), MonitoringMode.Disabled, 100, 1, true, null),
                    request(fixture.id("Count"), MonitoringMode.Sampling, 100, 1, true, null));
            assertThat(fixture.factory.sampledItems()).isEqualTo(1);
        }
    }

    @Test
    void a_group_whose_read_is_still_running_skips_its_tick_without_blocking_the_sampler() {
        try (ItemsFixture fixture = new ItemsFixture()) {
            FakeOwner owner = fixture.owner();
            MonitoredItem item = fixture.createOne(owner, every(100, fixture.slow("S1")));
            owner.publish();
            CompletableFuture<Void> gate = new CompletableFuture<>();
            fixture.slow.gate = gate;

            fixture.tick(); // starts a read that does not complete
            fixture.tick();
            fixture.tick();
            assertThat(fixture.factory.skippedSamplingTicks()).isEqualTo(2);
            assertThat(fixture.slow.readCalls.get()).as("create read + one sampling read").isEqualTo(2);

            gate.complete(null);
            assertThat(item.queuedNotifications()).isEqualTo(1);
            fixture.slow.gate = null;
            fixture.tick();
            assertThat(fixture.slow.readCalls.get()).isEqualTo(3);
            assertThat(owner.publish()).extracting(n -> n.value().value().value()).containsExactly(2, 3);
        }
    }

    @Test
    void the_sampler_thread_samples_on_its_own() throws Exception {
        try (ItemsFixture fixture = new ItemsFixture(MonitoredItemSettings.DEFAULT, 0, false)) {
            FakeOwner owner = fixture.owner();
            List<MonitoredItemCreateRequest> requests = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                requests.add(every(20, fixture.pushed("Polled")));
            }
            fixture.create(owner, TimestampsToReturn.Both, requests.toArray(new MonitoredItemCreateRequest[0]));
            owner.publish();
            assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                    .contains(MonitoredItemContainerFactory.SAMPLER_THREAD);

            fixture.pushing.values.put("Polled", dev.opcua.stack.core.types.builtin.DataValue.of(Variant.ofInt32(42),
                    dev.opcua.stack.core.types.builtin.StatusCode.GOOD, null, null));
            List<MonitoredItemNotification> published = new ArrayList<>();
            // the sampler thread samples the new value within a tick (20 ms); the test publishes as the
            // subscription would, on its own thread
            await("the sampled value of each item").atMost(Duration.ofSeconds(5)).pollInSameThread()
                    .pollInterval(Duration.ofMillis(5)).until(() -> {
                        published.addAll(owner.publish());
                        return published.size() >= 20;
                    });
            assertThat(published).hasSize(20).allSatisfy(n -> assertThat(n.value().value().value()).isEqualTo(42));
            // 20 items, one manager call per group tick: never one call per item
            assertThat(fixture.pushing.readCalls.get()).isLessThanOrEqualTo((int) fixture.factory.samplingReads() + 1);
        }
    }
}
