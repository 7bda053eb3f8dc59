package dev.opcua.stack.server.subscriptions.sampling;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Members added and cancelled from several threads while the scheduler thread samples them. */
class SamplingSchedulerConcurrencyTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    /** Groups with members that stay, and one (3 ms) whose members all come and go. */
    private static final long[] INTERVALS = {MS, 2 * MS, 3 * MS, 5 * MS};
    private static final long CHURN_INTERVAL = 3 * MS;
    private static final int STAYING_PER_GROUP = 50;

    private static final class Probe {
        final long intervalNanos;
        final boolean staying;
        volatile boolean cancelled;
        final AtomicInteger sampledAfterCancel = new AtomicInteger();

        Probe(long intervalNanos, boolean staying) {
            this.intervalNanos = intervalNanos;
            this.staying = staying;
        }
    }

    private record Held(Probe probe, SamplingScheduler.Registration registration) {
    }

    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    private final Set<Probe> seenInCall = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Long, List<Probe>> lastCall = new ConcurrentHashMap<>();
    /** The groups of staying members whose call held all of them at least once. */
    private final Set<Long> completeGroups = ConcurrentHashMap.newKeySet();
    private final AtomicLong samples = new AtomicLong();
    private volatile boolean checkStaying;
    private volatile boolean recordCalls;

    private void sample(long intervalNanos, List<Probe> members, long deadlineNanos) {
        seenInCall.clear();
        int staying = 0;
        for (Probe probe : members) {
            if (!seenInCall.add(probe)) {
                violations.add("a member sampled twice in one call of the " + intervalNanos + " ns group");
            }
            if (probe.intervalNanos != intervalNanos) {
                violations.add("a member of the " + probe.intervalNanos + " ns group sampled in the "
                        + intervalNanos + " ns group");
            }
            // Only a call whose copy of the members raced with the cancel may still hold the member.
            if (probe.cancelled && probe.sampledAfterCancel.incrementAndGet() > 1) {
                violations.add("a member sampled by two calls after its cancel() returned");
            }
            if (probe.staying) {
                staying++;
            }
        }
        if (intervalNanos != CHURN_INTERVAL && staying == STAYING_PER_GROUP) {
            completeGroups.add(intervalNanos);
        }
        if (checkStaying && intervalNanos != CHURN_INTERVAL && staying != STAYING_PER_GROUP) {
            violations.add("a call of the " + intervalNanos + " ns group held " + staying + " of the "
                    + STAYING_PER_GROUP + " members that never left");
        }
        samples.addAndGet(members.size());
        if (recordCalls) {
            lastCall.put(intervalNanos, List.copyOf(members));
        }
    }

    @Test
    void members_added_and_cancelled_from_many_threads_are_neither_lost_nor_duplicated() throws Exception {
        try (SamplingScheduler<Probe> scheduler = new SamplingScheduler<>("opcua-sampling-stress", this::sample)) {
            List<Held> live = Collections.synchronizedList(new ArrayList<>());
            for (long interval : INTERVALS) {
                if (interval != CHURN_INTERVAL) {
                    for (int i = 0; i < STAYING_PER_GROUP; i++) {
                        Probe probe = new Probe(interval, true);
                        live.add(new Held(probe, scheduler.add(interval, probe)));
                    }
                }
            }
            // every staying member is in its group's ticks once a call of each group held them all
            await("a call of each group with all its staying members").atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(1)).until(() -> completeGroups.size() == INTERVALS.length - 1);
            checkStaying = true;

            long stopAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1_000);
            AtomicLong operations = new AtomicLong();
            List<Thread> workers = new ArrayList<>();
            List<List<Held>> held = Collections.synchronizedList(new ArrayList<>());
            for (int w = 0; w < 4; w++) {
                int seed = w;
                Thread worker = new Thread(() -> {
                    SplittableRandom random = new SplittableRandom(seed);
                    List<Held> mine = new ArrayList<>();
                    long ops = 0;
                    while (System.nanoTime() - stopAt < 0) {
                        if (mine.isEmpty() || (mine.size() < 300 && random.nextBoolean())) {
                            long interval = INTERVALS[random.nextInt(INTERVALS.length)];
                            Probe probe = new Probe(interval, false);
                            mine.add(new Held(probe, scheduler.add(interval, probe)));
                        } else {
                            int index = random.nextInt(mine.size());
                            Held gone = mine.get(index);
                            mine.set(index, mine.get(mine.size() - 1));
                            mine.remove(mine.size() - 1);
                            gone.registration().cancel();
                            gone.probe().cancelled = true;
                            if (random.nextInt(10) == 0) {
                                gone.registration().cancel(); // idempotent
                            }
                        }
                        ops++;
                    }
                    operations.addAndGet(ops);
                    held.add(mine);
                }, "sampling-stress-worker-" + w);
                worker.start();
                workers.add(worker);
            }
            for (Thread worker : workers) {
                worker.join(10_000);
                assertThat(worker.isAlive()).isFalse();
            }
            held.forEach(live::addAll);

            // At rest: the calls of each group hold exactly its live members (a call that copied the members
            // before the last cancel returned may still be recorded first; the calls after it replace it).
            recordCalls = true;
            await("each group's calls at rest").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                    .untilAsserted(() -> {
                        for (long interval : INTERVALS) {
                            Set<Probe> expected = identitySet(live.stream().map(Held::probe)
                                    .filter(p -> p.intervalNanos == interval).toList());
                            List<Probe> actual = lastCall.getOrDefault(interval, List.of());
                            assertThat(identitySet(actual)).as("members of the %d ns group", interval)
                                    .hasSameSizeAs(actual)
                                    .hasSameSizeAs(expected)
                                    .containsAll(expected);
                        }
                    });
            assertThat(scheduler.memberCount()).isEqualTo(live.size());
            assertThat(violations).isEmpty();
            assertThat(scheduler.statistics().samplerFailures()).isZero();
            assertThat(operations.get()).isGreaterThan(10_000);
            assertThat(samples.get()).isGreaterThan(0);
            System.out.printf("sampling stress: %d adds/cancels from 4 threads in 1 s, %d samples, %s%n",
                    operations.get(), samples.get(), scheduler.statistics());
        }
    }

    private static Set<Probe> identitySet(List<Probe> probes) {
        Set<Probe> set = Collections.newSetFromMap(new IdentityHashMap<>());
        set.addAll(probes);
        return set;
    }
}
