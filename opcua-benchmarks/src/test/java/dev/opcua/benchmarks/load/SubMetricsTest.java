package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SubMetricsTest {

    @Test
    void only_the_notifications_between_the_window_edges_count() {
        SubMetrics metrics = new SubMetrics();
        metrics.notifications(7); // warm-up
        assertThat(metrics.measuring()).isFalse();

        metrics.openWindow();
        assertThat(metrics.measuring()).isTrue();
        metrics.notifications(3);
        assertThat(metrics.notifications()).as("while open").isEqualTo(3);
        metrics.notifications(2);

        metrics.closeWindow(RequestChain.Phase.DRAIN);
        metrics.notifications(100); // late, after the window
        assertThat(metrics.measuring()).isFalse();
        assertThat(metrics.notifications()).isEqualTo(5);
    }
}
