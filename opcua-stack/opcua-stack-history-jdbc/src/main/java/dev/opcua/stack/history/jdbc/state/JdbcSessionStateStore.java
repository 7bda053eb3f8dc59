package dev.opcua.stack.history.jdbc.state;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.redundancy.MirroredSession;
import dev.opcua.stack.server.redundancy.MirroredSessionCodec;
import dev.opcua.stack.server.redundancy.SessionStateStore;
import dev.opcua.stack.server.redundancy.StoredSession;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SessionStateStore} of a HotAndMirrored server set (Part 4, 6.6.2.4.5) in PostgreSQL: one row per
 * session in {@code <prefix>_sessions} ({@link StateSchema}) holding its {@link MirroredSessionCodec} encoding,
 * found by the hash of its AuthenticationToken, owned by one server at a time.
 *
 * <ul>
 *   <li>{@link #write}: one transaction per batch; each row is an upsert that changes a stored row only where the
 *       writer owns it ({@code ON CONFLICT ... DO UPDATE ... WHERE owner = writer}), so a server whose session a
 *       partner claimed learns it from the row count 0 and drops the session.</li>
 *   <li>{@link #claim}: {@code UPDATE ... SET owner, version = version + 1 WHERE version = seen}, atomic in
 *       PostgreSQL: of two servers claiming one session, one updates the row.</li>
 * </ul>
 *
 * Every call takes a connection of its own from the application's DataSource (which stays the application's) and
 * throws an {@link IllegalStateException} naming the table when the database fails; the server's mirror then keeps
 * the states waiting and lowers its ServiceLevel. Thread-safe.
 */
public final class JdbcSessionStateStore implements SessionStateStore {

    private static final Logger log = LoggerFactory.getLogger(JdbcSessionStateStore.class);

    private final DataSource dataSource;
    private final String table;

    private JdbcSessionStateStore(DataSource dataSource, String table) {
        this.dataSource = dataSource;
        this.table = table;
    }

    /**
     * Creates the table {@code <prefix>_sessions} when missing.
     *
     * @param prefix a lower-case SQL identifier, e.g. {@code opcua_state}
     * @throws SQLException when the database cannot be reached or the table cannot be created
     */
    public static JdbcSessionStateStore open(DataSource dataSource, String prefix) throws SQLException {
        StateSchema.create(dataSource, prefix, StateSchema::createSessions);
        JdbcSessionStateStore store = new JdbcSessionStateStore(dataSource, StateSchema.sessionsTable(prefix));
        log.info("session state store on table {}", store.table);
        return store;
    }

    /** The table's name. */
    public String table() {
        return table;
    }

    @Override
    public Set<NodeId> write(String owner, List<MirroredSession> sessions) {
        if (sessions.isEmpty()) {
            return Set.of();
        }
        return inTransaction("write of " + sessions.size() + " sessions", connection -> {
            long now = System.currentTimeMillis();
            try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO " + table + " AS t (session_id,"
                    + " token_hash, owner, version, state, written_at) VALUES (?, ?, ?, 0, ?, ?) ON CONFLICT"
                    + " (session_id) DO UPDATE SET state = EXCLUDED.state, written_at = EXCLUDED.written_at,"
                    + " token_hash = EXCLUDED.token_hash WHERE t.owner = EXCLUDED.owner")) {
                for (MirroredSession session : sessions) {
                    upsert.setString(1, session.sessionId().toString());
                    upsert.setBytes(2, session.tokenHash());
                    upsert.setString(3, owner);
                    upsert.setBytes(4, MirroredSessionCodec.encode(session));
                    upsert.setLong(5, now);
                    upsert.addBatch();
                }
                int[] counts = upsert.executeBatch();
                Set<NodeId> ownedElsewhere = new HashSet<>();
                for (int i = 0; i < counts.length; i++) {
                    if (counts[i] == 0) {
                        ownedElsewhere.add(sessions.get(i).sessionId());
                    }
                }
                return ownedElsewhere;
            }
        });
    }

    @Override
    public void remove(String owner, Collection<NodeId> sessionIds) {
        if (sessionIds.isEmpty()) {
            return;
        }
        inTransaction("removal of " + sessionIds.size() + " sessions", connection -> {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table
                    + " WHERE session_id = ? AND owner = ?")) {
                for (NodeId id : sessionIds) {
                    delete.setString(1, id.toString());
                    delete.setString(2, owner);
                    delete.addBatch();
                }
                delete.executeBatch();
            }
            return null;
        });
    }

    @Override
    public StoredSession find(byte[] tokenHash) {
        return inTransaction("lookup of a session", connection -> {
            try (PreparedStatement select = connection.prepareStatement("SELECT state, owner, version FROM " + table
                    + " WHERE token_hash = ?")) {
                select.setBytes(1, tokenHash);
                try (ResultSet row = select.executeQuery()) {
                    return row.next() ? new StoredSession(MirroredSessionCodec.decode(row.getBytes(1)),
                            row.getString(2), row.getLong(3)) : null;
                }
            }
        });
    }

    @Override
    public boolean claim(NodeId sessionId, String owner, long version) {
        return inTransaction("claim of session " + sessionId, connection -> {
            try (PreparedStatement update = connection.prepareStatement("UPDATE " + table
                    + " SET owner = ?, version = version + 1 WHERE session_id = ? AND version = ?")) {
                update.setString(1, owner);
                update.setString(2, sessionId.toString());
                update.setLong(3, version);
                return update.executeUpdate() == 1;
            }
        });
    }

    /** Nothing to release: connections are taken per call and the DataSource is the application's. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "JdbcSessionStateStore[" + table + "]";
    }

    private <T> T inTransaction(String what, StateTransactions.Work<T> work) {
        return StateTransactions.run(dataSource, "session state store " + table, what, work);
    }
}
