package dev.opcua.stack.history.jdbc;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.enumerated.HistoryUpdateType;
import dev.opcua.stack.server.history.DataValueBytes;
import dev.opcua.stack.server.history.HistoryModification;
import dev.opcua.stack.server.history.HistoryPage;
import dev.opcua.stack.server.history.HistoryQuery;
import dev.opcua.stack.server.history.HistoryTime;
import dev.opcua.stack.server.history.UpdateMode;
import dev.opcua.stack.server.history.UpdateOutcome;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * The SQL of a store's values ({@link HistorySchema}'s values table, one row per node and time): the writer's
 * batched upsert, and the reads, updates and deletes of a node's time range that walk the primary key
 * {@code (node_id, ts)}. Each method runs in the caller's connection; those that change several rows commit or roll
 * back what they did as one transaction, recording in {@link ModifiedValueTable} what they replaced or deleted.
 */
final class ValueTable {

    /** One row of the table: a node's value at a time. */
    record Row(String node, long ts, byte[] dv) {
    }

    private final String table;
    private final ModifiedValueTable modified;
    private final String upsertSql;
    private final String insertSql;
    private final String replaceSql;
    private final String currentSql;
    private final String readForwardSql;
    private final String readBackwardSql;
    private final String deleteSql;

    ValueTable(String table, ModifiedValueTable modified) {
        this.table = table;
        this.modified = modified;
        upsertSql = "INSERT INTO " + table + " (node_id, ts, dv) VALUES (?, ?, ?)"
                + " ON CONFLICT (node_id, ts) DO UPDATE SET dv = EXCLUDED.dv";
        insertSql = "INSERT INTO " + table + " (node_id, ts, dv) VALUES (?, ?, ?) ON CONFLICT (node_id, ts) DO NOTHING";
        replaceSql = "UPDATE " + table + " SET dv = ? WHERE node_id = ? AND ts = ?";
        currentSql = "SELECT dv FROM " + table + " WHERE node_id = ? AND ts = ? FOR UPDATE";
        readForwardSql = "SELECT dv FROM " + table + " WHERE node_id = ? AND ts >= ? AND ts < ? ORDER BY ts LIMIT ?";
        readBackwardSql = "SELECT dv FROM " + table + " WHERE node_id = ? AND ts <= ? AND ts > ? ORDER BY ts DESC LIMIT ?";
        deleteSql = "DELETE FROM " + table + " WHERE node_id = ? AND ts >= ? AND ts < ?";
    }

    /** The table's name. */
    String name() {
        return table;
    }

