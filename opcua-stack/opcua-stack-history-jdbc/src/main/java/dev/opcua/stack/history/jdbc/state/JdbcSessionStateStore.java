package dev.opcua.stack.history.jdbc.state;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.redundancy.MirroredDefinition;
import dev.opcua.stack.server.redundancy.MirroredSession;
import dev.opcua.stack.server.redundancy.MirroredSessionCodec;
import dev.opcua.stack.server.redundancy.MirroredSubscriptionCodec;
import dev.opcua.stack.server.redundancy.SessionChanges;
import dev.opcua.stack.server.redundancy.SessionStateStore;
import dev.opcua.stack.server.redundancy.StoredSession;
import dev.opcua.stack.server.redundancy.SubscriptionChanges;
import dev.opcua.stack.server.session.SessionSnapshot;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link SessionStateStore} of a HotAndMirrored server set (Part 4, 6.6.2.4.5) in PostgreSQL: one row per
 * session in {@code <prefix>_sessions} ({@link StateSchema}), found by the hash of its AuthenticationToken, owned by
 * one server at a time; one row per subscription (definition, counters, item queues) and one per sent,
 * unacknowledged NotificationMessage, written as they change ({@link SessionChanges}).
 *
 * <ul>
 *   <li>{@link #write}: one transaction per batch, each kind of statement prepared once and sent as a JDBC batch.
 *       Each session's row is written first, only where the writer owns it ({@code ON CONFLICT ... DO UPDATE ...
 *       WHERE owner = writer}, or an {@code UPDATE ... WHERE owner = writer}), so a server whose session a partner
 *       claimed learns it from the row count 0, drops the session and writes none of its subscriptions; the row's
 *       lock makes a concurrent claim wait for the transaction. Then the subscriptions of replaced sessions are
 *       deleted, definitions upserted where they changed, counters and queues updated, acknowledged messages
 *       deleted and sent ones inserted. The transaction commits with {@code synchronous_commit} off: a commit is
 *       visible to the partner at once, and only a crash of PostgreSQL itself (not of the server) can lose the
 *       last few hundred milliseconds of it, while the mirror thread does not wait for the WAL flush.</li>
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
    private final String subscriptions;
    private final String messages;

    private JdbcSessionStateStore(DataSource dataSource, String prefix) {
        this.dataSource = dataSource;
        this.table = StateSchema.sessionsTable(prefix);
        this.subscriptions = StateSchema.subscriptionsTable(prefix);
        this.messages = StateSchema.messagesTable(prefix);
    }

    /**
     * Creates the table {@code <prefix>_sessions} when missing.
     *
     * @param prefix a lower-case SQL identifier, e.g. {@code opcua_state}
     * @throws SQLException when the database cannot be reached or the table cannot be created
     */
    public static JdbcSessionStateStore open(DataSource dataSource, String prefix) throws SQLException {
        StateSchema.create(dataSource, prefix, StateSchema::createSessions);
        JdbcSessionStateStore store = new JdbcSessionStateStore(dataSource, prefix);
        log.info("session state store on table {}", store.table);
        return store;
    }

    /** The sessions' table's name (its subscriptions and messages are in two more, see {@link StateSchema}). */
    public String table() {
        return table;
    }

    @Override
    public Set<NodeId> write(String owner, List<SessionChanges> changes) {
        if (changes.isEmpty()) {
            return Set.of();
        }
        return inTransaction("write of " + changes.size() + " sessions", connection -> {
            try (Statement statement = connection.createStatement()) {
                statement.execute("SET LOCAL synchronous_commit TO OFF");
            }
            Set<NodeId> ownedElsewhere = writeSessions(connection, owner, changes);
            List<SessionChanges> owned = changes.stream().filter(c -> !ownedElsewhere.contains(c.sessionId()))
                    .toList();
            deleteSubscriptions(connection, owned);
            writeSubscriptions(connection, owned);
            return ownedElsewhere;
        });
    }

    /** The sessions' rows, where {@code owner} owns them; the ids of those another server owns. */
    private Set<NodeId> writeSessions(Connection connection, String owner, List<SessionChanges> changes)
            throws SQLException {
        long now = System.currentTimeMillis();
        List<SessionChanges> withSession = new ArrayList<>();
        List<SessionChanges> touched = new ArrayList<>();
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO " + table + " AS t (session_id,"
                + " token_hash, owner, version, session, written_at) VALUES (?, ?, ?, 0, ?, ?) ON CONFLICT"
                + " (session_id) DO UPDATE SET session = EXCLUDED.session, written_at = EXCLUDED.written_at,"
                + " token_hash = EXCLUDED.token_hash WHERE t.owner = EXCLUDED.owner");
                PreparedStatement touch = connection.prepareStatement("UPDATE " + table + " SET written_at = ?"
                        + " WHERE session_id = ? AND owner = ?")) {
            for (SessionChanges change : changes) {
                if (change.session() != null) {
                    upsert.setString(1, change.sessionId().toString());
                    upsert.setBytes(2, change.tokenHash());
                    upsert.setString(3, owner);
                    upsert.setBytes(4, change.session());
                    upsert.setLong(5, now);
                    upsert.addBatch();
                    withSession.add(change);
                } else { // takes the row's lock: a claim waits for this transaction
                    touch.setLong(1, now);
                    touch.setString(2, change.sessionId().toString());
                    touch.setString(3, owner);
                    touch.addBatch();
                    touched.add(change);
                }
            }
            Set<NodeId> ownedElsewhere = new HashSet<>();
            notWritten(withSession.isEmpty() ? new int[0] : upsert.executeBatch(), withSession, ownedElsewhere);
            notWritten(touched.isEmpty() ? new int[0] : touch.executeBatch(), touched, ownedElsewhere);
            return ownedElsewhere;
        }
    }

    private static void notWritten(int[] counts, List<SessionChanges> changes, Set<NodeId> into) {
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] == 0) {
                into.add(changes.get(i).sessionId());
            }
        }
    }

    /** Subscriptions (and so their messages) of replaced sessions, and those that left their session. */
    private void deleteSubscriptions(Connection connection, List<SessionChanges> owned) throws SQLException {
        try (PreparedStatement all = connection.prepareStatement("DELETE FROM " + subscriptions
                + " WHERE session_id = ?");
                PreparedStatement one = connection.prepareStatement("DELETE FROM " + subscriptions
                        + " WHERE session_id = ? AND subscription_id = ?")) {
            int replaced = 0;
            int removed = 0;
            for (SessionChanges change : owned) {
                String session = change.sessionId().toString();
                if (change.replace()) {
                    all.setString(1, session);
                    all.addBatch();
                    replaced++;
                }
                for (long id : change.removedSubscriptions()) {
                    one.setString(1, session);
                    one.setLong(2, id);
                    one.addBatch();
                    removed++;
                }
            }
            if (replaced > 0) {
                all.executeBatch();
            }
            if (removed > 0) {
                one.executeBatch();
            }
        }
    }

    /**
     * Subscriptions whose definition changed (or is new): an upsert, then their messages. The others, the common
     * case of a mirror cycle, in one statement each: counters and queues updated, acknowledged messages deleted and
     * sent ones inserted, so that a cycle costs one round trip for all of them.
     */
    private void writeSubscriptions(Connection connection, List<SessionChanges> owned) throws SQLException {
        try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO " + subscriptions + " AS t"
                + " (session_id, subscription_id, definition, next_sequence, expires_at, queues) VALUES"
                + " (?, ?, ?, ?, ?, ?) ON CONFLICT (session_id, subscription_id) DO UPDATE SET definition ="
                + " EXCLUDED.definition, next_sequence = EXCLUDED.next_sequence, expires_at = EXCLUDED.expires_at,"
                + " queues = COALESCE(EXCLUDED.queues, t.queues)");
                PreparedStatement update = connection.prepareStatement("WITH sub AS (UPDATE " + subscriptions
                        + " SET next_sequence = ?, expires_at = ?, queues = COALESCE(?, queues)"
                        + " WHERE session_id = ? AND subscription_id = ? RETURNING session_id, subscription_id),"
                        + " acknowledged AS (DELETE FROM " + messages + " m USING sub WHERE m.session_id ="
                        + " sub.session_id AND m.subscription_id = sub.subscription_id AND m.sequence_number ="
                        + " ANY (?)) INSERT INTO " + messages + " (session_id, subscription_id, sequence_number,"
                        + " message) SELECT sub.session_id, sub.subscription_id, sent.n, sent.m FROM sub,"
                        + " unnest(?::bigint[], ?::bytea[]) AS sent(n, m) ON CONFLICT (session_id, subscription_id,"
                        + " sequence_number) DO UPDATE SET message = EXCLUDED.message")) {
            List<SessionChanges> redefined = new ArrayList<>();
            int updates = 0;
            for (SessionChanges change : owned) {
                String session = change.sessionId().toString();
                boolean anyRedefined = false;
                for (SubscriptionChanges s : change.subscriptions()) {
                    if (s.definition() != null) {
                        upsert.setString(1, session);
                        upsert.setLong(2, s.subscriptionId());
                        upsert.setBytes(3, s.definition());
                        upsert.setLong(4, s.nextSequenceNumber());
                        upsert.setLong(5, s.expiresAtMillis());
                        setBytesOrNull(upsert, 6, s.queues());
                        upsert.addBatch();
                        anyRedefined = true;
                    } else {
                        update.setLong(1, s.nextSequenceNumber());
                        update.setLong(2, s.expiresAtMillis());
                        setBytesOrNull(update, 3, s.queues());
                        update.setString(4, session);
                        update.setLong(5, s.subscriptionId());
                        // primitive and byte[][] arrays travel in PostgreSQL's binary array format
                        update.setObject(6, s.acknowledged().stream().mapToLong(Long::longValue).toArray());
                        update.setObject(7, s.sent().stream()
                                .mapToLong(SubscriptionChanges.SentMessage::sequenceNumber).toArray());
                        update.setObject(8, s.sent().stream().map(SubscriptionChanges.SentMessage::bytes)
                                .toArray(byte[][]::new));
                        update.addBatch();
                        updates++;
                    }
                }
                if (anyRedefined) {
                    redefined.add(change);
                }
            }
            if (!redefined.isEmpty()) {
                upsert.executeBatch();
                writeMessages(connection, redefined);
            }
            if (updates > 0) {
                update.executeBatch();
            }
        }
    }

    private static void setBytesOrNull(PreparedStatement statement, int index, byte[] bytes) throws SQLException {
        if (bytes == null) {
            statement.setNull(index, Types.BINARY);
        } else {
            statement.setBytes(index, bytes);
        }
    }

    /** The messages of redefined subscriptions: acknowledged ones deleted, then sent ones appended. */
    private void writeMessages(Connection connection, List<SessionChanges> redefined) throws SQLException {
        try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + messages
                + " WHERE session_id = ? AND subscription_id = ? AND sequence_number = ?");
                PreparedStatement insert = connection.prepareStatement("INSERT INTO " + messages + " (session_id,"
                        + " subscription_id, sequence_number, message) VALUES (?, ?, ?, ?) ON CONFLICT (session_id,"
                        + " subscription_id, sequence_number) DO UPDATE SET message = EXCLUDED.message")) {
            int deletes = 0;
            int inserts = 0;
            for (SessionChanges change : redefined) {
                String session = change.sessionId().toString();
                for (SubscriptionChanges s : change.subscriptions()) {
                    if (s.definition() == null) {
                        continue;
                    }
                    for (long number : s.acknowledged()) {
                        delete.setString(1, session);
                        delete.setLong(2, s.subscriptionId());
                        delete.setLong(3, number);
                        delete.addBatch();
                        deletes++;
                    }
                    for (SubscriptionChanges.SentMessage message : s.sent()) {
                        insert.setString(1, session);
                        insert.setLong(2, s.subscriptionId());
                        insert.setLong(3, message.sequenceNumber());
                        insert.setBytes(4, message.bytes());
                        insert.addBatch();
                        inserts++;
                    }
                }
            }
            if (deletes > 0) {
                delete.executeBatch();
            }
            if (inserts > 0) {
                insert.executeBatch();
            }
        }
    }

    /** Removes the sessions {@code owner} owns; their subscriptions and messages go with them. */
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

    /** Reads the session's rows in one snapshot (REPEATABLE READ), so that queues and messages agree. */
    @Override
    public StoredSession find(byte[] tokenHash) {
        return inTransaction("lookup of a session", connection -> {
            int isolation = connection.getTransactionIsolation();
            connection.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try {
                return find(connection, tokenHash);
            } finally {
                connection.commit();
                connection.setTransactionIsolation(isolation);
            }
        });
    }

    private StoredSession find(Connection connection, byte[] tokenHash) throws SQLException {
        String sessionId;
        SessionSnapshot session;
        String owner;
        long version;
        try (PreparedStatement select = connection.prepareStatement("SELECT session_id, session, owner, version"
                + " FROM " + table + " WHERE token_hash = ?")) {
            select.setBytes(1, tokenHash);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    return null;
                }
                sessionId = row.getString(1);
                session = MirroredSessionCodec.decodeSession(row.getBytes(2));
                owner = row.getString(3);
                version = row.getLong(4);
            }
        }
        Map<Long, List<byte[]>> sent = new HashMap<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT subscription_id, message FROM "
                + messages + " WHERE session_id = ?")) {
            select.setString(1, sessionId);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    sent.computeIfAbsent(row.getLong(1), id -> new ArrayList<>()).add(row.getBytes(2));
                }
            }
        }
        List<DurableSubscriptionRecord> records = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement("SELECT subscription_id, definition,"
                + " next_sequence, expires_at, queues FROM " + subscriptions + " WHERE session_id = ?"
                + " ORDER BY subscription_id")) {
            select.setString(1, sessionId);
            try (ResultSet row = select.executeQuery()) {
                while (row.next()) {
                    records.add(MirroredSubscriptionCodec.assemble(row.getBytes(2), row.getLong(3), row.getLong(4),
                            row.getBytes(5), sent.getOrDefault(row.getLong(1), List.of())));
                }
            }
        }
        return new StoredSession(new MirroredSession(session, tokenHash.clone(), records), owner, version);
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

    /** One statement: the definitions joined with their sessions' owners, the owner's own left out. */
    @Override
    public List<MirroredDefinition> definitionsOwnedByOthers(String owner) {
        return inTransaction("read of the partners' subscription definitions", connection -> {
            List<MirroredDefinition> definitions = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT s.session_id, s.owner,"
                    + " m.subscription_id, m.definition FROM " + table + " s JOIN " + subscriptions
                    + " m ON m.session_id = s.session_id WHERE s.owner <> ?")) {
                select.setString(1, owner);
                try (ResultSet row = select.executeQuery()) {
                    while (row.next()) {
                        definitions.add(new MirroredDefinition(NodeId.parse(row.getString(1)), row.getString(2),
                                row.getLong(3), row.getBytes(4)));
                    }
                }
            }
            return definitions;
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
