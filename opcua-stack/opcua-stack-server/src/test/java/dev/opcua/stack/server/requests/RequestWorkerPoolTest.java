package dev.opcua.stack.server.requests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The worker pool: thread names, growth and shrinking, admission, age limits, close, statistics. */
class RequestWorkerPoolTest {

    /** How long the workers may take to get to a request, and how often the test looks. */
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(2);

    private final Recorder runner = new Recorder();
    private RequestWorkerPool pool;

    @AfterEach
    void close() {
        runner.release.countDown();
        if (pool != null) {
            pool.close();
        }
    }

    @Test
    void workers_are_named_opcua_worker_n() {
        pool = pool(settings(1, 2, 10));

        pool.submit(TestRequest.of(1, "one"));

        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.ran.size() == 1);
        assertThat(runner.threads.get("one")).matches("opcua-worker-\\d+");
        assertThat(pool.usesVirtualThreads()).isFalse();
    }

    @Test
    void the_pool_grows_to_max_threads_under_blocking_handlers_and_shrinks_back_to_min_threads() {
        runner.blockAll = true;
        pool = pool(new RequestPoolSettings(1, 4, 10, 0, Duration.ofMillis(100), Duration.ofMinutes(1), false,
                Duration.ofSeconds(5)));

        for (int i = 0; i < 6; i++) {
            pool.submit(TestRequest.of(i, "r" + i));
        }

        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.running.get() == 4);
        RequestStatistics statistics = pool.statistics();
        assertThat(statistics.workers()).isEqualTo(4);
        assertThat(statistics.busyWorkers()).isEqualTo(4);
        assertThat(statistics.queued()).isEqualTo(2);
        assertThat(runner.threads.values()).doesNotHaveDuplicates();

        runner.release.countDown();

        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.ran.size() == 6);
        await().atMost(WAIT).pollInterval(POLL).until(() -> statistics.workers() == 1);
        assertThat(statistics.busyWorkers()).isZero();
    }

    @Test
    void a_request_beyond_the_bound_is_refused_at_once_and_no_worker_sees_it() {
        runner.blockAll = true;
        pool = pool(settings(1, 1, 1));
        pool.submit(TestRequest.of(1, "running"));
        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.running.get() == 1);
        assertThat(pool.submit(TestRequest.of(1, "queued"))).isTrue();

        assertThat(pool.submit(TestRequest.of(2, "refused"))).isFalse();

        assertThat(runner.rejected).containsExactly("refused:TOO_BUSY");
        assertThat(runner.threads.get("refused")).isEqualTo(Thread.currentThread().getName());
        runner.release.countDown();
        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.ran.size() == 2);
        assertThat(runner.ran).containsExactly("running", "queued");
        assertThat(pool.statistics().rejected(RejectReason.TOO_BUSY)).isEqualTo(1);
    }

    @Test
    void a_session_holds_at_most_max_running_per_session_workers_and_another_session_is_served_beside_it() {
        runner.blockAll = true;
        pool = pool(settings(1, 4, 10).withMaxRunningPerSession(1));
        for (int i = 0; i < 3; i++) {
            pool.submit(TestRequest.of(1, "flood" + i));
        }
        pool.submit(TestRequest.of(2, "quiet"));

        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.running.get() == 2);
        // no third worker takes flood1: a worker starts within a few milliseconds of a submit, well inside 100 ms
        await().during(Duration.ofMillis(100)).atMost(WAIT).pollInterval(POLL).until(() -> runner.ran.size() == 2);
        assertThat(runner.ran).containsExactlyInAnyOrder("flood0", "quiet");
        assertThat(pool.statistics().queued()).isEqualTo(2);

        runner.release.countDown();
        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.ran.size() == 4);
        assertThat(runner.ran.subList(2, 4)).containsExactly("flood1", "flood2");
    }

    @Test
    void a_request_older_than_max_request_age_is_answered_instead_of_run() {
        runner.blockFor = Duration.ofMillis(150);
        pool = pool(new RequestPoolSettings(1, 1, 10, 0, Duration.ofSeconds(60), Duration.ofMillis(50), false,
                Duration.ofSeconds(5)));

        pool.submit(TestRequest.of(1, "slow"));
        pool.submit(TestRequest.of(2, "stale"));

        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.rejected.size() == 1);
        assertThat(runner.rejected).containsExactly("stale:TOO_OLD");
        assertThat(runner.threads.get("stale")).startsWith("opcua-worker-");
        assertThat(runner.ran).containsExactly("slow");
        assertThat(pool.statistics().rejected(RejectReason.TOO_OLD)).isEqualTo(1);
    }

    @Test
    void a_request_whose_timeout_hint_expired_in_the_queue_is_answered_instead_of_run() {
        runner.blockFor = Duration.ofMillis(150);
        pool = pool(settings(1, 1, 10));

        pool.submit(TestRequest.of(1, "slow"));
        pool.submit(new TestRequest(2, false, System.nanoTime(), 50, "impatient"));
        pool.submit(new TestRequest(3, false, System.nanoTime(), 10_000, "patient"));

        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.ran.size() == 2);
        assertThat(runner.rejected).containsExactly("impatient:TIMEOUT");
        assertThat(runner.ran).containsExactly("slow", "patient");
        assertThat(pool.statistics().rejected(RejectReason.TIMEOUT)).isEqualTo(1);
    }

    @Test
    void close_lets_the_running_request_finish_and_answers_queued_ones_with_halted() throws InterruptedException {
        runner.blockAll = true;
        pool = pool(settings(1, 1, 10));
        pool.submit(TestRequest.of(1, "running"));
        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.running.get() == 1);
        pool.submit(TestRequest.of(1, "queued1"));
        pool.submit(TestRequest.priority(2, "queued2"));
        Thread releaser = new Thread(() -> {
            sleep(100); // the scenario: the running request finishes while close() waits for it
            runner.release.countDown();
        }, "test-releaser");
        releaser.start();

        pool.close();

        assertThat(runner.ran).containsExactly("running");
        assertThat(runner.finished).containsExactly("running");
        assertThat(runner.rejected).containsExactlyInAnyOrder("queued1:HALTED", "queued2:HALTED");
        assertThat(pool.statistics().workers()).isZero();
        assertThat(pool.submit(TestRequest.of(3, "late"))).isFalse();
        assertThat(runner.rejected).contains("late:HALTED");
        assertThat(pool.statistics().rejected(RejectReason.HALTED)).isEqualTo(3);
        releaser.join();
    }

    @Test
    void close_interrupts_a_worker_that_outlives_the_shutdown_timeout() {
        runner.blockAll = true;
        pool = pool(new RequestPoolSettings(1, 1, 10, 0, Duration.ofSeconds(60), Duration.ofMinutes(1), false,
                Duration.ofMillis(100)));
        pool.submit(TestRequest.of(1, "stuck"));
        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.running.get() == 1);

        long start = System.nanoTime();
        pool.close();

        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
        assertThat(pool.awaitTermination(2, TimeUnit.SECONDS)).isTrue();
        assertThat(runner.interrupted).containsExactly("stuck");
    }

    @Test
    void statistics_count_admissions_rejections_and_queue_waits() {
        runner.blockAll = true;
        pool = pool(new RequestPoolSettings(1, 1, 2, 3, Duration.ofSeconds(60), Duration.ofMinutes(1), false,
                Duration.ofSeconds(5)));
        pool.submit(TestRequest.of(1, "r0"));
        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.running.get() == 1);
        pool.submit(TestRequest.of(1, "r1"));
        pool.submit(TestRequest.priority(2, "p0"));
        pool.submit(TestRequest.of(1, "r2"));
        pool.submit(TestRequest.of(1, "r3"));

        RequestStatistics.Snapshot busy = pool.statistics().snapshot();
        assertThat(busy.queued()).isEqualTo(3);
        assertThat(busy.priorityQueued()).isEqualTo(1);
        assertThat(busy.queueCapacity()).isEqualTo(2);
        assertThat(busy.priorityQueueCapacity()).isEqualTo(3);
        assertThat(busy.admitted()).isEqualTo(4);
        assertThat(busy.rejected()).containsEntry(RejectReason.TOO_BUSY, 1L).containsEntry(RejectReason.HALTED, 0L);
        assertThat(busy.workers()).isEqualTo(1);

        runner.release.countDown();
        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.ran.size() == 4);
        RequestStatistics.Snapshot idle = pool.statistics().snapshot();
        assertThat(idle.queued()).isZero();
        assertThat(idle.queueWaitCount()).isEqualTo(4);
        assertThat(idle.queueWaitMaxNanos()).isPositive();
        assertThat(idle.queueWaitTotalNanos()).isGreaterThanOrEqualTo(idle.queueWaitMaxNanos());
        assertThat(runner.ran).containsExactly("r0", "p0", "r1", "r2");
    }

    @Test
    void concurrent_submitters_never_strand_a_request() throws Exception {
        pool = pool(new RequestPoolSettings(0, 3, 50, 5, Duration.ofMillis(1), Duration.ofMinutes(1), false,
                Duration.ofSeconds(5)));
        ExecutorService submitters = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> runs = new CopyOnWriteArrayList<>();
            for (int t = 0; t < 4; t++) {
                long owner = t;
                runs.add(submitters.submit(() -> {
                    for (int i = 0; i < 5_000; i++) {
                        pool.submit(i % 7 == 0 ? TestRequest.priority(owner, "p") : TestRequest.of(owner, "r"));
                        if (i % 500 == 0) {
                            sleep(2); // let the pool shrink to nothing now and then
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(10, TimeUnit.SECONDS);
            }
        } finally {
            submitters.shutdownNow();
        }

        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.runCount.get() + runner.rejectCount.get() == 20_000);
        assertThat(pool.statistics().admitted()).isEqualTo(runner.runCount.get());
        assertThat(pool.statistics().rejected(RejectReason.TOO_BUSY)).isEqualTo(runner.rejectCount.get());
        assertThat(pool.statistics().queued()).isZero();
    }

    @Test
    void virtual_threads_run_requests_on_java21_and_fall_back_to_platform_workers_before() {
        pool = pool(new RequestPoolSettings(2, 4, 10, 0, Duration.ofSeconds(60), Duration.ofMinutes(1), true,
                Duration.ofSeconds(5)));

        pool.submit(TestRequest.of(1, "one"));

        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.ran.size() == 1);
        assertThat(runner.threads.get("one")).matches("opcua-worker-\\d+");
        boolean java21 = Runtime.version().feature() >= 21;
        assertThat(pool.usesVirtualThreads()).isEqualTo(java21);
        assertThat(runner.virtual.get("one")).isEqualTo(java21);
        if (java21) {
            await().atMost(WAIT).pollInterval(POLL)
                    .until(() -> pool.statistics().workers() == 0); // a virtual worker ends with the queue
        }
    }

    @Test
    void virtual_workers_are_bounded_by_max_threads() {
        assumeThat(Runtime.version().feature()).as("virtual threads").isGreaterThanOrEqualTo(21);
        runner.blockAll = true;
        pool = pool(new RequestPoolSettings(0, 3, 10, 0, Duration.ofSeconds(60), Duration.ofMinutes(1), true,
                Duration.ofSeconds(5)));

        for (int i = 0; i < 5; i++) {
            pool.submit(TestRequest.of(i, "r" + i));
        }

        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.running.get() == 3);
        assertThat(pool.statistics().queued()).isEqualTo(2);
        runner.release.countDown();
        await().atMost(WAIT).pollInterval(POLL).until(() -> runner.ran.size() == 5);
    }

    private RequestWorkerPool pool(RequestPoolSettings settings) {
        return new RequestWorkerPool(settings, runner);
    }

    private static RequestPoolSettings settings(int minThreads, int maxThreads, int maxQueued) {
        return new RequestPoolSettings(minThreads, maxThreads, maxQueued, 0, Duration.ofSeconds(60),
                Duration.ofMinutes(1), false, Duration.ofSeconds(5));
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Records what the pool does with each request; can block the runs. */
    private static final class Recorder implements RequestRunner {
        final List<String> ran = new CopyOnWriteArrayList<>();
        final List<String> finished = new CopyOnWriteArrayList<>();
        final List<String> rejected = new CopyOnWriteArrayList<>();
        final List<String> interrupted = new CopyOnWriteArrayList<>();
        final Map<String, String> threads = new ConcurrentHashMap<>();
        final Map<String, Boolean> virtual = new ConcurrentHashMap<>();
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger runCount = new AtomicInteger();
        final AtomicInteger rejectCount = new AtomicInteger();
        final CountDownLatch release = new CountDownLatch(1);
        volatile boolean blockAll;
        volatile Duration blockFor = Duration.ZERO;

        @Override
        public void run(QueuedRequest request) {
            String name = ((TestRequest) request).name;
            runCount.incrementAndGet();
            if (bulk(name)) {
                return;
            }
            threads.put(name, Thread.currentThread().getName());
            virtual.put(name, VirtualThreads.isVirtual(Thread.currentThread()));
            ran.add(name); // after the details: tests wait for this
            running.incrementAndGet();
            try {
                if (blockAll) {
                    release.await(10, TimeUnit.SECONDS);
                } else if (!blockFor.isZero()) {
                    Thread.sleep(blockFor.toMillis()); // a slow request, as the test asked
                }
                finished.add(name);
            } catch (InterruptedException e) {
                interrupted.add(name);
            } finally {
                running.decrementAndGet();
            }
        }

        @Override
        public void reject(QueuedRequest request, RejectReason reason) {
            String name = ((TestRequest) request).name;
            rejectCount.incrementAndGet();
            if (bulk(name)) {
                return;
            }
            threads.put(name, Thread.currentThread().getName());
            rejected.add(name + ":" + reason);
        }

        /** The many requests of the concurrency test, only counted. */
        private static boolean bulk(String name) {
            return name.equals("r") || name.equals("p");
        }
    }
}
