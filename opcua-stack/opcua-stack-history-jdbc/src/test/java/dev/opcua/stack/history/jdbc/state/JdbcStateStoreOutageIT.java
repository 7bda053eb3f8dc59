package dev.opcua.stack.history.jdbc.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.redundancy.RedundancyMode;
import dev.opcua.stack.server.redundancy.RedundancyPartner;
import dev.opcua.stack.server.redundancy.RedundancySettings;
import dev.opcua.stack.server.redundancy.SessionMirror;
import dev.opcua.stack.server.redundancy.SessionMirrorSettings;
import dev.opcua.stack.server.subscriptions.durable.PushedCounter;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The PostgreSQL of a HotAndMirrored server goes away and comes back (a PostgreSQL of this test alone, stopped and
 * started again on the same port and data directory): the server keeps serving its session, its ServiceLevel falls
 * to {@link SessionMirror#STORE_AWAY_LEVEL} while the store fails, the waiting states beyond the bound are dropped
 * and counted, and once the database answers the session is written anew and the ServiceLevel is healthy again.
 */
class JdbcStateStoreOutageIT {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @TempDir
    Path data;

    private EmbeddedPostgres postgres(int port) throws Exception {
        return EmbeddedPostgres.builder().setPort(port).setDataDirectory(data).setCleanDataDirectory(false).start();
    }

    @Test
    void a_server_whose_postgresql_goes_away_keeps_serving_lowers_its_service_level_and_catches_up() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        EmbeddedPostgres postgres = postgres(port);
        DataSource database = postgres.getPostgresDatabase();
        JdbcSessionStateStore store = JdbcSessionStateStore.open(database, "outage_it");
        PushedCounter counter = new PushedCounter();
        OpcUaServer server = OpcUaServer.builder()
                .applicationUri("urn:test:outage:a").applicationName("outage test server")
                .bindAddress("127.0.0.1").port(0).hostnames(List.of("localhost"))
                .security(List.of(EndpointSecurity.NONE))
                .redundancy(RedundancySettings.of(RedundancyMode.HotAndMirrored,
                        new RedundancyPartner("urn:test:outage:b", "opc.tcp://localhost:1/")))
                .sessionStateStore(store)
                .sessionMirrorSettings(new SessionMirrorSettings(Duration.ofMillis(50), 100, 1))
                .nodeManager(counter)
                .build().start();
        counter.start(server.namespaces().indexOf(PushedCounter.NS), server.dataChanges(), "Value");
        ClientResources resources = ClientResources.builder().ioThreads(1).build();
        OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                .applicationUri("urn:test:outage:client").applicationName("outage client")
                .resources(resources).requestTimeout(Duration.ofSeconds(5)).build());
        try {
            client.connect().get(10, TimeUnit.SECONDS);
            AtomicInteger last = new AtomicInteger(-1);
            ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(50))
                    .get(10, TimeUnit.SECONDS);
            subscription.createDataItem(DataItemRequest.of(counter.nodeId("Value"), 0,
                    (item, value) -> last.set((Integer) value.value().value()))).get(10, TimeUnit.SECONDS);
            SessionMirror mirror = server.sessionMirror();
            await().atMost(WAIT).until(() -> rows(database) == 1 && mirror.writtenStates() > 0);
            assertThat(server.serviceLevel().level()).isEqualTo((short) 255);

            postgres.close();
            counter.set("Value", 1);
            await().atMost(WAIT).until(() -> !mirror.storeReachable());
            assertThat(server.serviceLevel().level()).as("degraded while the store fails")
                    .isEqualTo((short) SessionMirror.STORE_AWAY_LEVEL);
            for (int i = 2; i <= 20; i++) {
                counter.set("Value", i);
            }
            await().atMost(WAIT).alias("the server keeps serving its session").until(() -> last.get() == 20);
            await().atMost(WAIT).alias("the waiting state, over its bound, dropped and counted")
                    .until(() -> mirror.droppedStates() > 0);

            long writtenBefore = mirror.writtenStates();
            postgres = postgres(port);
            await().atMost(WAIT).alias("written anew once the database answers")
                    .until(() -> mirror.storeReachable() && mirror.writtenStates() > writtenBefore);
            assertThat(server.serviceLevel().level()).isEqualTo((short) 255);
            assertThat(rows(database)).isEqualTo(1);
            assertThat(mirror.failedWrites()).isPositive();
        } finally {
            client.close();
            server.close();
            resources.close();
            postgres.close();
        }
    }

    private static int rows(DataSource database) throws Exception {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SELECT count(*) FROM outage_it_sessions")) {
            result.next();
            return result.getInt(1);
        }
    }
}
