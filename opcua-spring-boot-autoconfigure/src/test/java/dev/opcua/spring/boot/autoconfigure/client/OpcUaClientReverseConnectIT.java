package dev.opcua.spring.boot.autoconfigure.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.autoconfigure.actuate.OpcUaClientHealthAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.actuate.OpcUaClientMetricsAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.actuate.OpcUaServerMetricsAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Reverse connect (Part 6, 7.1.3) between two applications on the starter: a server context with
 * {@code opcua.server.reverse-connect.clients} dials a client context whose connection has
 * {@code reverse-connect.listen-port}; the client opens its session over the server's connection, or refuses a
 * server it does not expect, and both ends count what happened in their meters.
 */
@ExtendWith(OutputCaptureExtension.class)
class OpcUaClientReverseConnectIT {

    private static final String PLC = "opcua.client.connections.plc.";
    private static final String SERVER_URI = "urn:test:reverse:plc";
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static final AutoConfigurations METRICS = AutoConfigurations.of(MetricsAutoConfiguration.class,
            SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class);

    private final int listenPort = freePort();
    private final int serverPort = freePort();

    private final ApplicationContextRunner serverContext = new ApplicationContextRunner()
            .withConfiguration(METRICS)
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaServerMetricsAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=" + serverPort, "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.hostnames=127.0.0.1", "opcua.server.application-uri=" + SERVER_URI,
                    "opcua.server.reverse-connect.clients=opc.tcp://127.0.0.1:" + listenPort,
                    "opcua.server.reverse-connect.retry-interval=200ms");

    /** The client dials nothing: its endpoint URL is the one the server's ReverseHello names. */
    private final ApplicationContextRunner clientContext = new ApplicationContextRunner()
            .withConfiguration(METRICS)
            .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class,
                    OpcUaClientMetricsAutoConfiguration.class, OpcUaClientHealthAutoConfiguration.class))
            .withPropertyValues(PLC + "endpoint-url=opc.tcp://127.0.0.1:" + serverPort + "/",
                    PLC + "reverse-connect.listen-port=" + listenPort,
                    PLC + "reverse-connect.listen-address=127.0.0.1");

    OpcUaClientReverseConnectIT() throws IOException {
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void the_server_dials_the_clients_listen_port_and_the_client_reads_through_its_session() {
        clientContext.withPropertyValues(PLC + "reverse-connect.server-uri=" + SERVER_URI).run(client -> {
            assertThat(client).hasNotFailed();
            OpcUaClient plc = client.getBean(OpcUaClient.class);
            assertThat(plc.state()).as("waits for the server; nothing dialled it yet").isNotEqualTo(
                    ClientState.CONNECTED);
            serverContext.run(server -> {
                assertThat(server).hasNotFailed();
                await().atMost(WAIT).until(() -> plc.state() == ClientState.CONNECTED);
                DataValue state = plc.readValue(NodeId.ns0(NodeIds.Server_ServerStatus_State))
                        .get(WAIT.toSeconds(), TimeUnit.SECONDS);
                assertThat(state.value().value()).as("ServerState Running").isEqualTo(0);

                MeterRegistry clientMeters = client.getBean(MeterRegistry.class);
                // two connections: GetEndpoints' channel, then the session's (Part 4, 5.4.4; Part 6, 7.1.3)
                assertThat(outcome(clientMeters, "opcua.client.reverse.connections", "accepted")).isEqualTo(2);
                assertThat(outcome(clientMeters, "opcua.client.reverse.connections", "refused")).isZero();
                assertThat(clientMeters.get("opcua.client.reverse.connections").tag("port",
                        Integer.toString(listenPort)).functionCounters()).hasSize(4);
                MeterRegistry serverMeters = server.getBean(MeterRegistry.class);
                assertThat(outcome(serverMeters, "opcua.server.reverse.connections", "taken")).isEqualTo(2);
                assertThat(serverMeters.get("opcua.server.reverse.attempts").functionCounter().count())
                        .isGreaterThanOrEqualTo(2);
                // the two taken are replaced by one that waits, held by the listener until the next reconnect
                await().atMost(WAIT).untilAsserted(() -> assertThat(clientMeters
                        .get("opcua.client.reverse.connections.held").gauge().value()).isEqualTo(1));

                Health health = health(client, "plc");
                assertThat(health.getStatus()).isEqualTo(Status.UP);
                assertThat(reverseConnectDetails(health)).containsEntry("listenPort", listenPort)
                        .containsEntry("serverUri", SERVER_URI).containsEntry("accepted", 2L);
            });
        });
    }

    @Test
    void a_server_of_another_uri_is_refused_and_the_client_stays_unconnected_saying_why(CapturedOutput output) {
        clientContext.withPropertyValues(PLC + "reverse-connect.server-uri=urn:test:reverse:another-plc").run(
                client -> serverContext.run(server -> {
                    MeterRegistry clientMeters = client.getBean(MeterRegistry.class);
                    await().atMost(WAIT).until(() -> outcome(clientMeters, "opcua.client.reverse.connections",
                            "refused") > 0);
                    OpcUaClient plc = client.getBean(OpcUaClient.class);
                    assertThat(plc.state()).isNotEqualTo(ClientState.CONNECTED);
                    assertThat(outcome(clientMeters, "opcua.client.reverse.connections", "accepted")).isZero();
                    assertThat(output).contains("the server " + SERVER_URI + " with endpoint opc.tcp://127.0.0.1:"
                            + serverPort + "/ is not expected by this client");

                    Health health = health(client, "plc");
                    assertThat(health.getStatus()).isEqualTo(Status.DOWN);
                    Map<String, Object> reverse = reverseConnectDetails(health);
                    assertThat(reverse).containsEntry("serverUri", "urn:test:reverse:another-plc")
                            .containsEntry("accepted", 0L);
                    assertThat((Long) reverse.get("refused")).isPositive();
                    // the server sees its connections closed unused and keeps dialling
                    await().atMost(WAIT).until(() -> outcome(server.getBean(MeterRegistry.class),
                            "opcua.server.reverse.connections", "closed_unused") > 0);
                }));
    }

    private static double outcome(MeterRegistry registry, String name, String outcome) {
        return registry.get(name).tag("outcome", outcome).functionCounter().count();
    }

    private static Health health(org.springframework.context.ApplicationContext context, String connection) {
        CompositeHealthContributor clients = context.getBean("opcuaClientsHealthContributor",
                CompositeHealthContributor.class);
        return ((HealthIndicator) clients.getContributor(connection)).health();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> reverseConnectDetails(Health health) {
        return (Map<String, Object>) health.getDetails().get("reverseConnect");
    }
}
