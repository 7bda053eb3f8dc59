package dev.opcua.stack.history.jdbc.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.history.jdbc.TestPostgres;
import dev.opcua.stack.server.redundancy.SessionStateStore;
import dev.opcua.stack.server.redundancy.SessionStateStoreContract;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** {@link JdbcSessionStateStore} on a real PostgreSQL keeps the contract of every session state store. */
class JdbcSessionStateStoreIT extends SessionStateStoreContract {

    @Override
    protected SessionStateStore openStore() throws Exception {
        return JdbcSessionStateStore.open(TestPostgres.dataSource(), "contract_it");
    }

    @Test
    void a_sessions_table_of_the_single_row_layout_is_dropped_when_the_store_opens() throws Exception {
        try (Connection connection = TestPostgres.dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS old_layout_sessions CASCADE");
            statement.execute("CREATE TABLE old_layout_sessions (session_id text PRIMARY KEY, token_hash bytea,"
                    + " owner text, version bigint, state bytea, written_at bigint)");
            statement.execute("INSERT INTO old_layout_sessions VALUES ('ns=1;i=1', '\\x00', 'urn:a', 0, '\\x00', 0)");

            JdbcSessionStateStore.open(TestPostgres.dataSource(), "old_layout");

            try (ResultSet columns = statement.executeQuery("SELECT column_name FROM information_schema.columns"
                    + " WHERE table_schema = current_schema() AND table_name = 'old_layout_sessions'"
                    + " AND column_name IN ('state', 'session')")) {
                assertThat(columns.next()).isTrue();
                assertThat(columns.getString(1)).isEqualTo("session");
                assertThat(columns.next()).isFalse();
            }
        }
    }
}