    /** Writes the rows in one batched upsert, in the caller's transaction: a row at a kept time replaces it. */
    void upsert(Connection connection, Collection<Row> rows) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(upsertSql)) {
            for (Row row : rows) {
                statement.setString(1, row.node());
                statement.setLong(2, row.ts());
                statement.setBytes(3, row.dv());
                statement.addBatch();
            }
            statement.executeBatch();
        }
    }

    /** A page of the query's values, streamed with a fetch size. */
    HistoryPage read(Connection connection, HistoryQuery query) throws SQLException {
        List<DataValue> values = new ArrayList<>();
        boolean more;
        connection.setAutoCommit(false); // a fetch size streams rows only inside a transaction
        try (PreparedStatement statement = connection.prepareStatement(
                query.backward() ? readBackwardSql : readForwardSql)) {
            statement.setFetchSize(RowPages.FETCH_SIZE);
            statement.setString(1, query.nodeId().toString());
            statement.setLong(2, query.start());
            statement.setLong(3, query.end());
            more = RowPages.fetch(statement, 4, query.limit(), row -> DataValueBytes.decode(row.getBytes(1)), values);
        } finally {
            connection.rollback();
        }
        return new HistoryPage(values, more);
    }

    /** Inserts, replaces or upserts each value by its time, keeping no modified values. */
    List<UpdateOutcome> update(Connection connection, String node, UpdateMode mode, List<DataValue> values)
            throws SQLException {
        List<UpdateOutcome> outcomes = new ArrayList<>(values.size());
        DataValueBytes bytes = new DataValueBytes();
        connection.setAutoCommit(false);
        try {
            for (DataValue value : values) {
                outcomes.add(updateOne(connection, node, mode, bytes.encode(value), HistoryTime.ticksOf(value)));
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
        return outcomes;
    }

    private UpdateOutcome updateOne(Connection connection, String node, UpdateMode mode, byte[] encoded, long ts)
            throws SQLException {
        if (mode == UpdateMode.REPLACE) {
            return replace(connection, node, ts, encoded) ? UpdateOutcome.REPLACED : UpdateOutcome.NO_ENTRY_EXISTS;
        }
        try (PreparedStatement statement = connection.prepareStatement(insertSql)) {
            statement.setString(1, node);
            statement.setLong(2, ts);
            statement.setBytes(3, encoded);
            if (statement.executeUpdate() == 1) {
                return UpdateOutcome.INSERTED;
            }
        }
        if (mode == UpdateMode.INSERT) {
            return UpdateOutcome.ENTRY_EXISTS;
        }
        replace(connection, node, ts, encoded);
        return UpdateOutcome.REPLACED;
    }

    /** Replaces the value at a time; whether there was one. */
    private boolean replace(Connection connection, String node, long ts, byte[] encoded) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(replaceSql)) {
            statement.setBytes(1, encoded);
            statement.setString(2, node);
            statement.setLong(3, ts);
            return statement.executeUpdate() == 1;
        }
    }

    /**
     * Inserts, replaces or upserts each value by its time, keeping the value inserted or the one replaced as a
     * modified value with {@code by}.
     */
    List<UpdateOutcome> update(Connection connection, String node, UpdateMode mode, List<DataValue> values,
            HistoryModification by) throws SQLException {
        List<UpdateOutcome> outcomes = new ArrayList<>(values.size());
        DataValueBytes bytes = new DataValueBytes();
        connection.setAutoCommit(false);
        try (PreparedStatement current = connection.prepareStatement(currentSql);
                PreparedStatement upsert = connection.prepareStatement(upsertSql)) {
            for (DataValue value : values) {
                long ts = HistoryTime.ticksOf(value);
                current.setString(1, node);
                current.setLong(2, ts);
                byte[] old;
                try (ResultSet row = current.executeQuery()) {
                    old = row.next() ? row.getBytes(1) : null;
                }
                if (old != null && mode == UpdateMode.INSERT) {
                    outcomes.add(UpdateOutcome.ENTRY_EXISTS);
                } else if (old == null && mode == UpdateMode.REPLACE) {
                    outcomes.add(UpdateOutcome.NO_ENTRY_EXISTS);
                } else {
                    byte[] encoded = bytes.encode(value);
                    upsert.setString(1, node);
                    upsert.setLong(2, ts);
                    upsert.setBytes(3, encoded);
                    upsert.executeUpdate();
                    outcomes.add(old != null ? UpdateOutcome.REPLACED : UpdateOutcome.INSERTED);
                    modified.keep(connection, node, ts, old != null ? old : encoded, mode.modificationType(old != null),
                            by);
                }
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
        return outcomes;
    }

    /** Deletes a node's values in [start, end); how many. */
    long delete(Connection connection, String node, long startTicks, long endTicks) throws SQLException {
        connection.setAutoCommit(true);
        try (PreparedStatement statement = connection.prepareStatement(deleteSql)) {
            statement.setString(1, node);
            statement.setLong(2, startTicks);
            statement.setLong(3, endTicks);
            return statement.executeUpdate();
        }
    }

    /** Deletes a node's values in [start, end), keeping each as a modified value with {@code by}; how many. */
    long delete(Connection connection, String node, long startTicks, long endTicks, HistoryModification by)
            throws SQLException {
        connection.setAutoCommit(false);
        try (PreparedStatement statement = connection.prepareStatement(deleteSql + " RETURNING ts, dv")) {
            statement.setString(1, node);
            statement.setLong(2, startTicks);
            statement.setLong(3, endTicks);
            List<Row> deleted = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    deleted.add(new Row(node, rows.getLong(1), rows.getBytes(2)));
                }
            }
            for (Row row : deleted) {
                modified.keep(connection, node, row.ts(), row.dv(), HistoryUpdateType.Delete, by);
            }
            connection.commit();
            return deleted.size();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
    }
}
