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
        DurableRestartScenario.run(storage(TestPostgres.dataSource(), "restart_it"));
    }

    @Test
    void a_durable_subscription_in_postgresql_restored_after_a_crash_reuses_no_sequence_number() throws Exception {
        DurableRestartScenario.runAfterCrash(storage(TestPostgres.dataSource(), "crash_it"));
    }

    /** A store per server on the same table {@code <prefix>_durable}. */
    private static DurableRestartScenario.Storage storage(DataSource database, String prefix) {
        return new DurableRestartScenario.Storage() {
            @Override
            public DurableSubscriptionStore open() throws Exception {
                return JdbcDurableSubscriptionStore.open(database, prefix);
            }

            @Override
            public int stored() throws Exception {
                try (Connection connection = database.getConnection();
                        Statement statement = connection.createStatement();
                        ResultSet result = statement.executeQuery("SELECT count(*) FROM " + prefix + "_durable")) {
                    result.next();
                    return result.getInt(1);
                }
            }
        };
    }
}
