package dev.opcua.stack.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.testing.MiloPeer;
import dev.opcua.stack.client.testing.MiloPeerServer;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.testing.FaultProxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An {@link OpcUaClient}'s subscription across real faults, through a {@link FaultProxy} in front of an
 * Eclipse Milo 1.1.2 server: Publish responses the server sent into a connection that then dropped
 * are fetched with Republish on the re-activated session, so every value arrives, once and in order
 * (Part 4, 5.13.6 and 6.7); after a server restart the subscription is re-created and delivers again.
 */
class OpcUaClientSubscriptionReconnectIT {

    @RegisterExtension
    static final MiloPeer PEER = MiloPeer.server();

    private FaultProxy proxy;
    private OpcUaClient client;

    @BeforeEach
    void connectThroughTheProxy() throws Exception {
        proxy = FaultProxy.start("127.0.0.1", PEER.milo().port());
        client = OpcUaClient.create(OpcUaClientConfig.builder(proxy.endpointUrl(MiloPeerServer.PATH))
                .applicationUri("urn:dev.opcua:test:subscription-reconnect").resources(PEER.clientResources())
                .requestTimeout(Duration.ofSeconds(5)).keepAliveInterval(Duration.ofMillis(300))
                .reconnectDelays(Duration.ofMillis(20), Duration.ofMillis(200)).build());
        client.connect().get(10, TimeUnit.SECONDS);
    }

    @AfterEach
    void closeClientAndProxy() {
        try {
            client.close();
        } finally {
            proxy.close();
        }
    }

    @Test
    void values_published_into_a_dropped_connection_are_republished_on_the_reactivated_session_in_order() throws Exception {
        List<Integer> received = Collections.synchronizedList(new ArrayList<>());
        NodeId int32 = NodeId.string(MiloPeerServer.NAMESPACE_INDEX, MiloPeerServer.INT32);
        PEER.milo().setValue(MiloPeerServer.INT32, 0);
        ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(100)
                .withCounts(600, 10)).get(10, TimeUnit.SECONDS);
        Set<String> listenerThreads = ConcurrentHashMap.newKeySet();
        subscription.createDataItem(DataItemRequest.of(int32, 50, (item, value) -> {
            listenerThreads.add(Thread.currentThread().getName().replaceAll("\\d+$", "N"));
            received.add((Integer) value.value().value());
        }).withQueue(100, true)).get(10, TimeUnit.SECONDS);
        awaitTrue(() -> received.contains(0));
        NodeId session = client.session().sessionId();

        proxy.stall(); // Milo's Publish responses from here on go into the void
        for (int v = 1; v <= 10; v++) {
            PEER.milo().setValue(MiloPeerServer.INT32, v);
            Thread.sleep(120); // the scenario: each value sampled (every 50 ms) and published (100 ms) before the next
        }
        proxy.dropAll(); // ... and are lost with the connection
        proxy.resume();
        awaitTrue(() -> client.state() == ClientState.CONNECTED && client.reconnects() == 1);
        for (int v = 11; v <= 12; v++) {
            PEER.milo().setValue(MiloPeerServer.INT32, v);
            Thread.sleep(120); // the scenario, as above
        }

        awaitTrue(() -> received.contains(12));
        assertThat(client.session().sessionId()).as("the same session, re-activated").isEqualTo(session);
        assertThat(received).containsExactlyElementsOf(IntStream.rangeClosed(0, 12).boxed().toList());
        assertThat(client.subscriptions().republished()).as("NotificationMessages fetched with Republish")
                .isPositive();
        assertThat(client.subscriptions().lostSequenceNumbers()).isZero();
        // listeners run where the Publish (and Republish) responses were read, by default the I/O threads
        assertThat(listenerThreads).containsExactly("opcua-client-io-N");
    }

    @Test
    void after_a_server_restart_the_subscription_is_recreated_and_delivers_again() throws Exception {
        List<Double> received = Collections.synchronizedList(new ArrayList<>());
        NodeId doubleNode = NodeId.string(MiloPeerServer.NAMESPACE_INDEX, MiloPeerServer.DOUBLE);
        PEER.milo().setValue(MiloPeerServer.DOUBLE, 1.0);
        ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(100))
                .get(10, TimeUnit.SECONDS);
        subscription.createDataItem(DataItemRequest.of(doubleNode, 50,
                (item, value) -> received.add((Double) value.value().value()))).get(10, TimeUnit.SECONDS);
        awaitTrue(() -> received.contains(1.0));

        PEER.milo().stop();
        try {
            awaitTrue(() -> client.state() == ClientState.RECONNECTING);
        } finally {
            PEER.milo().start();
        }
        awaitTrue(() -> client.state() == ClientState.CONNECTED);
        PEER.milo().setValue(MiloPeerServer.DOUBLE, 2.0);

        awaitTrue(() -> received.contains(2.0));
        assertThat(client.subscriptions().list()).containsExactly(subscription);
        assertThat(subscription.items()).hasSize(1);
    }

    private static void awaitTrue(Callable<Boolean> condition) {
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(10)).until(condition);
    }
}
