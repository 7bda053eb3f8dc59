package dev.opcua.spring.boot.actuate.endpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.OpcUaServerDescriptor;
import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.spring.boot.client.OpcUaClientSnapshot;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What {@code /actuator/opcua} tells about the application's client connections, with and without a server. */
class OpcUaEndpointClientsTest {

    private OpcUaServer server;
    private OpcUaClient client;

    @AfterEach
    void close() {
        if (client != null) {
            client.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void lists_each_connection_with_its_state_security_session_subscriptions_and_counters() throws Exception {
        InMemoryNodeManager plant = TestServers.plant();
        server = TestServers.started(plant, b -> { });
        client = OpcUaClient.create(server.endpointUrl());
        client.connect().get(10, TimeUnit.SECONDS);
        ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(100))
                .get(10, TimeUnit.SECONDS);
        subscription.createDataItem(DataItemRequest.of(plant.nodeId("Speed"), 50, (item, value) -> { }))
                .get(10, TimeUnit.SECONDS);
        OpcUaClient idle = OpcUaClient.create("opc.tcp://127.0.0.1:4840/");
        Map<String, OpcUaClient> connections = new LinkedHashMap<>();
        connections.put("plant", client);
        connections.put("spare", idle);
        TestServers.waitUntil(() -> client.subscriptions().notificationsReceived() > 0);

        OpcUaServerDescriptor descriptor = new OpcUaEndpoint(
                new OpcUaClientsEndpointSection(new OpcUaClients(connections))).opcua();

        assertThat(descriptor.server()).isNull();
        assertThat(descriptor.endpoints()).isNull();
        assertThat(descriptor.sessions()).isNull();
        assertThat(descriptor.clients()).containsOnlyKeys("plant", "spare");
        OpcUaClientSnapshot plantConnection = descriptor.clients().get("plant");
        assertThat(plantConnection.endpointUrl()).isEqualTo(server.endpointUrl());
        assertThat(plantConnection.state()).isEqualTo("CONNECTED");
        assertThat(plantConnection.securityPolicy()).isEqualTo("None");
        assertThat(plantConnection.securityMode()).isEqualTo("None");
        assertThat(plantConnection.sessionId()).isEqualTo(client.session().sessionId().toString());
        assertThat(plantConnection.subscriptions()).isEqualTo(1);
        assertThat(plantConnection.monitoredItems()).isEqualTo(1);
        assertThat(plantConnection.reconnects()).isZero();
        assertThat(plantConnection.notificationsReceived()).isPositive();
        assertThat(plantConnection.notificationsDropped()).isZero();
        assertThat(plantConnection.publishHoldBacks()).isZero();
        assertThat(plantConnection.longPublishHoldBacks()).isZero();
        assertThat(plantConnection.listenerErrors()).isZero();
        assertThat(plantConnection.lastError()).isNull();
        OpcUaClientSnapshot spare = descriptor.clients().get("spare");
        assertThat(spare.state()).isEqualTo("DISCONNECTED");
        assertThat(spare.securityPolicy()).isNull();
        assertThat(spare.sessionId()).isNull();
    }

    @Test
    void with_a_server_and_clients_both_are_listed() {
        server = TestServers.started(TestServers.plant(), b -> { });
        client = OpcUaClient.create(server.endpointUrl());

        OpcUaServerDescriptor descriptor = new OpcUaEndpoint(new OpcUaServerEndpointSection(server),
                new OpcUaClientsEndpointSection(new OpcUaClients(Map.of("own", client)))).opcua();

        assertThat(descriptor.server().state()).isEqualTo("RUNNING");
        assertThat(descriptor.endpoints()).hasSize(1);
        assertThat(descriptor.clients()).containsOnlyKeys("own");
    }

    @Test
    void a_server_only_application_has_no_clients_part() {
        server = TestServers.started(TestServers.plant(), b -> { });

        assertThat(new OpcUaEndpoint(new OpcUaServerEndpointSection(server)).opcua().clients()).isNull();
        assertThat(new OpcUaEndpoint(new OpcUaServerEndpointSection(server),
                new OpcUaClientsEndpointSection(new OpcUaClients(Map.of()))).opcua().clients())
                .as("an empty registry (the client starter without connections) adds nothing").isNull();
    }

    @Test
    void needs_a_server_or_clients() {
        assertThatIllegalArgumentException().isThrownBy(() -> new OpcUaEndpoint(null, null))
                .withMessage("the opcua endpoint needs a server, clients or both");
    }
}
