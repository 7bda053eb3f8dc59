package dev.opcua.stack.history.jdbc;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The table of a {@link JdbcHistoryStore}, created on first start and left as it is after (every statement is
 * idempotent):
 *
 * <pre>
 * node_id text   NodeId in its text form (Part 6, 5.3.1.10), e.g. ns=2;s=Line1.Speed
 * ts      bigint the value's time (source timestamp, else server timestamp) in 100 ns ticks since 1601
 * dv      bytea  the whole DataValue in UA Binary
 * PRIMARY KEY (node_id, ts)
 * </pre>
 *
 * Events (Part 11, 4.3) go to a second table, {@code <table>_events}:
 *
 * <pre>
 * notifier text   the notifier's NodeId in its text form
 * ts       bigint the event's Time in 100 ns ticks since 1601
 * event_id bytea  the EventId; with ts the order of a notifier's events (bytea compares as unsigned bytes)
 * event    bytea  the whole event ({@link dev.opcua.stack.server.history.events.EventBytes})
 * PRIMARY KEY (notifier, ts, event_id), INDEX (notifier, event_id) for deletes by EventId
 * </pre>
 *
 * Modified values (read-modified, Part 11, 6.5.3.3) go to {@code <table>_modified}: {@code node_id, ts, seq} (the
 * order of the modifications at one time, from 1; primary key), {@code dv} (the value inserted, or the old value
 * replaced or deleted), {@code modified_at} (ticks), {@code update_type} (HistoryUpdateType), {@code user_name}.
 *
 * The primary key is the index every read, update and delete of a node's time range walks; a node holds one value
 * per time, as the HistoryStore contract says. Where the TimescaleDB extension is available the table becomes a
 * hypertable chunked by {@code ts} (one day per chunk); without it, or when it cannot be loaded, a plain table.
 */
final class HistorySchema {

    private static final Logger log = LoggerFactory.getLogger(HistorySchema.class);
    private static final Pattern NAME = Pattern.compile("[a-z_][a-z0-9_]{0,62}");
    /** One day in 100 ns ticks: the hypertable's chunk. */
    private static final long DAY_TICKS = 864_000_000_000L;

    private HistorySchema() {
    }

    /** The table name when it is a plain lower-case SQL identifier (it is spliced into statements). */
    static String checkName(String table) {
        if (table == null || !NAME.matcher(table).matches()) {
            throw new IllegalArgumentException("history table name must match " + NAME.pattern() + ", was " + table);
        }
        return table;
    }

    /** The events table of a values table: its name with {@code _events}, checked as a name too. */
    static String eventsTable(String table) {
        return checkName(table + "_events");
    }

    /** The modified-values table of a values table: its name with {@code _modified}. */
    static String modifiedTable(String table) {
        return checkName(table + "_modified");
    }

    /**
     * Creates the table when missing and, when asked and available, makes it a hypertable.
     *
     * @return whether the table is a TimescaleDB hypertable
     */
    static boolean create(Connection connection, String table, boolean tryTimescale) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS " + table
                    + " (node_id text NOT NULL, ts bigint NOT NULL, dv bytea NOT NULL, PRIMARY KEY (node_id, ts))");
            String events = eventsTable(table);
            statement.execute("CREATE TABLE IF NOT EXISTS " + events + " (notifier text NOT NULL, ts bigint NOT NULL,"
                    + " event_id bytea NOT NULL, event bytea NOT NULL, PRIMARY KEY (notifier, ts, event_id))");
            statement.execute("CREATE INDEX IF NOT EXISTS " + events + "_ids ON " + events + " (notifier, event_id)");
            statement.execute("CREATE TABLE IF NOT EXISTS " + modifiedTable(table) + " (node_id text NOT NULL,"
                    + " ts bigint NOT NULL, seq int NOT NULL, dv bytea NOT NULL, modified_at bigint NOT NULL,"
                    + " update_type int NOT NULL, user_name text, PRIMARY KEY (node_id, ts, seq))");
        }
        return tryTimescale && hypertable(connection, table);
    }

    /** TimescaleDB where the server has it: detected through pg_available_extensions, never required. */
    private static boolean hypertable(Connection connection, String table) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet available = statement.executeQuery(
                        "SELECT 1 FROM pg_available_extensions WHERE name = 'timescaledb'")) {
            if (!available.next()) {
                log.info("history table {}: TimescaleDB is not available, a plain table is used", table);
                return false;
            }
        }
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE EXTENSION IF NOT EXISTS timescaledb");
            statement.execute("SELECT create_hypertable('" + table + "', 'ts', chunk_time_interval => " + DAY_TICKS
                    + ", if_not_exists => TRUE, migrate_data => TRUE)");
            log.info("history table {} is a TimescaleDB hypertable (one chunk per day)", table);
            return true;
        } catch (SQLException e) {
            // e.g. the library is not in shared_preload_libraries, or the role may not create extensions
            log.warn("history table {}: TimescaleDB is installed but could not be used ({}); a plain table is used",
                    table, e.getMessage());
            return false;
        }
    }
}
