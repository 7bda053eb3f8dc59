package dev.opcua.stack.history.jdbc;

import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.enumerated.HistoryUpdateType;
import dev.opcua.stack.core.types.structured.ModificationInfo;
import dev.opcua.stack.server.history.DataValueBytes;
import dev.opcua.stack.server.history.HistoryModification;
import dev.opcua.stack.server.history.HistoryQuery;
import dev.opcua.stack.server.history.ModifiedPage;
import dev.opcua.stack.server.history.ModifiedValue;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL of the modified values ({@code <table>_modified}, {@link HistorySchema}): what HistoryUpdate inserted,
 * replaced or deleted, with who and when, for read-modified (Part 11, 6.5.3.3). Each method runs in the caller's
 * connection and transaction.
 */
final class ModifiedValueTable {

    private final String table;
    private final String keepSql;

    ModifiedValueTable(String valuesTable) {
        table = HistorySchema.modifiedTable(valuesTable);
        keepSql = "INSERT INTO " + table + " (node_id, ts, seq, dv, modified_at, update_type, user_name)"
                + " SELECT ?, ?, COALESCE(MAX(seq), 0) + 1, ?, ?, ?, ? FROM " + table + " WHERE node_id = ? AND ts = ?";
    }

    /** The table's name. */
    String name() {
        return table;
    }

    /** Adds a modified value after those kept at its time already. */
    void keep(Connection connection, String node, long ts, byte[] dv, HistoryUpdateType type, HistoryModification by)
            throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement(keepSql)) {
            insert.setString(1, node);
            insert.setLong(2, ts);
            insert.setBytes(3, dv);
            insert.setLong(4, by.time().utcTicks());
            insert.setInt(5, type.value());
            insert.setString(6, by.userName());
            insert.setString(7, node);
            insert.setLong(8, ts);
            insert.executeUpdate();
        }
    }

    /** A page of the modified values in the query's range, after {@code after} (null: from the start). */
    ModifiedPage read(Connection connection, HistoryQuery query, ModifiedValue after) throws SQLException {
        String sql = "SELECT ts, seq, dv, modified_at, update_type, user_name FROM " + table
                + " WHERE node_id = ? AND " + (query.backward() ? "ts <= ? AND ts > ?" : "ts >= ? AND ts < ?")
                + (after == null ? "" : query.backward() ? " AND (ts, seq) < (?, ?)" : " AND (ts, seq) > (?, ?)")
                + (query.backward() ? " ORDER BY ts DESC, seq DESC" : " ORDER BY ts, seq") + " LIMIT ?";
        List<ModifiedValue> found = new ArrayList<>();
        boolean more;
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            int p = 1;
            statement.setString(p++, query.nodeId().toString());
            statement.setLong(p++, query.start());
            statement.setLong(p++, query.end());
            if (after != null) {
                statement.setLong(p++, after.ticks());
                statement.setLong(p++, after.sequence());
            }
            more = RowPages.fetch(statement, p, query.limit(), row -> new ModifiedValue(row.getLong(1), row.getLong(2),
                    DataValueBytes.decode(row.getBytes(3)), new ModificationInfo(DateTime.ofTicks(row.getLong(4)),
                            HistoryUpdateType.fromValue(row.getInt(5)), row.getString(6))), found);
        }
        return new ModifiedPage(found, more);
    }
}
