package dev.opcua.stack.server.subscriptions.items;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Issue 7, item 6: creating 100,000 items in one subscription and 1,000 subscriptions of 100 items
 * takes time linear in the number of items, and deleting frees everything. Runs with
 * {@code -Dopcua.scale=true} and prints its timings.
 *
 * <p>Linearity is judged per batch rather than by totals, which garbage collection and other
 * processes on a small machine blur: a batch of 1,000 items (or a subscription of 100) must cost
 * the same whether few or 90,000 items exist already; a scan of all items per item would make the
 * last batches about 50 times dearer than the first. Each batch's time is the best of three rounds.
 */
@EnabledIfSystemProperty(named = "opcua.scale", matches = "true")
class MonitoredItemScaleTest {

    private static final int NODES = 10_000;
    private static final int ROUNDS = 3;

    private static MonitoredItemCreateRequest[] requests(ItemsFixture fixture, int from, int count) {
        MonitoredItemCreateRequest[] requests = new MonitoredItemCreateRequest[count];
        for (int i = 0; i < count; i++) {
            requests[i] = ItemsFixture.request(fixture.id("Many.V" + ((from + i) % NODES)), MonitoringMode.Reporting,
                    60_000, 1, true, null); // sampled once when the group starts, then not while the test measures
        }
        return requests;
    }

    private static List<MonitoredItemCreateRequest[]> batches(ItemsFixture fixture, int items, int perBatch) {
        List<MonitoredItemCreateRequest[]> batches = new ArrayList<>();
        for (int from = 0; from < items; from += perBatch) {
            batches.add(requests(fixture, from, Math.min(perBatch, items - from)));
        }
        return batches;
    }

    /**
     * Creates the batches, each in the subscription {@code ownerOf} gives for its index, keeping
     * for each batch the shortest time so far in {@code best}; returns the round's total.
     */
    private static long createRound(ItemsFixture fixture, List<MonitoredItemCreateRequest[]> batches,
            java.util.function.IntFunction<FakeOwner> ownerOf, long[] best) {
        System.gc();
        long total = 0;
        for (int b = 0; b < batches.size(); b++) {
            FakeOwner owner = ownerOf.apply(b);
            long start = System.nanoTime();
            MonitoredItemCreateResult[] results = fixture.create(owner, TimestampsToReturn.Both, batches.get(b));
            long nanos = System.nanoTime() - start;
            total += nanos;
            best[b] = Math.min(best[b], nanos);
            for (MonitoredItemCreateResult result : results) {
                assertThat(result.statusCode().isGood()).isTrue();
            }
        }
        return total;
    }

    private static double medianMillis(long[] nanos, int from, int to) {
        long[] part = Arrays.copyOfRange(nanos, from, to);
        Arrays.sort(part);
        return part[part.length / 2] / 1e6;
    }

    private static String deciles(long[] nanos) {
        StringBuilder text = new StringBuilder();
        int decile = nanos.length / 10;
        for (int d = 0; d < 10; d++) {
            text.append(String.format(" %.3f", medianMillis(nanos, d * decile, (d + 1) * decile)));
        }
        return text.toString();
    }

    private static long sum(long[] nanos, int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += nanos[i];
        }
        return sum;
    }

    private static long deleteAll(List<FakeOwner> owners) {
        long start = System.nanoTime();
        owners.forEach(owner -> owner.items().deleteAll());
        return System.nanoTime() - start;
    }

    private static void assertFreed(ItemsFixture fixture, List<FakeOwner> owners) {
        assertThat(owners).allSatisfy(owner -> assertThat(owner.items().size()).isZero());
        assertThat(fixture.factory.sampledItems()).isZero();
        assertThat(fixture.counters.live()).isZero();
    }

    @Test
    void creating_100000_items_in_one_subscription_is_linear_and_deleting_frees_everything() {
        try (ItemsFixture fixture = new ItemsFixture(MonitoredItemSettings.DEFAULT, NODES, false)) {
            List<MonitoredItemCreateRequest[]> batches = batches(fixture, 100_000, 1_000);
            long[] best = new long[batches.size()];
            Arrays.fill(best, Long.MAX_VALUE);
            long bestTotal = Long.MAX_VALUE;
            long bestDelete = Long.MAX_VALUE;
            for (int round = 0; round < ROUNDS; round++) {
                FakeOwner owner = fixture.owner(200_000);
                bestTotal = Math.min(bestTotal, createRound(fixture, batches, b -> owner, best));
                assertThat(owner.items().size()).isEqualTo(100_000);
                assertThat(fixture.factory.sampledItems()).isEqualTo(100_000);
                bestDelete = Math.min(bestDelete, deleteAll(List.of(owner)));
                assertFreed(fixture, List.of(owner));
            }
            double early = medianMillis(best, 0, 10);
            double late = medianMillis(best, 90, 100);
            System.out.printf("scale: one subscription: the first 10,000 items %.1f ms, all 100,000 %.1f ms"
                    + " (best of %d; a round %.1f ms, %.2f us/item); delete 100,000 %.1f ms%n",
                    sum(best, 0, 10) / 1e6, sum(best, 0, 100) / 1e6, ROUNDS, bestTotal / 1e6, bestTotal / 1e3 / 100_000,
                    bestDelete / 1e6);
            System.out.println("scale: one subscription, median ms per batch of 1,000 by decile:" + deciles(best));
            assertThat(late).as("a batch costs the same with 90,000 items present").isLessThan(5 * early + 1);
        }
    }

    @Test
    void creating_1000_subscriptions_of_100_items_is_linear_and_deleting_frees_everything() {
        try (ItemsFixture fixture = new ItemsFixture(MonitoredItemSettings.DEFAULT, NODES, false)) {
            List<MonitoredItemCreateRequest[]> batches = batches(fixture, 100_000, 100);
            long[] best = new long[batches.size()];
            Arrays.fill(best, Long.MAX_VALUE);
            long bestTotal = Long.MAX_VALUE;
            long bestDelete = Long.MAX_VALUE;
            for (int round = 0; round < ROUNDS; round++) {
                List<FakeOwner> owners = new ArrayList<>();
                for (int s = 0; s < batches.size(); s++) {
                    owners.add(fixture.owner());
                }
                bestTotal = Math.min(bestTotal, createRound(fixture, batches, owners::get, best));
                assertThat(fixture.counters.live()).isEqualTo(100_000);
                assertThat(fixture.factory.sampledItems()).isEqualTo(100_000);
                bestDelete = Math.min(bestDelete, deleteAll(owners));
                assertFreed(fixture, owners);
            }
            double early = medianMillis(best, 0, 100);
            double late = medianMillis(best, 900, 1000);
            System.out.printf("scale: 1,000 subscriptions x 100 items: the first 100 subscriptions %.1f ms, all 1,000"
                    + " %.1f ms (best of %d; a round %.1f ms, %.2f us/item); delete all %.1f ms%n",
                    sum(best, 0, 100) / 1e6, sum(best, 0, 1000) / 1e6, ROUNDS, bestTotal / 1e6,
                    bestTotal / 1e3 / 100_000, bestDelete / 1e6);
            System.out.println("scale: 1,000 subscriptions, median ms per subscription of 100 by decile:"
                    + deciles(best));
            assertThat(late).as("a subscription costs the same with 900 others present").isLessThan(5 * early + 0.5);
        }
    }
}
