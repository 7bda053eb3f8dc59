package dev.opcua.benchmarks.server;

import org.junit.jupiter.api.Test;

class BenchServerTest {

    @Test
    void serves_the_bench_address_space() throws Exception {
        try (RunningBenchServer server = BenchServer.start(AddressSpaceChecks.options())) {
            AddressSpaceChecks.readsWritesCallsAndBrowses(server);
        }
    }
}
