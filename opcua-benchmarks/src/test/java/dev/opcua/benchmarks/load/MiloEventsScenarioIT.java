package dev.opcua.benchmarks.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.benchmarks.server.BenchOptions;
import dev.opcua.benchmarks.server.MiloBenchServer;
import dev.opcua.benchmarks.server.RunningBenchServer;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MiloEventsScenarioIT {

    @Test
    void milos_server_delivers_every_emitted_event_to_every_event_item() {
        try (RunningBenchServer server = MiloBenchServer.start(BenchOptions.DEFAULT.withPort(0).withNodes(10))) {
            Map<String, String> result = SubScenarioRuns.events(server.endpointUrl());

            assertThat(Double.parseDouble(result.get("p50_us"))).isPositive();
        }
    }
}
