package dev.opcua.stack.history.jdbc;

import dev.opcua.stack.server.history.HistoryRetention;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A store's retention in SQL: the age by one DELETE per table (values, events and modified values); the size by
 * PostgreSQL's own measure of the values table and its index ({@code pg_total_relation_size}): while it exceeds the
 * most bytes, the oldest values go, as many as the excess holds at the table's average row size. PostgreSQL reuses
 * the space of deleted rows after VACUUM (autovacuum does it); the file does not shrink.
 */
final class TableRetention {

    private static final Logger log = LoggerFactory.getLogger(TableRetention.class);

    private final String valuesTable;
    private final List<String> tables;

    TableRetention(String valuesTable, String... otherTables) {
        this.valuesTable = valuesTable;
        this.tables = List.of(otherTables);
    }

    /** Deletes what the retention no longer keeps, autocommitted statement by statement; how many rows. */
    long trim(Connection connection, HistoryRetention retention, long nowTicks) throws SQLException {
        connection.setAutoCommit(true);
        long deleted = 0;
        long oldest = retention.oldestTicks(nowTicks);
        if (oldest != Long.MIN_VALUE) {
            deleted += deleteBefore(connection, valuesTable, oldest);
            for (String table : tables) {
                deleted += deleteBefore(connection, table, oldest);
            }
        }
        if (retention.maxBytes() > 0) {
            deleted += trimToSize(connection, retention.maxBytes());
        }
        if (deleted > 0) {
            log.info("history retention deleted {} values from {}", deleted, valuesTable);
        }
        return deleted;
    }

    private static long deleteBefore(Connection connection, String table, long oldest) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement("DELETE FROM " + table + " WHERE ts < ?")) {
            statement.setLong(1, oldest);
            return statement.executeUpdate();
        }
    }

    private long trimToSize(Connection connection, long maxBytes) throws SQLException {
        long[] sizeAndRows = sizeAndRows(connection);
        long excess = sizeAndRows[0] - maxBytes;
        if (excess <= 0 || sizeAndRows[1] == 0) {
            return 0;
        }
        long perRow = Math.max(1, sizeAndRows[0] / sizeAndRows[1]);
        long rows = Math.min(sizeAndRows[1], (excess + perRow - 1) / perRow);
        try (PreparedStatement statement = connection.prepareStatement("DELETE FROM " + valuesTable
                + " WHERE ctid IN (SELECT ctid FROM " + valuesTable + " ORDER BY ts LIMIT ?)")) {
            statement.setLong(1, rows);
            return statement.executeUpdate();
        }
    }

    /** PostgreSQL's size of the values table with its index, in bytes, and its live rows, as counted now. */
    private long[] sizeAndRows(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT pg_total_relation_size('" + valuesTable + "'), count(*)"
                        + " FROM " + valuesTable)) {
            row.next();
            return new long[] {row.getLong(1), row.getLong(2)};
        }
    }
}
