package dev.opcua.sample.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.NodeManager;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaServiceFaultException;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.client.RestClient;

/**
 * A flood of reads against the sample with a request queue of 2 and one worker
 * ({@code MaxQueuedRequestCount} 2, {@code MaxRequestThreadCount} 1): the server turns the excess
 * away with BadServerTooBusy, {@code opcua.server.requests.rejected} grows, and health stays UP.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = {
    "opcua.server.port=0", "opcua.server.shutdown-delay=0s",
    "opcua.server.requests.max-queued=2", "opcua.server.requests.min-threads=1", "opcua.server.requests.max-threads=1"})
class SamplePlantFloodIT {

    static final String SLOW_NAMESPACE = "urn:test:slow";

    @TempDir
    static Path pki;

    @DynamicPropertySource
    static void pkiDirectory(DynamicPropertyRegistry registry) {
        registry.add("opcua.server.security.pki-dir", () -> pki.toString());
    }

    /** A variable that takes 20 ms to read, so that one worker cannot keep up with the flood. */
    @TestConfiguration(proxyBeanMethods = false)
    static class SlowNodes {
        @Bean
        NodeManager slowNodeManager() {
            return InMemoryNodeManager.builder(SLOW_NAMESPACE)
                    .variable("Slow", BuiltinType.Int32, v -> v.valueSupplier(() -> {
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                        return Variant.ofInt32(42);
                    }))
                    .build();
        }
    }

    @Autowired
    OpcUaServer server;

    @Autowired
    MeterRegistry meters;

    @LocalServerPort
    int httpPort;

    private double rejected() {
        return meters.find("opcua.server.requests.rejected").functionCounters().stream()
                .mapToDouble(FunctionCounter::count).sum();
    }

    @Test
    @SuppressWarnings("unchecked")
    void a_flood_is_turned_away_with_server_too_busy_counted_and_health_stays_up() throws Exception {
        OpcUaClient client = MiloTestClients.overNone(server.endpointUrl(), new AnonymousProvider(), 10_000);
        try {
            double before = rejected();
            NodeId slow = new NodeId(client.getNamespaceTable().getIndex(SLOW_NAMESPACE).intValue(), "Slow");
            List<CompletableFuture<List<DataValue>>> flood = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                flood.add(client.readValuesAsync(0, TimestampsToReturn.Both, List.of(slow)));
            }
            int good = 0;
            int busy = 0;
            for (CompletableFuture<List<DataValue>> read : flood) {
                try {
                    if (read.get(20, TimeUnit.SECONDS).get(0).getStatusCode().isGood()) {
                        good++;
                    }
                } catch (java.util.concurrent.ExecutionException e) {
                    assertThat(e.getCause()).isInstanceOf(UaServiceFaultException.class);
                    assertThat(((UaServiceFaultException) e.getCause()).getStatusCode().getValue())
                            .isEqualTo(StatusCodes.Bad_ServerTooBusy);
                    busy++;
                }
            }
            assertThat(good).as("reads that got a worker or a queue slot").isPositive();
            assertThat(busy).as("reads turned away").isPositive();
            assertThat(rejected() - before).as("opcua.server.requests.rejected growth").isGreaterThanOrEqualTo(busy);

            Map<String, Object> health = RestClient.create("http://localhost:" + httpPort).get()
                    .uri("/actuator/health").retrieve().body(Map.class);
            assertThat(health).containsEntry("status", "UP");
        } finally {
            client.disconnect();
        }
    }
}
