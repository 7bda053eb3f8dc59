package dev.opcua.spring.boot.actuate.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The meters of a client connection to a real server, and of the Publish requests it sends. */
class OpcUaClientMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final OpcUaClientPublishLatency publishLatency = new OpcUaClientPublishLatency(registry);
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
    void the_state_is_numbered_so_that_only_CONNECTED_is_3() {
        assertThat(OpcUaClientMetrics.stateValue(ClientState.DISCONNECTED)).isZero();
        assertThat(OpcUaClientMetrics.stateValue(ClientState.CONNECTING)).isEqualTo(1);
        assertThat(OpcUaClientMetrics.stateValue(ClientState.RECONNECTING)).isEqualTo(2);
        assertThat(OpcUaClientMetrics.stateValue(ClientState.CONNECTED)).isEqualTo(3);
    }

    @Test
    void reads_the_state_subscriptions_items_notifications_and_the_publish_latency_of_the_client()
            throws Exception {
        InMemoryNodeManager plant = TestServers.plant();
        server = TestServers.started(plant, b -> { });
        client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                .requestObserver(publishLatency.create("plant"))
                .build());
        OpcUaClientMetrics metrics = new OpcUaClientMetrics("plant", client, Tags.of("site", "1"));
        metrics.bindTo(registry);
        assertThat(registry.get("opcua.client.session.state").tags("connection", "plant", "site", "1").gauge()
                .value()).isZero();

        client.connect().get(10, TimeUnit.SECONDS);
        ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(50))
                .get(10, TimeUnit.SECONDS);
        subscription.createDataItem(DataItemRequest.of(plant.nodeId("Speed"), 20, (item, value) -> { }))
                .get(10, TimeUnit.SECONDS);
        TestServers.waitUntil(() -> registry.get("opcua.client.notifications.received").functionCounter()
                .count() > 0);
        TestServers.waitUntil(() -> registry.get("opcua.client.publish.latency").timer().count() > 0);

        assertThat(registry.get("opcua.client.session.state").gauge().value()).isEqualTo(3);
        assertThat(registry.get("opcua.client.subscriptions").gauge().value()).isEqualTo(1);
        assertThat(registry.get("opcua.client.monitored.items").gauge().value()).isEqualTo(1);
        assertThat(registry.get("opcua.client.reconnects").functionCounter().count()).isZero();
        assertThat(registry.get("opcua.client.notifications.dropped").functionCounter().count()).isZero();
        assertThat(registry.get("opcua.client.publish.held.back").functionCounter().count()).isZero();
        assertThat(registry.get("opcua.client.publish.held.back.long").functionCounter().count()).isZero();
        assertThat(registry.get("opcua.client.listener.errors").functionCounter().count()).isZero();
        assertThat(registry.get("opcua.client.publish.latency").tag("connection", "plant").timer()
                .totalTime(TimeUnit.NANOSECONDS)).isPositive();
        assertThat(registry.get("opcua.client.subscriptions").gauge().getId().getDescription()).isNotBlank();

        metrics.close();
        publishLatency.close();
        assertThat(registry.getMeters()).isEmpty();
    }

    @Test
    void listener_errors_add_those_the_client_counts_and_those_of_annotated_listeners() {
        client = OpcUaClient.create("opc.tcp://localhost:4840/");
        long[] annotated = {0};
        OpcUaClientMetrics metrics = new OpcUaClientMetrics("plant", client, Tags.empty(), () -> annotated[0]);
        metrics.bindTo(registry);
        assertThat(registry.get("opcua.client.listener.errors").functionCounter().count()).isZero();

        annotated[0] = 3;

        assertThat(registry.get("opcua.client.listener.errors").tag("connection", "plant").functionCounter().count())
                .isEqualTo(3);
        metrics.close();
    }

    @Test
    void only_publish_requests_answered_Good_are_timed() {
        var observer = publishLatency.create("plant");

        assertThat(observer.started("Read")).isNull();
        observer.started("Publish").finished(0x800A0000L, new RuntimeException("BadTimeout"));
        observer.started("Publish").finished(0, null);

        assertThat(registry.get("opcua.client.publish.latency").timer().count()).isEqualTo(1);
    }
}
