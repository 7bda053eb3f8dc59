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
