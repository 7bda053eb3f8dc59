package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.server.BenchOptions;
import dev.opcua.benchmarks.server.BenchServer;
import dev.opcua.benchmarks.server.RunningBenchServer;
import org.junit.jupiter.api.Test;

class SubScenarioIT {

    @Test
    void our_server_delivers_the_written_values_to_every_subscriber() {
        try (RunningBenchServer server = BenchServer.start(BenchOptions.DEFAULT.withPort(0).withNodes(100))) {
            SubScenarioRuns.assertDelivers(SubScenarioRuns.smoke(server.endpointUrl(), 100));
        }
    }

    @Test
    void our_server_delivers_the_values_it_changes_itself() {
        try (RunningBenchServer server = BenchServer.start(BenchOptions.parse("--port", "0", "--nodes", "100",
                "--simulate", "20,200"))) {
            SubScenarioRuns.assertDelivers(SubScenarioRuns.serverChanges(server.endpointUrl()));
        }
    }
}
