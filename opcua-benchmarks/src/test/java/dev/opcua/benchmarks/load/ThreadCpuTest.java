package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class ThreadCpuTest {

    @Test
    void threads_group_by_their_name_without_the_number_at_its_end() {
        assertThat(ThreadCpu.group("GC Thread#1")).isEqualTo("GC Thread");
        assertThat(ThreadCpu.group("opcua-client-io-3")).isEqualTo("opcua-client-io");
        assertThat(ThreadCpu.group("milo-client-io-12")).isEqualTo("milo-client-io");
        assertThat(ThreadCpu.group("worker7")).isEqualTo("worker");
        assertThat(ThreadCpu.group("C2 CompilerThre")).isEqualTo("C2 CompilerThre");
        assertThat(ThreadCpu.group("load-progress")).isEqualTo("load-progress");
        assertThat(ThreadCpu.group("-5")).isEmpty();
        assertThat(ThreadCpu.group("")).isEmpty();
    }

    @Test
    void differences_are_per_thread_summed_by_name_largest_first_and_the_bench_threads_are_told_apart() {
        Map<Long, ThreadCpu.Sample> start = Map.of(
                1L, sample("opcua-server-io", 1_000L), 2L, sample("opcua-server-io", 4_000L),
                3L, sample("bench-simulator", 500L),
                4L, sample("milo-shared-thread-pool", 90_000L), // ends in the window
                5L, sample("milo-shared-thread-pool", 1_000L));
        Map<Long, ThreadCpu.Sample> end = Map.of(
                1L, sample("opcua-server-io", 31_000L), 2L, sample("opcua-server-io", 5_000L),
                3L, sample("bench-simulator", 10_500L),
                5L, sample("milo-shared-thread-pool", 3_000L),
                6L, sample("milo-shared-thread-pool", 7_000L), // born in the window
                7L, sample("bench-counter", 2_000L), 8L, sample("C2 CompilerThre", 40_000L));

        Map<String, Long> cpu = ThreadCpu.between(start, end);

        // the thread that ended takes its time with it: it does not make its survivors' difference negative
        assertThat(cpu).containsExactly(Map.entry("C2 CompilerThre", 40_000L), Map.entry("opcua-server-io", 31_000L),
                Map.entry("bench-simulator", 10_000L), Map.entry("milo-shared-thread-pool", 9_000L),
                Map.entry("bench-counter", 2_000L));
        assertThat(ThreadCpu.benchNanos(cpu)).isEqualTo(12_000L);
        assertThat(ThreadCpu.jitNanos(cpu)).isEqualTo(40_000L);
        assertThat(ThreadCpu.totalNanos(cpu)).isEqualTo(92_000L);
        assertThat(ThreadCpu.describe(Map.of("busy", 2_000_000L, "idle", 10L), 1.0)).isEqualTo("busy 2.0");
    }

    @Test
    void a_thread_id_taken_by_a_new_thread_of_another_name_counts_from_zero() {
        Map<String, Long> cpu = ThreadCpu.between(Map.of(9L, sample("old-worker", 50_000L)),
                Map.of(9L, sample("opcua-worker", 3_000L)));

        assertThat(cpu).containsExactly(Map.entry("opcua-worker", 3_000L));
    }

    private static ThreadCpu.Sample sample(String name, long nanos) {
        return new ThreadCpu.Sample(name, nanos);
    }

    @Test
    void a_snapshot_of_this_process_sums_threads_by_name_without_their_number() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux /proc");
        long pid = ProcessHandle.current().pid();
        Map<Long, ThreadCpu.Sample> before = ThreadCpu.snapshot(pid);
        CountDownLatch done = new CountDownLatch(2);
        for (int i = 1; i <= 2; i++) {
            Thread spinner = new Thread(() -> {
                // 30 ms of this thread's own CPU, however long a busy machine makes it wait for it
                ThreadMXBean cpu = ManagementFactory.getThreadMXBean();
                long until = cpu.getCurrentThreadCpuTime() + 30_000_000L;
                long x = 0;
                while (cpu.getCurrentThreadCpuTime() < until) {
                    x += System.nanoTime() & 1;
                }
                if (x >= 0) {
                    done.countDown();
                }
                try {
                    Thread.sleep(5_000); // alive when the snapshot is taken
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "bench-spin-" + i);
            spinner.setDaemon(true);
            spinner.start();
        }
        done.await();

        Map<String, Long> cpu = ThreadCpu.between(before, ThreadCpu.snapshot(pid));

        assertThat(cpu).containsKey("bench-spin").doesNotContainKey("bench-spin-1");
        assertThat(cpu.get("bench-spin")).as("two threads of 30 ms CPU each, summed").isGreaterThan(50_000_000L);
        assertThat(ThreadCpu.benchNanos(cpu)).isGreaterThanOrEqualTo(cpu.get("bench-spin"));
    }
}
