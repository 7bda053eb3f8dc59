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
 *   owner       text               the ServerUri of the server serving it; only the owner writes the row
 *   version     bigint             incremented by every claim: a claim compares it, so one of two wins
 *   state       bytea              the MirroredSessionCodec encoding (session, subscriptions, queues)
 *   written_at  bigint             wall-clock ms of the last write
 * </pre>
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

    /** Creates the mirrored sessions' table when missing. */
    static void createSessions(Connection connection, String prefix) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS " + sessionsTable(prefix) + " (session_id text PRIMARY KEY,"
                    + " token_hash bytea NOT NULL UNIQUE, owner text NOT NULL, version bigint NOT NULL,"
                    + " state bytea NOT NULL, written_at bigint NOT NULL)");
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
