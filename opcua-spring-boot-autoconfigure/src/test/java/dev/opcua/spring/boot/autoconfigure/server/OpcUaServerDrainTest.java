package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.server.OpcUaServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.availability.ApplicationAvailabilityAutoConfiguration;
import org.springframework.boot.availability.ApplicationAvailability;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.ApplicationListener;

/**
 * The drain when the context closes with {@code opcua.server.shutdown-delay} (Kubernetes sends SIGTERM):
 * readiness refuses traffic from the first moment, liveness stays correct, and a connected client reads
 * ServerState Shutdown and SecondsTillShutdown counting down until the server closes, and EstimatedReturnTime
 * from {@code opcua.server.expected-downtime}.
 */
class OpcUaServerDrainTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(ApplicationAvailabilityAutoConfiguration.class,
                    OpcUaServerAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.hostnames=127.0.0.1");

    @Test
    void readiness_refuses_traffic_while_the_server_counts_down_and_liveness_stays_correct() {
        List<ReadinessState> readiness = new CopyOnWriteArrayList<>();
        runner.withPropertyValues("opcua.server.shutdown-delay=3s", "opcua.server.expected-downtime=30s")
                .withBean(ApplicationListener.class, () -> (ApplicationListener<ApplicationEvent>) event -> {
                    if (event instanceof AvailabilityChangeEvent<?> change
                            && change.getState() instanceof ReadinessState state) {
                        readiness.add(state);
                    }
                }).run(context -> {
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    ApplicationAvailability availability = context.getBean(ApplicationAvailability.class);
                    // what Spring Boot publishes once the application is ready (a runner has no ApplicationReadyEvent)
                    AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
                    AvailabilityChangeEvent.publish(context, LivenessState.CORRECT);
                    try (OpcUaClient client = OpcUaClient.create(server.endpointUrl())) {
                        client.connect().get(10, TimeUnit.SECONDS);
                        assertThat(state(client)).isEqualTo(ServerState.Running.value());

                        CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close);
                        // bounded by the 3 s delay: the server must still be counting down after it
                        await().atMost(Duration.ofSeconds(2)).pollInterval(Duration.ofMillis(10))
                                .until(() -> availability.getReadinessState() == ReadinessState.REFUSING_TRAFFIC);
                        assertThat(availability.getLivenessState()).isEqualTo(LivenessState.CORRECT);
                        assertThat(server.isRunning()).as("still counting down").isTrue();
                        assertThat(state(client)).isEqualTo(ServerState.Shutdown.value());
                        assertThat(secondsTillShutdown(client)).isBetween(1L, 3L);
                        java.time.Instant returnAt = ((dev.opcua.stack.core.types.builtin.DateTime) client
                                .readValue(NodeId.ns0(NodeIds.Server_EstimatedReturnTime)).get(5, TimeUnit.SECONDS)
                                .value().value()).toInstant();
                        assertThat(returnAt).as("EstimatedReturnTime: the end of the countdown plus the downtime")
                                .isBetween(java.time.Instant.now().plusSeconds(30),
                                        java.time.Instant.now().plusSeconds(34));

                        closing.get(10, TimeUnit.SECONDS);
                        assertThat(server.isRunning()).isFalse();
                        assertThat(availability.getLivenessState()).isEqualTo(LivenessState.CORRECT);
                    }
                });
        assertThat(readiness).containsExactly(ReadinessState.ACCEPTING_TRAFFIC, ReadinessState.REFUSING_TRAFFIC);
    }

    @Test
    void without_a_delay_readiness_is_refused_before_the_server_closes() {
        List<Boolean> runningWhenRefused = new CopyOnWriteArrayList<>();
        OpcUaServer[] server = new OpcUaServer[1];
        runner.withPropertyValues("opcua.server.shutdown-delay=0s")
                .withBean(ApplicationListener.class, () -> (ApplicationListener<ApplicationEvent>) event -> {
                    if (event instanceof AvailabilityChangeEvent<?> change
                            && change.getState() == ReadinessState.REFUSING_TRAFFIC) {
                        runningWhenRefused.add(server[0].isRunning());
                    }
                }).run(context -> server[0] = context.getBean(OpcUaServer.class));
        assertThat(runningWhenRefused).containsExactly(true);
    }

    @Test
    void a_start_after_a_stop_accepts_traffic_again() {
        runner.withPropertyValues("opcua.server.shutdown-delay=0s").run(context -> {
            ApplicationAvailability availability = context.getBean(ApplicationAvailability.class);
            AvailabilityChangeEvent.publish(context, ReadinessState.ACCEPTING_TRAFFIC);
            context.stop();
            assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.REFUSING_TRAFFIC);
            context.start();
            assertThat(context.getBean(OpcUaServer.class).isRunning()).isTrue();
            assertThat(availability.getReadinessState()).isEqualTo(ReadinessState.ACCEPTING_TRAFFIC);
        });
    }

    private static int state(OpcUaClient client) throws Exception {
        Object value = client.readValue(NodeId.ns0(NodeIds.Server_ServerStatus_State)).get(5, TimeUnit.SECONDS)
                .value().value();
        return ((Number) value).intValue();
    }

    private static long secondsTillShutdown(OpcUaClient client) throws Exception {
        Object value = client.readValue(NodeId.ns0(NodeIds.Server_ServerStatus_SecondsTillShutdown))
                .get(5, TimeUnit.SECONDS).value().value();
        return ((Number) value).longValue();
    }
}
