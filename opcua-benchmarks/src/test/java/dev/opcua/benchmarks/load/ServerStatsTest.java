package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ServerStatsTest {

    @Test
    void parses_the_probe_answer() {
        ServerStats stats = ServerStats.parse("STATS cpu_ns=123456789 alloc_bytes=987654321");

        assertThat(stats.cpuNanos()).isEqualTo(123_456_789L);
        assertThat(stats.allocatedBytes()).isEqualTo(987_654_321L);
    }

    @Test
    void parses_the_jit_time_when_the_probe_tells_it() {
        ServerStats start = ServerStats.parse("STATS cpu_ns=1 alloc_bytes=2 jit_ms=300");
        ServerStats end = ServerStats.parse("STATS cpu_ns=5 alloc_bytes=6 jit_ms=420");

        assertThat(start.jitMillis()).isEqualTo(300);
        assertThat(ServerStats.jitMillisBetween(start, end)).isEqualTo(120);
        assertThat(ServerStats.jitMillisBetween(new ServerStats(1, 2), end)).isEqualTo(-1);
        assertThat(ServerStats.jitMillisBetween(start, null)).isEqualTo(-1);
    }

    @Test
    void parses_the_simulated_count_when_the_probe_tells_it() {
        assertThat(ServerStats.parse("STATS cpu_ns=1 alloc_bytes=2 jit_ms=3 simulated=40000").simulatedValues())
                .isEqualTo(40_000);
        assertThat(ServerStats.parse("STATS cpu_ns=1 alloc_bytes=2 jit_ms=3 simulated=-1").simulatedValues())
                .isEqualTo(-1);
        assertThat(ServerStats.parse("STATS cpu_ns=1 alloc_bytes=2").simulatedValues()).as("an older probe")
                .isEqualTo(-1);
    }

    @Test
    void parses_the_rejected_count_when_the_probe_tells_it() {
        assertThat(ServerStats.parse("STATS cpu_ns=1 alloc_bytes=2 simulated=-1 rejected=1234").rejectedRequests())
                .isEqualTo(1234);
        assertThat(ServerStats.parse("STATS cpu_ns=1 alloc_bytes=2").rejectedRequests()).as("an older probe or Milo")
                .isEqualTo(-1);
    }

    @Test
    void takes_an_allocation_the_server_says_it_cannot_count() {
        ServerStats stats = ServerStats.parse("STATS cpu_ns=1 alloc_bytes=-1 simulated=5 rejected=-1");

        assertThat(stats.allocatedBytes()).isEqualTo(-1);
        assertThat(stats.simulatedValues()).isEqualTo(5);
        assertThatThrownBy(() -> ServerStats.parse("STATS cpu_ns=1 alloc_bytes=-2"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void ignores_unknown_fields_and_order() {
        ServerStats stats = ServerStats.parse("STATS alloc_bytes=5 extra=x cpu_ns=7");

        assertThat(stats).isEqualTo(new ServerStats(7, 5));
    }

    @Test
    void rejects_incomplete_or_malformed_lines() {
        assertThatThrownBy(() -> ServerStats.parse("STATS cpu_ns=1")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ServerStats.parse("STATS cpu_ns=x alloc_bytes=1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ServerStats.parse("READY opc.tcp://h:1/"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
