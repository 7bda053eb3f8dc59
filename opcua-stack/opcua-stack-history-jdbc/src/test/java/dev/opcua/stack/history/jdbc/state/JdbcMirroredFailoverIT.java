package dev.opcua.stack.history.jdbc.state;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.opcua.stack.history.jdbc.TestPostgres;
import dev.opcua.stack.server.redundancy.MirroredPair;
import dev.opcua.stack.server.redundancy.SessionMirror;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * HotAndMirrored (Part 4, 6.6.2.4.5) with the sessions in PostgreSQL: two of our servers on one embedded
 * PostgreSQL, our client in HOT_AND_MIRRORED mode; the first server crashes (its transport stops, the database is
 * not told) and the client goes on at the partner with the same session and subscription, every value once in
 * order. Prints what a store write costs per notification.
 */
class JdbcMirroredFailoverIT {

    @Test
    void a_crashed_servers_session_goes_on_at_its_partner_through_postgresql() throws Exception {
        DataSource database = TestPostgres.dataSource();
        HikariConfig pool = new HikariConfig();
        pool.setDataSource(database);
        pool.setMaximumPoolSize(4);
        pool.setPoolName("mirrored-it");
        try (HikariDataSource pooled = new HikariDataSource(pool);
                MirroredPair pair = new MirroredPair(JdbcSessionStateStore.open(pooled, "mirrored_it"))) {
            long started = System.nanoTime();
            int fromQueue = pair.crashAndFailOver(2_000, 200);
            long failoverMillis = (System.nanoTime() - started) / 1_000_000;
            assertThat(fromQueue).as("values A had queued at the crash, delivered by B").isPositive();
            assertThat(owner(database, pair.client.session().sessionId().toString()))
                    .isEqualTo("urn:test:mirrored:b");
            SessionMirror a = pair.a.sessionMirror();
            long notifications = pair.a.statistics().subscriptions().notificationsSent();
            System.out.printf("mirrored failover through PostgreSQL: %d values A had queued delivered by B;"
                    + " A wrote %d session states in %.1f ms (%.1f us per state, %.2f us per notification sent,"
                    + " %d notifications); failover %d ms after the loss was seen; test steps %d ms%n", fromQueue, a.writtenStates(),
                    a.writeNanos() / 1e6, a.writeNanos() / 1e3 / Math.max(1, a.writtenStates()),
                    a.writeNanos() / 1e3 / Math.max(1, notifications), notifications,
                    pair.failovers.get(0).duration().toMillis(), failoverMillis);
        }
    }

    private static String owner(DataSource database, String sessionId) throws Exception {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT owner FROM mirrored_it_sessions WHERE session_id = '"
                        + sessionId.replace("'", "''") + "'")) {
            return row.next() ? row.getString(1) : null;
        }
    }
}
