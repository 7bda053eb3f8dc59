package dev.opcua.benchmarks.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class StatsProbeTest {

    private static final int MIB = 1 << 20;

    /** Keeps allocations observable, so that the JIT cannot drop them. */
    private static volatile Object sink;

    @Test
    void a_live_threads_bytes_between_two_answers_are_counted() {
        StatsProbe probe = new StatsProbe(() -> -1, () -> -1, () -> "connections=-1 channels=-1 sessions=-1");
        long before = probe.allocatedBytes();

        allocate(16);

        assertThat(probe.allocatedBytes() - before).isGreaterThanOrEqualTo(16L * MIB);
    }

    @Test
    void the_total_never_goes_back_when_a_thread_that_allocated_much_ends() throws Exception {
        StatsProbe probe = new StatsProbe(() -> -1, () -> -1, () -> "connections=-1 channels=-1 sessions=-1");
        CountDownLatch allocated = new CountDownLatch(1);
        CountDownLatch end = new CountDownLatch(1);
        Thread pooled = new Thread(() -> {
            allocate(32);
            allocated.countDown();
            try {
                end.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "idle-pool-thread");
        pooled.start();
        allocated.await();
        long withThread = probe.allocatedBytes();

        end.countDown();
        pooled.join();

        // a sum over the live threads would now be 32 MiB lower
        assertThat(probe.allocatedBytes()).isGreaterThanOrEqualTo(withThread);
    }

    @Test
    void the_answer_line_names_every_field() {
        String line = new StatsProbe(() -> 42, () -> 7, () -> "").statsLine();

        assertThat(line).matches("STATS cpu_ns=\\d+ alloc_bytes=\\d+ jit_ms=-?\\d+ simulated=42 rejected=7");
    }

    @Test
    void a_mirroring_server_appends_the_mirrors_cost_to_the_answer_line() {
        String line = new StatsProbe(() -> 42, () -> 7, () -> "", () -> "mirror_cpu_ns=5 notifications_sent=9", () -> { })
                .statsLine();

        assertThat(line).matches("STATS cpu_ns=\\d+ alloc_bytes=\\d+ jit_ms=-?\\d+ simulated=42 rejected=7"
                + " mirror_cpu_ns=5 notifications_sent=9");
    }

    @Test
    void the_footprint_line_gives_the_heap_after_a_collection_the_threads_and_the_servers_counts() {
        String line = new StatsProbe(() -> -1, () -> -1, () -> "connections=2 channels=1 sessions=0").footprintLine();

        assertThat(line).matches("FOOTPRINT heap_used=\\d+ threads=\\d+ connections=2 channels=1 sessions=0");
    }

    private static void allocate(int mebibytes) {
        for (int i = 0; i < mebibytes; i++) {
            sink = new byte[MIB];
        }
    }
}
