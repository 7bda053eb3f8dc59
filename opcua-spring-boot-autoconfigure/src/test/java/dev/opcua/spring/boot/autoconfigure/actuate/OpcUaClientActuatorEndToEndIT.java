package dev.opcua.spring.boot.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.OpcUaServerDescriptor;
import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.observation.OpcUaClientObservationAutoConfiguration;
import dev.opcua.spring.boot.client.OpcUaClientSnapshot;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.jackson.JacksonEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.jackson.EndpointJsonMapper;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.contributor.HealthContributorAutoConfiguration;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The client's Actuator support end to end: an {@code OpcUaClient} bean from
 * {@code opcua.client.connections.test.*} against our own server on a free port, with Spring Boot's
 * metrics, observations, health and the {@code opcua} endpoint; then the server stops and comes back on
 * the same port.
 */
class OpcUaClientActuatorEndToEndIT {

    private OpcUaServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    private ApplicationContextRunner contextRunner(String endpointUrl) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class,
                        MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
                        CompositeMeterRegistryAutoConfiguration.class, HealthContributorAutoConfiguration.class,
                        HealthContributorRegistryAutoConfiguration.class, JacksonEndpointAutoConfiguration.class,
                        OpcUaClientAutoConfiguration.class, OpcUaClientObservationAutoConfiguration.class,
                        OpcUaClientMetricsAutoConfiguration.class, OpcUaClientHealthAutoConfiguration.class,
                        OpcUaEndpointAutoConfiguration.class))
                .withPropertyValues("management.endpoints.web.exposure.include=opcua",
                        "opcua.client.connections.test.endpoint-url=" + endpointUrl,
                        "opcua.client.connections.test.fail-fast=true",
                        "opcua.client.connections.test.reconnect.initial-delay=100ms",
                        "opcua.client.connections.test.reconnect.max-delay=300ms");
    }

    private static Health health(AssertableApplicationContext context) {
        CompositeHealthContributor clients = (CompositeHealthContributor) context
                .getBean(HealthContributorRegistry.class).getContributor("opcuaClients");
        return ((HealthIndicator) clients.getContributor("test")).health();
    }

    private static double requests(MeterRegistry registry, String service, String status) {
        Timer timer = registry.find("opcua.client.requests")
                .tags("connection", "test", "service", service, "status", status).timer();
        return timer == null ? 0 : timer.count();
    }

    @Test
    void health_meters_observations_and_the_endpoint_follow_the_connection_through_a_server_restart() {
        InMemoryNodeManager plant = TestServers.plant();
        server = TestServers.started(plant, b -> { });
        int port = server.port();
        contextRunner(server.endpointUrl()).run(context -> {
            OpcUaClient client = context.getBean(OpcUaClient.class);
            MeterRegistry registry = context.getBean(MeterRegistry.class);

            // connected: UP with endpoint, security and session
            Health up = health(context);
            assertThat(up.getStatus()).isEqualTo(Status.UP);
            assertThat(up.getDetails()).containsEntry("state", "CONNECTED")
                    .containsEntry("endpointUrl", server.endpointUrl())
                    .containsEntry("securityPolicy", "None").containsEntry("securityMode", "None")
                    .containsEntry("sessionId", client.session().sessionId().toString());

            // Reads are timed by connection, service and status
            double goodReads = requests(registry, "Read", "Good");
            for (int i = 0; i < 3; i++) {
                client.readValue(plant.nodeId("Speed")).get(10, TimeUnit.SECONDS);
            }
            // the observation stops after the caller's future completes: wait for it, bounded
            TestServers.waitUntil(() -> requests(registry, "Read", "Good") >= goodReads + 3);

            // a missing node is an operation result: the Read service itself is Good
            double beforeMissing = requests(registry, "Read", "Good");
            DataValue missing = client.readValue(
                    NodeId.string(plant.nodeId("Speed").namespaceIndex(), "NoSuchNode")).get(10, TimeUnit.SECONDS);
            assertThat(missing.statusCode().value()).isEqualTo(StatusCodes.BadNodeIdUnknown);
            TestServers.waitUntil(() -> requests(registry, "Read", "Good") >= beforeMissing + 1);
            assertThat(registry.find("opcua.client.requests").tag("status", "BadNodeIdUnknown").timer()).isNull();
            // a service-level failure (ServiceFault) is timed under its status
            assertThat(client.read(-1, TimestampsToReturn.Both, List.of(new ReadValueId(plant.nodeId("Speed"),
                    AttributeIds.Value, null, QualifiedName.NULL)))).failsWithin(10, TimeUnit.SECONDS);
            TestServers.waitUntil(() -> requests(registry, "Read", "BadMaxAgeInvalid") == 1);
            assertThat(registry.get("opcua.client.requests").tags("status", "BadMaxAgeInvalid", "outcome", "FAILURE")
                    .timer().count()).isEqualTo(1);

            // /actuator/opcua lists the connection, and only it: there is no server in this application
            OpcUaServerDescriptor descriptor = context.getBean(OpcUaEndpoint.class).opcua();
            assertThat(descriptor.server()).isNull();
            OpcUaClientSnapshot connection = descriptor.clients().get("test");
            assertThat(connection.state()).isEqualTo("CONNECTED");
            assertThat(connection.endpointUrl()).isEqualTo(server.endpointUrl());
            assertThat(connection.sessionId()).isEqualTo(client.session().sessionId().toString());
            @SuppressWarnings("unchecked")
            Map<String, Object> json = context.getBean(EndpointJsonMapper.class).get()
                    .convertValue(descriptor, Map.class);
            assertThat(json).containsOnlyKeys("clients");
            assertThat(registry.get("opcua.client.session.state").tag("connection", "test").gauge().value())
                    .isEqualTo(3);

            // the server stops: DOWN with the state and the error
            server.close();
            TestServers.waitUntil(() -> health(context).getStatus().equals(Status.DOWN));
            Health down = health(context);
            assertThat(down.getDetails().get("state")).isIn("RECONNECTING", "CONNECTING");
            assertThat((String) down.getDetails().get("lastError")).isNotBlank();
            assertThat(registry.get("opcua.client.session.state").gauge().value()).isLessThan(3);
            assertThat(context.getBean(OpcUaEndpoint.class).opcua().clients().get("test").lastError())
                    .isNotBlank();

            // back on the same port: UP again, and the reconnect is counted
            server = TestServers.started(TestServers.plant(), b -> b.port(port));
            TestServers.waitUntil(() -> health(context).getStatus().equals(Status.UP));
            assertThat(registry.get("opcua.client.reconnects").tag("connection", "test").functionCounter().count())
                    .isGreaterThanOrEqualTo(1);
            assertThat(registry.get("opcua.client.session.state").gauge().value()).isEqualTo(3);
            client.readValue(plant.nodeId("Speed")).get(10, TimeUnit.SECONDS);
        });
    }
}
