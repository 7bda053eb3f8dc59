package dev.opcua.stack.history.jdbc;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/** Reads one page of a query's rows, for the continuation points of HistoryRead (Part 11, 6.3). */
final class RowPages {

    /** Rows fetched per round trip while a read streams its rows. */
    static final int FETCH_SIZE = 10_000;

    /** Makes one element of a page from the current row. */
    @FunctionalInterface
    interface RowReader<T> {
        T read(ResultSet row) throws SQLException;
    }

    private RowPages() {
    }

    /**
     * Binds the LIMIT parameter at {@code index} (one row more than {@code limit}, to learn whether more follow;
     * none for 0), runs the query and reads up to {@code limit} rows into {@code out}.
     *
     * @return whether more rows follow
     */
    static <T> boolean fetch(PreparedStatement statement, int index, long limit, RowReader<T> reader, List<T> out)
            throws SQLException {
        if (limit > 0) {
            statement.setLong(index, limit + 1L);
        } else {
            statement.setNull(index, Types.BIGINT);
        }
        try (ResultSet rows = statement.executeQuery()) {
            while (rows.next()) {
                if (limit > 0 && out.size() == limit) {
                    return true;
                }
                out.add(reader.read(rows));
            }
        }
        return false;
    }
}
