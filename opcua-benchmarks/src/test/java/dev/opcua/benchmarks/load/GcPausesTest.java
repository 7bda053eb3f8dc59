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
    }

    @Test
    void a_log_without_pauses_has_none() {
        assertThat(GcPauses.of(List.of("[0.007s][info][gc] Using G1"))).isEqualTo(new GcPauses(0, 0, 0));
    }
}
