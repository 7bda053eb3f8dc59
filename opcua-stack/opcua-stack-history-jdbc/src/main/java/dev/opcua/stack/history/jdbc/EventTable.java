package dev.opcua.stack.history.jdbc;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.history.events.EventBytes;
import dev.opcua.stack.server.history.events.EventKey;
import dev.opcua.stack.server.history.events.EventPage;
import dev.opcua.stack.server.history.events.EventQuery;
import dev.opcua.stack.server.history.events.EventSample;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The SQL of a store's events ({@code <table>_events}, {@link HistorySchema}): each notifier's events ordered by
 * (Time, EventId), appended, read and deleted by EventId for event history (Part 11, 6.5.2 ReadEventDetails and 6.9.7 DeleteEventDetails). Events come
 * far less often than values, so each call is one transaction of its own, with no buffer in front. Each method runs
 * in the caller's connection.
 */
final class EventTable {

    private final String table;
    private final EventBytes eventBytes = new EventBytes(CodecRegistry.standard());
    private final String deleteSql;
    private final String upsertSql;

    EventTable(String valuesTable) {
        table = HistorySchema.eventsTable(valuesTable);
        deleteSql = "DELETE FROM " + table + " WHERE notifier = ? AND event_id = ?";
        upsertSql = "INSERT INTO " + table + " (notifier, ts, event_id, event) VALUES (?, ?, ?, ?)"
                + " ON CONFLICT (notifier, ts, event_id) DO UPDATE SET event = EXCLUDED.event";
    }

    /** The table's name. */
    String name() {
        return table;
    }

    /** Appends the events in one transaction; an EventId kept already moves to the event's (new) time. */
    void append(Connection connection, List<EventSample> samples) throws SQLException {
        connection.setAutoCommit(false);
        try {
            // delete first, then upsert: the key holds the time, which may have changed
            try (PreparedStatement delete = connection.prepareStatement(deleteSql);
                    PreparedStatement insert = connection.prepareStatement(upsertSql)) {
                for (EventSample sample : samples) {
                    String notifier = sample.notifier().toString();
                    EventKey key = sample.key();
                    delete.setString(1, notifier);
                    delete.setBytes(2, key.eventId().unsafeBytes());
                    delete.addBatch();
                    insert.setString(1, notifier);
                    insert.setLong(2, key.ticks());
                    insert.setBytes(3, key.eventId().unsafeBytes());
                    insert.setBytes(4, eventBytes.encode(sample.event()));
                    insert.addBatch();
                }
                delete.executeBatch();
                insert.executeBatch();
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
    }

    /** A page of a notifier's events in the query's range, after the query's last key, streamed with a fetch size. */
    EventPage read(Connection connection, EventQuery query) throws SQLException {
        String sql = "SELECT event FROM " + table + " WHERE notifier = ? AND "
                + (query.backward() ? "ts <= ? AND ts > ?" : "ts >= ? AND ts < ?")
                + (query.after() == null ? "" : query.backward() ? " AND (ts, event_id) < (?, ?)"
                        : " AND (ts, event_id) > (?, ?)")
                + (query.backward() ? " ORDER BY ts DESC, event_id DESC" : " ORDER BY ts, event_id") + " LIMIT ?";
        List<UaEvent> found = new ArrayList<>();
        boolean more;
        connection.setAutoCommit(false); // a fetch size streams rows only inside a transaction
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setFetchSize(RowPages.FETCH_SIZE);
            int p = 1;
            statement.setString(p++, query.notifier().toString());
            statement.setLong(p++, query.start());
            statement.setLong(p++, query.end());
            if (query.after() != null) {
                statement.setLong(p++, query.after().ticks());
                statement.setBytes(p++, query.after().eventId().unsafeBytes());
            }
            more = RowPages.fetch(statement, p, query.limit(), row -> eventBytes.decode(row.getBytes(1)), found);
        } finally {
            connection.rollback();
        }
        return new EventPage(found, more);
    }

    /** Deletes a notifier's events by EventId in one transaction; per id whether it was kept (a null id never is). */
    List<Boolean> delete(Connection connection, NodeId notifier, List<ByteString> eventIds) throws SQLException {
        List<Boolean> deleted = new ArrayList<>(eventIds.size());
        connection.setAutoCommit(false);
        try (PreparedStatement statement = connection.prepareStatement(deleteSql)) {
            for (ByteString id : eventIds) {
                if (id.isNull()) {
                    deleted.add(false);
                    continue;
                }
                statement.setString(1, notifier.toString());
                statement.setBytes(2, id.unsafeBytes());
                deleted.add(statement.executeUpdate() > 0);
            }
            connection.commit();
        } catch (SQLException | RuntimeException e) {
            connection.rollback();
            throw e;
        }
        return deleted;
    }
}
