package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.server.BenchOptions;
import dev.opcua.benchmarks.server.MiloBenchServer;
import dev.opcua.benchmarks.server.RunningBenchServer;
import org.junit.jupiter.api.Test;

class MiloSubScenarioIT {

    /**
     * Sampling at half the write period: Milo schedules each sample after the previous one, and on a
     * shared machine two writes of a variable then fall into one sampling interval often enough to fail
     * a 0.9 delivery ratio over one second. This test checks the harness against Milo, not Milo's
     * sampling; the equal-interval case is what the benchmark reports.
     */
    @Test
    void milos_server_delivers_the_written_values_to_every_subscriber() {
        try (RunningBenchServer server = MiloBenchServer.start(BenchOptions.DEFAULT.withPort(0).withNodes(100))) {
            SubScenarioRuns.assertDelivers(SubScenarioRuns.smoke(server.endpointUrl(), 50));
        }
    }
}
