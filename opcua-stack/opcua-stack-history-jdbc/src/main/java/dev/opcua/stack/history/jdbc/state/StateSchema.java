package dev.opcua.stack.history.jdbc.state;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;

/**
 * The tables of the state stores, named from one prefix (default {@value #DEFAULT_PREFIX}), created on first open
 * and left as they are after (every statement is idempotent):
 *
 * <pre>
 * &lt;prefix&gt;_durable   durable subscriptions (Part 4, 6.8)
 *   subscription_id bigint PRIMARY KEY   the SubscriptionId
 *   record          bytea                the DurableRecordCodec encoding of the subscription
 *   saved_at        bigint               wall-clock ms of the save
 *
 * &lt;prefix&gt;_sessions  sessions of a HotAndMirrored set (Part 4, 6.6.2.4.5)
 *   session_id  text PRIMARY KEY   the SessionId in its text form (Part 6, 5.3.1.10)
 *   token_hash  bytea UNIQUE       SHA-256 of the AuthenticationToken, by which a partner finds the session
 *   owner       text               the ServerUri of the server serving it; only the owner writes the session's rows
 *   version     bigint             incremented by every claim: a claim compares it, so one of two wins
 *   session     bytea              the MirroredSessionCodec encoding of the session's own part
 *   written_at  bigint             wall-clock ms of the last write
 *
 * &lt;prefix&gt;_mirrored_subscriptions  its subscriptions (deleted with the session)
 *   session_id, subscription_id   PRIMARY KEY
 *   definition     bytea    parameters and items without queues (MirroredSubscriptionCodec), rewritten when changed
 *   next_sequence  bigint   the sequence number of its next NotificationMessage
 *   expires_at     bigint   wall-clock ms at which its lifetime ends
 *   queues         bytea    the items' queued and last values
 *
 * &lt;prefix&gt;_mirrored_messages  its sent, unacknowledged NotificationMessages (deleted with the subscription)
 *   session_id, subscription_id, sequence_number   PRIMARY KEY
 *   message        bytea    the NotificationMessage, appended when sent, deleted when acknowledged
 * </pre>
 *
 * A {@code <prefix>_sessions} table of the earlier single-row layout (a {@code state} column holding the whole
 * session) is dropped when the sessions' tables are created: what it held is not migrated.
 */
final class StateSchema {

    /** The prefix of the tables when none is given. */
    static final String DEFAULT_PREFIX = "opcua_state";

    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,40}");

    private StateSchema() {
    }

    /** Creates one store's table. */
    @FunctionalInterface
    interface Creation {
        void create(Connection connection, String prefix) throws SQLException;
    }

    /** Checks the prefix and creates a store's table on a connection of its own, in auto-commit. */
    static void create(javax.sql.DataSource dataSource, String prefix, Creation creation) throws SQLException {
        java.util.Objects.requireNonNull(dataSource, "dataSource");
        checkPrefix(prefix);
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            creation.create(connection, prefix);
        }
    }

    /** The prefix when it is a plain lower-case SQL identifier (it is spliced into statements). */
    static String checkPrefix(String prefix) {
        if (prefix == null || !NAME.matcher(prefix).matches()) {
            throw new IllegalArgumentException("state table prefix must match " + NAME.pattern() + ", was " + prefix);
        }
        return prefix;
    }

    static String durableTable(String prefix) {
        return prefix + "_durable";
    }

    static String sessionsTable(String prefix) {
        return prefix + "_sessions";
    }

    static String subscriptionsTable(String prefix) {
        return prefix + "_mirrored_subscriptions";
    }

    static String messagesTable(String prefix) {
        return prefix + "_mirrored_messages";
    }

    /** Creates the mirrored sessions' tables when missing, after dropping a sessions' table of the earlier layout. */
    static void createSessions(Connection connection, String prefix) throws SQLException {
        String sessions = sessionsTable(prefix);
        try (java.sql.PreparedStatement old = connection.prepareStatement("SELECT 1 FROM information_schema.columns"
                + " WHERE table_schema = current_schema() AND table_name = ? AND column_name = 'state'")) {
            old.setString(1, sessions);
            try (java.sql.ResultSet found = old.executeQuery()) {
                if (found.next()) {
                    try (Statement statement = connection.createStatement()) {
                        statement.execute("DROP TABLE " + sessions + " CASCADE");
                    }
                }
            }
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS " + sessions + " (session_id text PRIMARY KEY,"
                    + " token_hash bytea NOT NULL UNIQUE, owner text NOT NULL, version bigint NOT NULL,"
                    + " session bytea NOT NULL, written_at bigint NOT NULL)");
            statement.execute("CREATE TABLE IF NOT EXISTS " + subscriptionsTable(prefix) + " (session_id text NOT NULL"
                    + " REFERENCES " + sessions + " ON DELETE CASCADE, subscription_id bigint NOT NULL,"
                    + " definition bytea NOT NULL, next_sequence bigint NOT NULL, expires_at bigint NOT NULL,"
                    + " queues bytea, PRIMARY KEY (session_id, subscription_id))");
            statement.execute("CREATE TABLE IF NOT EXISTS " + messagesTable(prefix) + " (session_id text NOT NULL,"
                    + " subscription_id bigint NOT NULL, sequence_number bigint NOT NULL, message bytea NOT NULL,"
                    + " PRIMARY KEY (session_id, subscription_id, sequence_number), FOREIGN KEY (session_id,"
                    + " subscription_id) REFERENCES " + subscriptionsTable(prefix) + " ON DELETE CASCADE)");
        }
    }

    /** Creates the durable subscriptions' table when missing. */
    static void createDurable(Connection connection, String prefix) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS " + durableTable(prefix) + " (subscription_id bigint"
                    + " PRIMARY KEY, record bytea NOT NULL, saved_at bigint NOT NULL)");
        }
    }
}
