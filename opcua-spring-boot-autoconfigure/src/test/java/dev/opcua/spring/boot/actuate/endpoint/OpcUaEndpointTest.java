package dev.opcua.spring.boot.actuate.endpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.OpcUaServerDescriptor;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.SessionDescriptor;
import dev.opcua.spring.boot.actuate.testing.TestClient;
import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What {@code /actuator/opcua} tells about a real server and a client's session on it. */
class OpcUaEndpointTest {

    private OpcUaServer server;

    @AfterEach
    void closeServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void lists_the_server_its_endpoint_the_clients_session_the_request_queue_and_the_subscriptions()
            throws Exception {
        InMemoryNodeManager plant = TestServers.plant();
        server = TestServers.started(plant, b -> b.requestPool(new RequestPoolSettings(2, 4, 9, 3,
                Duration.ofSeconds(30), Duration.ofMinutes(1), false, Duration.ofSeconds(1))));
        Instant before = Instant.now();
        try (TestClient client = TestClient.connect(server)) {
            client.read(plant.nodeId("Speed"));
            // a request is counted once its response is sent: the client may have it a moment before
            TestServers.waitUntil(() -> server.statistics().requests().activeRequests() == 0);

            OpcUaServerDescriptor descriptor = new OpcUaEndpoint(new OpcUaServerEndpointSection(server)).opcua();

            assertThat(descriptor.server().applicationUri()).isEqualTo("urn:test:actuate:server");
            assertThat(descriptor.server().state()).isEqualTo("RUNNING");
            assertThat(descriptor.server().serverState()).isEqualTo("Running");
            assertThat(descriptor.server().startTime()).isBeforeOrEqualTo(before);
            assertThat(descriptor.endpoints()).singleElement().satisfies(endpoint -> {
                assertThat(endpoint.url()).isEqualTo(server.endpointUrl());
                assertThat(endpoint.securityPolicy()).isEqualTo("None");
                assertThat(endpoint.securityMode()).isEqualTo("None");
            });
            assertThat(descriptor.sessions()).singleElement().satisfies(session -> {
                assertThat(session.name()).isEqualTo(TestClient.SESSION_NAME);
                assertThat(session.clientApplicationName()).isEqualTo(TestClient.APPLICATION_NAME);
                assertThat(session.clientApplicationUri()).isEqualTo(TestClient.APPLICATION_URI);
                assertThat(session.sessionId()).isEqualTo(client.session().sessionId().toString());
                assertThat(session.securityPolicy()).isEqualTo("None");
                assertThat(session.securityMode()).isEqualTo("None");
                assertThat(session.activated()).isTrue();
                assertThat(session.identityType()).isEqualTo("Anonymous");
                assertThat(session.userName()).isNull();
                assertThat(session.createdAt()).isAfterOrEqualTo(before.minusSeconds(1));
                assertThat(session.age()).isGreaterThanOrEqualTo(Duration.ZERO);
                assertThat(session.lastRequestAt()).isAfterOrEqualTo(session.createdAt());
                assertThat(session.secureChannelId()).isEqualTo(client.channel().secureChannelId());
            });
            assertThat(descriptor.requests().capacity()).isEqualTo(9);
            assertThat(descriptor.requests().priorityCapacity()).isEqualTo(3);
            assertThat(descriptor.requests().admitted()).isGreaterThanOrEqualTo(3);
            assertThat(descriptor.requests().inline()).as("the plant's Slow supplier may block").isZero();
            assertThat(descriptor.requests().rejected())
                    .containsOnlyKeys("TOO_BUSY", "TOO_OLD", "TIMEOUT", "HALTED")
                    .allSatisfy((reason, count) -> assertThat(count).isZero());
            assertThat(descriptor.requests().queueWait().count()).isGreaterThanOrEqualTo(3);
            assertThat(descriptor.requests().queueWait().max()).isGreaterThanOrEqualTo(
                    descriptor.requests().queueWait().mean());
            assertThat(descriptor.requests().services()).containsKeys("CreateSession", "ActivateSession", "Read")
                    .doesNotContainKey("ReadRequest");
            assertThat(descriptor.requests().services().get("Read")).satisfies(read -> {
                assertThat(read.count()).isEqualTo(1);
                assertThat(read.faults()).isZero();
                assertThat(read.max()).isGreaterThanOrEqualTo(read.mean()).isPositive();
            });
            assertThat(descriptor.server().certificate()).as("SecurityPolicy None only: no certificate").isNull();
            assertThat(descriptor.subscriptions().subscriptions()).isZero();
            assertThat(descriptor.subscriptions().monitoredItems()).isZero();
        }
    }

    @Test
    void a_session_closed_by_its_client_is_no_longer_listed() throws Exception {
        server = TestServers.started(TestServers.plant(), b -> { });
        try (TestClient client = TestClient.connect(server)) {
            assertThat(new OpcUaEndpoint(new OpcUaServerEndpointSection(server)).opcua().sessions())
                    .extracting(SessionDescriptor::name).containsExactly(TestClient.SESSION_NAME);
        }
        assertThat(new OpcUaEndpoint(new OpcUaServerEndpointSection(server)).opcua().sessions()).isEmpty();
    }

    @Test
    void a_server_not_yet_started_has_no_endpoints_sessions_or_statistics() {
        server = TestServers.builder(TestServers.plant()).build();

        OpcUaServerDescriptor descriptor = new OpcUaEndpoint(new OpcUaServerEndpointSection(server)).opcua();

        assertThat(descriptor.server().state()).isEqualTo("NOT_STARTED");
        assertThat(descriptor.endpoints()).isEmpty();
        assertThat(descriptor.sessions()).isEmpty();
        assertThat(descriptor.requests()).isNull();
        assertThat(descriptor.subscriptions()).isNull();
    }
}
