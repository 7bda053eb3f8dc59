package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.MonitoringParameters;
import org.junit.jupiter.api.Test;

class ItemRequestsTest {

    private static final NodeId NODE = NodeId.string(2, "Var.0");

    @Test
    void an_item_from_int_intervals_samples_at_the_sampling_interval_with_a_queue_for_one_publishing_interval() {
        int publishingMs = 1000;
        int samplingMs = 500;

        MonitoringParameters p = ItemRequests.dataChange(NODE, 7, publishingMs, samplingMs).requestedParameters();

        assertThat(p.clientHandle()).isEqualTo(7);
        assertThat(p.samplingInterval()).isEqualTo(500.0);
        assertThat(p.queueSize()).as("two samples per interval and one more").isEqualTo(3);
        assertThat(p.discardOldest()).isTrue();
    }

    @Test
    void an_item_with_its_queue_size_given_keeps_that_size() {
        MonitoringParameters p = ItemRequests.dataChangeQueued(NODE, 1, 1000, 1).requestedParameters();

        assertThat(p.samplingInterval()).isEqualTo(1000.0);
        assertThat(p.queueSize()).isEqualTo(1);
    }

    @Test
    void the_queue_holds_every_sample_of_a_publishing_interval_and_one_more_at_most_a_hundred() {
        assertThat(ItemRequests.queueSize(1000, 1000)).isEqualTo(2);
        assertThat(ItemRequests.queueSize(100, 0)).as("0 counted as 10 ms").isEqualTo(11);
        assertThat(ItemRequests.queueSize(60_000, 10)).isEqualTo(100);
    }
}
