package dev.opcua.benchmarks.server;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BenchServerTest {

    @Test
    void serves_the_bench_address_space() throws Exception {
        try (RunningBenchServer server = BenchServer.start(AddressSpaceChecks.options())) {
            AddressSpaceChecks.readsWritesCallsAndBrowses(server);
            assertThat(server.subscriptionStats()).as("its subscriptions' counts for the STATS answer")
                    .matches("queue_overflows=\\d+ late_cycles=\\d+ parked=\\d+");
        }
    }
}
