package dev.opcua.stack.history.jdbc.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.history.jdbc.TestPostgres;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore;
import dev.opcua.stack.server.subscriptions.durable.PushedCounter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A durable subscription (Part 4, 6.8) kept in PostgreSQL survives a server restart: the client's session closes,
 * the value changes 100 times, the server closes, a new server with a new store object on the same database
 * starts on the same port, and the client's reconnect transfers the subscription (same SubscriptionId): every
 * value once, in order.
 */
class JdbcDurableRestartIT {

    private static final int OUTAGE_CHANGES = 100;
    private static final Duration WAIT = Duration.ofSeconds(20);

    private static OpcUaServer server(int port, DurableSubscriptionStore store, PushedCounter counter) {
        OpcUaServer server = OpcUaServer.builder()
                .applicationUri("urn:test:durable:jdbc")
                .applicationName("durable subscriptions in PostgreSQL")
                .bindAddress("127.0.0.1").port(port).hostnames(List.of("localhost"))
                .security(List.of(EndpointSecurity.NONE))
                .subscriptionSettings(SubscriptionSettings.builder()
                        .minPublishingInterval(Duration.ofMillis(20)).maxDurableQueueSize(1_000).build())
                .durableSubscriptionStore(store)
                .nodeManager(counter)
                .build()
                .start();
        counter.start(server.namespaces().indexOf(PushedCounter.NS), server.dataChanges(), "Durable");
        return server;
    }

    @Test
    void a_durable_subscription_in_postgresql_outlives_a_server_restart_with_every_value_once_in_order()
            throws Exception {
        DataSource database = TestPostgres.dataSource();
        JdbcDurableSubscriptionStore firstStore = JdbcDurableSubscriptionStore.open(database, "restart_it");
        PushedCounter first = new PushedCounter();
        OpcUaServer server = server(0, firstStore, first);
        int port = server.port();
        OpcUaServer restarted = null;
        ClientResources resources = ClientResources.builder().ioThreads(1).build();
        OpcUaClient client = null;
        try {
            client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                    .applicationUri("urn:test:durable:jdbc:client").applicationName("durable jdbc client")
                    .resources(resources).requestTimeout(Duration.ofSeconds(5))
                    .keepAliveInterval(Duration.ofMillis(500))
                    .reconnectDelays(Duration.ofSeconds(1), Duration.ofSeconds(1)).build());
            client.connect().get(10, TimeUnit.SECONDS);
            List<Integer> values = Collections.synchronizedList(new ArrayList<>());
            ClientSubscription durable = client.createSubscription(SubscriptionParameters.ofInterval(50)
                    .durable(Duration.ofHours(1))).get(10, TimeUnit.SECONDS);
            durable.createDataItem(DataItemRequest.of(first.nodeId("Durable"), 0,
                    (item, value) -> values.add((Integer) value.value().value()))
                    .withQueue(OUTAGE_CHANGES * 2, true)).get(10, TimeUnit.SECONDS);
            for (int i = 1; i <= 10; i++) {
                first.set("Durable", i);
            }
            await().atMost(WAIT).until(() -> values.contains(10));
            long subscriptionId = durable.subscriptionId();
            NodeId firstSession = client.session().sessionId();

            client.request(h -> new CloseSessionRequest(h, true), CloseSessionResponse.class)
                    .handle((response, failure) -> response).get(10, TimeUnit.SECONDS);
            for (int i = 11; i <= 10 + OUTAGE_CHANGES; i++) {
                first.set("Durable", i);
            }
            server.close();
            firstStore.close();
            assertThat(rows(database)).as("the durable subscription is a row").isEqualTo(1);

            PushedCounter second = new PushedCounter();
            restarted = server(port, JdbcDurableSubscriptionStore.open(database, "restart_it"), second);
            OpcUaClient c = client;
            await().atMost(WAIT).until(() -> c.state() == ClientState.CONNECTED
                    && !c.session().sessionId().equals(firstSession) && values.contains(10 + OUTAGE_CHANGES));
            assertThat(durable.subscriptionId()).as("transferred, not recreated").isEqualTo(subscriptionId);
            for (int i = 11 + OUTAGE_CHANGES; i <= 20 + OUTAGE_CHANGES; i++) {
                second.set("Durable", i);
            }
            await().atMost(WAIT).until(() -> values.contains(20 + OUTAGE_CHANGES));
            List<Integer> expected = new ArrayList<>();
            for (int i = 0; i <= 20 + OUTAGE_CHANGES; i++) {
                expected.add(i);
            }
            synchronized (values) {
                assertThat(values).as("every value once, in order, across the restart").isEqualTo(expected);
            }
        } finally {
            if (client != null) {
                client.close();
            }
            server.close();
            if (restarted != null) {
                restarted.close();
            }
            resources.close();
        }
    }

    private static int rows(DataSource database) throws Exception {
        try (var connection = database.getConnection(); var statement = connection.createStatement();
                var result = statement.executeQuery("SELECT count(*) FROM restart_it_durable")) {
            result.next();
            return result.getInt(1);
        }
    }
}
