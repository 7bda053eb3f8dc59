package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class LatencyHistogramTest {

    @Test
    void the_histogram_keeps_quantiles_within_two_percent() {
        LatencyHistogram h = new LatencyHistogram();
        for (long v = 1; v <= 100_000; v++) {
            h.record(v * 1000);
        }
        assertThat(h.quantile(0.5)).isBetween(49_000_000L, 51_000_000L);
        assertThat(h.quantile(0.99)).isBetween(98_000_000L, 100_000_000L);
        assertThat(h.max()).isEqualTo(100_000_000L);
        assertThat(h.count()).isEqualTo(100_000);
    }
}
