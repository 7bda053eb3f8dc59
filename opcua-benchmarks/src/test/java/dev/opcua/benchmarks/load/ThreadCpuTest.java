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
    void differences_are_per_name_largest_first_and_the_bench_threads_are_told_apart() {
        Map<String, Long> start = Map.of("opcua-server-io", 1_000L, "bench-simulator", 500L);
        Map<String, Long> end = Map.of("opcua-server-io", 31_000L, "bench-simulator", 10_500L, "bench-counter", 2_000L,
                "C2 CompilerThre", 40_000L);

        Map<String, Long> cpu = ThreadCpu.between(start, end);

        assertThat(cpu).containsExactly(Map.entry("C2 CompilerThre", 40_000L), Map.entry("opcua-server-io", 30_000L),
                Map.entry("bench-simulator", 10_000L), Map.entry("bench-counter", 2_000L));
        assertThat(ThreadCpu.benchNanos(cpu)).isEqualTo(12_000L);
        assertThat(ThreadCpu.jitNanos(cpu)).isEqualTo(40_000L);
        assertThat(ThreadCpu.totalNanos(cpu)).isEqualTo(82_000L);
        assertThat(ThreadCpu.describe(Map.of("busy", 2_000_000L, "idle", 10L), 1.0)).isEqualTo("busy 2.0");
    }

    @Test
    void a_snapshot_of_this_process_sums_threads_by_name_without_their_number() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs Linux /proc");
        long pid = ProcessHandle.current().pid();
        Map<String, Long> before = ThreadCpu.snapshot(pid);
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
