package dev.opcua.stack.history.jdbc.state;

import dev.opcua.stack.history.jdbc.TestPostgres;
import dev.opcua.stack.server.subscriptions.durable.DurableRestartScenario;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A durable subscription (Part 4, 6.8) kept in PostgreSQL survives a server restart ({@link DurableRestartScenario}):
 * each server opens its own {@link JdbcDurableSubscriptionStore} on the same database, the second finds the row the
 * first saved when it closed, and the client transfers the subscription with every value once, in order; after a
 * crash ({@link DurableRestartScenario#runAfterCrash}) the second restores the last periodic snapshot.
 */
class JdbcDurableRestartIT {

    @Test
    void a_durable_subscription_in_postgresql_outlives_a_server_restart_with_every_value_once_in_order()
            throws Exception {
        DataSource database = TestPostgres.dataSource();
        DurableRestartScenario.run(new DurableRestartScenario.Storage() {
            @Override
            public DurableSubscriptionStore open() throws Exception {
                return JdbcDurableSubscriptionStore.open(database, "restart_it");
            }

            @Override
            public int stored() throws Exception {
                try (Connection connection = database.getConnection();
                        Statement statement = connection.createStatement();
                        ResultSet result = statement.executeQuery("SELECT count(*) FROM restart_it_durable")) {
                    result.next();
                    return result.getInt(1);
                }
            }
        });
    }

    @Test
    void a_durable_subscription_in_postgresql_restored_after_a_crash_reuses_no_sequence_number() throws Exception {
        DataSource database = TestPostgres.dataSource();
        DurableRestartScenario.runAfterCrash(new DurableRestartScenario.Storage() {
            @Override
            public DurableSubscriptionStore open() throws Exception {
                return JdbcDurableSubscriptionStore.open(database, "crash_it");
            }

            @Override
            public int stored() {
                throw new UnsupportedOperationException("not asked after a crash");
            }
        });
    }
}
