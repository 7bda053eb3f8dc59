package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class GcPausesTest {

    @Test
    void counts_the_pauses_of_a_unified_gc_log_but_those_the_harness_asked_for() {
        GcPauses pauses = GcPauses.of(List.of(
                "[0.007s][info][gc] Using G1",
                "[2.976s][info][gc] GC(6) Pause Young (Normal) (G1 Evacuation Pause) 449M->23M(714M) 2.187ms",
                "[11.640s][info][gc] GC(15) Pause Full (System.gc()) 132M->20M(80M) 908.848ms",
                "[12.100s][info][gc] GC(16) Pause Remark 300M->290M(714M) 41.5ms",
                "[12.300s][info][gc] GC(16) Concurrent Mark Cycle 120.015ms"));

        assertThat(pauses.pauses()).isEqualTo(2);
        assertThat(pauses.maxMillis()).isEqualTo(41.5);
        assertThat(pauses.totalMillis()).isEqualTo(43.687, org.assertj.core.data.Offset.offset(1e-9));
        assertThat(pauses.maxCpuMillis()).isEqualTo(-1);
    }

    @Test
    void takes_the_cpu_of_single_pause_collections_only_and_the_nearest_rank_p99() {
        List<String> lines = new java.util.ArrayList<>();
        for (int i = 0; i < 99; i++) { // 99 short young pauses of 10 ms CPU
            lines.add("[1.0s][info][gc] GC(" + i + ") Pause Young (Normal) (G1 Evacuation Pause) 9M->8M(99M) 5.0ms");
            lines.add("[1.0s][info][gc,cpu] GC(" + i + ") User=0.01s Sys=0.00s Real=0.01s");
        }
        lines.add("[9.0s][info][gc] GC(99) Pause Young (Normal) (G1 Evacuation Pause) 90M->80M(99M) 580.0ms");
        lines.add("[9.0s][info][gc,cpu] GC(99) User=0.20s Sys=0.01s Real=0.58s");
        lines.add("[9.5s][info][gc] GC(100) Pause Remark 90M->90M(99M) 3.0ms"); // a concurrent cycle: two pauses
        lines.add("[9.6s][info][gc] GC(100) Pause Cleanup 90M->90M(99M) 1.0ms");
        lines.add("[9.6s][info][gc,cpu] GC(100) User=0.90s Sys=0.00s Real=2.00s");

        GcPauses pauses = GcPauses.of(lines);

        assertThat(pauses.pauses()).isEqualTo(102);
        assertThat(pauses.maxMillis()).isEqualTo(580.0);
        assertThat(pauses.p99Millis()).isEqualTo(5.0);
        assertThat(pauses.maxCpuMillis()).isEqualTo(210.0, org.assertj.core.data.Offset.offset(1e-9));
    }

    @Test
    void counts_the_pauses_of_zgc_but_not_its_concurrent_phases() {
        GcPauses pauses = GcPauses.of(List.of(
                "[1.100s][info][gc,phases] GC(3) Pause Mark Start 0.012ms",
                "[1.180s][info][gc,phases] GC(3) Concurrent Mark 80.410ms",
                "[1.181s][info][gc,phases] GC(3) Pause Mark End 0.031ms",
                "[1.300s][info][gc       ] GC(3) Garbage Collection (Allocation Rate) 900M(30%)->400M(13%)"));

        assertThat(pauses.pauses()).isEqualTo(2);
        assertThat(pauses.maxMillis()).isEqualTo(0.031);
    }

    @Test
    void a_log_without_pauses_has_none() {
        assertThat(GcPauses.of(List.of("[0.007s][info][gc] Using G1"))).isEqualTo(new GcPauses(0, 0, 0, 0, -1));
    }
}
