package dev.opcua.stack.history.jdbc;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.HistoryUpdateType;
import dev.opcua.stack.core.types.structured.ModificationInfo;
import dev.opcua.stack.server.history.DataValueBytes;
import dev.opcua.stack.server.history.HistoryModification;
import dev.opcua.stack.server.history.HistoryPage;
import dev.opcua.stack.server.history.HistoryQuery;
import dev.opcua.stack.server.history.HistoryRetention;
import dev.opcua.stack.server.history.HistorySample;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.HistoryTime;
import dev.opcua.stack.server.history.ModifiedPage;
import dev.opcua.stack.server.history.ModifiedValue;
import dev.opcua.stack.server.history.UpdateMode;
import dev.opcua.stack.server.history.UpdateOutcome;
import dev.opcua.stack.server.history.events.EventBytes;
import dev.opcua.stack.server.history.events.EventKey;
import dev.opcua.stack.server.history.events.EventPage;
import dev.opcua.stack.server.history.events.EventQuery;
import dev.opcua.stack.server.history.events.EventSample;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link HistoryStore} in PostgreSQL through plain JDBC on the application's {@link DataSource} (schema in
 * {@link HistorySchema}, created on {@link #open}).
 *
 * <ul>
 *   <li>Appends go to a bounded buffer that one thread, {@code opcua-history-jdbc-writer}, drains: up to
 *       batchSize values per batched upsert in one transaction, at the latest after flushInterval. An append's
 *       future completes when its values are committed, or fails with the database's error (BadInternalError)
 *       or, while the buffer is full, at once with BadResourceUnavailable. Values not yet committed are not
 *       visible to reads.</li>
 *   <li>Reads, updates, deletes and trims run on {@code opcua-history-jdbc-io-N} threads, never on the caller's;
 *       a read walks the primary key {@code (node_id, ts)} and streams rows with a fetch size.</li>
 *   <li>Events ({@link HistorySchema}'s events table) are appended, read and deleted on the I/O threads, each call
 *       one transaction: events come far less often than values, so they need no buffer of their own.</li>
 *   <li>{@link #trim}: the age by one DELETE (values and events); the size by PostgreSQL's own measure of the table and its index
 *       ({@code pg_total_relation_size}): while it exceeds maxBytes, the oldest rows go, as many as the excess
 *       holds at the table's average row size. PostgreSQL reuses the space of deleted rows after VACUUM
 *       (autovacuum does it); the file does not shrink.</li>
 * </ul>
 *
 * The store owns its threads and closes them in {@link #close}, after writing what the buffer holds; the
 * DataSource stays the application's.
 */
public final class JdbcHistoryStore implements HistoryStore {

    private static final Logger log = LoggerFactory.getLogger(JdbcHistoryStore.class);
    private static final int FETCH_SIZE = 10_000;

    private final DataSource dataSource;
    private final JdbcHistoryOptions options;
    private final boolean hypertable;
    private final DataValueBytes bytes = new DataValueBytes(); // writer thread only
    private final LinkedBlockingQueue<Append> queue = new LinkedBlockingQueue<>();
    private final AtomicInteger buffered = new AtomicInteger();
    private final AtomicLong written = new AtomicLong();
    private final ExecutorService io;
    private final Thread writer;
    private volatile boolean closed;

    private final String upsertSql;
    private final String insertSql;
    private final String replaceSql;
    private final String readForwardSql;
    private final String readBackwardSql;
    private final String deleteSql;
    private final String eventsTable;
    private final String modifiedTable;
    private final EventBytes eventBytes = new EventBytes(CodecRegistry.standard());

    /** One append call: its values and the future that completes when they are committed. */
    private record Append(List<HistorySample> samples, CompletableFuture<Void> done) {
    }

    /** Put last in the queue by {@link #close}: the writer stops when it reaches it. */
    private static final Append STOP = new Append(List.of(), new CompletableFuture<>());

    private JdbcHistoryStore(DataSource dataSource, JdbcHistoryOptions options, boolean hypertable) {
        this.dataSource = dataSource;
        this.options = options;
        this.hypertable = hypertable;
        String t = options.table();
        upsertSql = "INSERT INTO " + t + " (node_id, ts, dv) VALUES (?, ?, ?)"
                + " ON CONFLICT (node_id, ts) DO UPDATE SET dv = EXCLUDED.dv";
        insertSql = "INSERT INTO " + t + " (node_id, ts, dv) VALUES (?, ?, ?) ON CONFLICT (node_id, ts) DO NOTHING";
        replaceSql = "UPDATE " + t + " SET dv = ? WHERE node_id = ? AND ts = ?";
        readForwardSql = "SELECT dv FROM " + t + " WHERE node_id = ? AND ts >= ? AND ts < ? ORDER BY ts LIMIT ?";
        readBackwardSql = "SELECT dv FROM " + t + " WHERE node_id = ? AND ts <= ? AND ts > ? ORDER BY ts DESC LIMIT ?";
        deleteSql = "DELETE FROM " + t + " WHERE node_id = ? AND ts >= ? AND ts < ?";
        eventsTable = HistorySchema.eventsTable(t);
        modifiedTable = HistorySchema.modifiedTable(t);
        AtomicInteger ioIndex = new AtomicInteger();
        io = java.util.concurrent.Executors.newFixedThreadPool(options.ioThreads(), r -> {
            Thread thread = new Thread(r, "opcua-history-jdbc-io-" + ioIndex.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
        writer = new Thread(this::writeLoop, "opcua-history-jdbc-writer");
        writer.setDaemon(true);
    }

    /**
     * Creates the table when missing (and the hypertable where TimescaleDB is available and wanted), then starts
     * the writer.
     *
     * @throws SQLException when the database cannot be reached or the table cannot be created
     */
    public static JdbcHistoryStore open(DataSource dataSource, JdbcHistoryOptions options) throws SQLException {
        Objects.requireNonNull(dataSource, "dataSource");
        Objects.requireNonNull(options, "options");
        boolean hypertable;
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(true);
            hypertable = HistorySchema.create(connection, options.table(), options.timescale());
        }
        JdbcHistoryStore store = new JdbcHistoryStore(dataSource, options, hypertable);
        store.writer.start();
        log.info("history store on table {} ({}), batches of {}, buffer of {}", options.table(),
                hypertable ? "TimescaleDB hypertable" : "plain table", options.batchSize(), options.bufferCapacity());
        return store;
    }

    /** Whether the table is a TimescaleDB hypertable. */
    public boolean isHypertable() {
        return hypertable;
    }

    /** Values committed by the writer since the store opened. */
    public long writtenCount() {
        return written.get();
    }

    @Override
    public CompletableFuture<Void> append(List<HistorySample> samples) {
        checkOpen();
        if (samples.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        if (buffered.addAndGet(samples.size()) > options.bufferCapacity()) {
            buffered.addAndGet(-samples.size());
            return CompletableFuture.failedFuture(new UaException(StatusCodes.BadResourceUnavailable,
                    "the history buffer holds " + options.bufferCapacity() + " values waiting for the database"));
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        queue.add(new Append(List.copyOf(samples), done));
        return done;
    }

    /** The writer: takes appends until a batch is full or the flush interval passed, writes them in one transaction. */
    private void writeLoop() {
        long waitNanos = options.flushInterval().toNanos();
        List<Append> batch = new ArrayList<>();
        while (true) {
            try {
                Append first = queue.poll(waitNanos, TimeUnit.NANOSECONDS);
                if (first == STOP) {
                    return; // the queue is FIFO: everything appended before close is written
                }
                if (first == null) {
                    continue;
                }
                batch.add(first);
                int values = first.samples.size();
                Append next;
                while (values < options.batchSize() && (next = queue.peek()) != null && next != STOP) {
                    batch.add(queue.poll());
                    values += next.samples.size();
                }
                write(batch, values);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                batch.clear();
            }
        }
    }

    private void write(List<Append> batch, int values) {
        // One row per key: a batch holding two values of a node at one time keeps the later (append replaces).
        Map<String, Object[]> rows = new LinkedHashMap<>(values * 2);
        for (Append append : batch) {
            for (HistorySample sample : append.samples) {
                String node = sample.nodeId().toString();
                long ts = HistoryTime.ticksOf(sample.value());
                rows.put(node + '\u0000' + ts, new Object[] {node, ts, bytes.encode(sample.value())});
            }
        }
        Throwable failure = null;
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try (PreparedStatement statement = connection.prepareStatement(upsertSql)) {
                for (Object[] row : rows.values()) {
                    statement.setString(1, (String) row[0]);
                    statement.setLong(2, (Long) row[1]);
                    statement.setBytes(3, (byte[]) row[2]);
                    statement.addBatch();
                }
                statement.executeBatch();
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException | RuntimeException e) {
            failure = e;
            log.error("history writer: a batch of {} values could not be written to {}", values, options.table(), e);
        }
        buffered.addAndGet(-values);
        if (failure == null) {
            written.addAndGet(values);
        }
        for (Append append : batch) {
            if (failure == null) {
                append.done.complete(null);
            } else {
                append.done.completeExceptionally(new UaException(StatusCodes.BadInternalError,
                        "writing history failed: " + failure.getMessage()));
            }
        }
    }

    @Override
    public CompletableFuture<HistoryPage> read(HistoryQuery query) {
        checkOpen();
        if (query.isEmpty()) {
            return CompletableFuture.completedFuture(HistoryPage.EMPTY);
        }
        return supply(connection -> {
            List<DataValue> values = new ArrayList<>();
            boolean more = false;
            connection.setAutoCommit(false); // a fetch size streams rows only inside a transaction
            try (PreparedStatement statement = connection.prepareStatement(
                    query.backward() ? readBackwardSql : readForwardSql)) {
                statement.setFetchSize(FETCH_SIZE);
                statement.setString(1, query.nodeId().toString());
                statement.setLong(2, query.start());
                statement.setLong(3, query.end());
                more = fetchPage(statement, 4, query.limit(), row -> DataValueBytes.decode(row.getBytes(1)), values);
            } finally {
                connection.rollback();
            }
            return new HistoryPage(values, more);
        });
    }

    @Override
    public CompletableFuture<List<UpdateOutcome>> update(NodeId nodeId, UpdateMode mode, List<DataValue> values) {
        checkOpen();
        String node = nodeId.toString();
        return supply(connection -> {
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
        });
    }

    private UpdateOutcome updateOne(Connection connection, String node, UpdateMode mode, byte[] encoded, long ts)
            throws SQLException {
        if (mode == UpdateMode.REPLACE) {
            try (PreparedStatement statement = connection.prepareStatement(replaceSql)) {
                statement.setBytes(1, encoded);
                statement.setString(2, node);
                statement.setLong(3, ts);
                return statement.executeUpdate() == 1 ? UpdateOutcome.REPLACED : UpdateOutcome.NO_ENTRY_EXISTS;
            }
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
        try (PreparedStatement statement = connection.prepareStatement(replaceSql)) {
            statement.setBytes(1, encoded);
            statement.setString(2, node);
            statement.setLong(3, ts);
            statement.executeUpdate();
            return UpdateOutcome.REPLACED;
        }
    }

    @Override
    public CompletableFuture<List<UpdateOutcome>> update(NodeId nodeId, UpdateMode mode, List<DataValue> values,
            HistoryModification by) {
        checkOpen();
        String node = nodeId.toString();
        List<DataValue> copy = List.copyOf(values);
        return supply(connection -> {
            List<UpdateOutcome> outcomes = new ArrayList<>(copy.size());
            DataValueBytes bytes = new DataValueBytes();
            connection.setAutoCommit(false);
            try (PreparedStatement current = connection.prepareStatement(
                    "SELECT dv FROM " + options.table() + " WHERE node_id = ? AND ts = ? FOR UPDATE");
                    PreparedStatement upsert = connection.prepareStatement(upsertSql)) {
                for (DataValue value : copy) {
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
                        upsert.setString(1, node);
                        upsert.setLong(2, ts);
                        byte[] encoded = bytes.encode(value);
                        upsert.setBytes(3, encoded);
                        upsert.executeUpdate();
                        outcomes.add(old != null ? UpdateOutcome.REPLACED : UpdateOutcome.INSERTED);
                        keep(connection, node, ts, old != null ? old : encoded,
                                mode.modificationType(old != null), by);
                    }
                }
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
            return outcomes;
        });
    }

    /** Adds a modified value after those kept at its time already, in the caller's transaction. */
    private void keep(Connection connection, String node, long ts, byte[] dv, HistoryUpdateType type,
            HistoryModification by) throws SQLException {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO " + modifiedTable
                + " (node_id, ts, seq, dv, modified_at, update_type, user_name) SELECT ?, ?, COALESCE(MAX(seq), 0) + 1,"
                + " ?, ?, ?, ? FROM " + modifiedTable + " WHERE node_id = ? AND ts = ?")) {
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

    @Override
    public CompletableFuture<Long> delete(NodeId nodeId, long startTicks, long endTicks, HistoryModification by) {
        checkOpen();
        if (startTicks >= endTicks) {
            return CompletableFuture.completedFuture(0L);
        }
        String node = nodeId.toString();
        return supply(connection -> {
            connection.setAutoCommit(false);
            long count = 0;
            try (PreparedStatement statement = connection.prepareStatement(deleteSql + " RETURNING ts, dv")) {
                statement.setString(1, node);
                statement.setLong(2, startTicks);
                statement.setLong(3, endTicks);
                List<Object[]> deleted = new ArrayList<>();
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        deleted.add(new Object[] {rows.getLong(1), rows.getBytes(2)});
                    }
                }
                for (Object[] row : deleted) {
                    keep(connection, node, (Long) row[0], (byte[]) row[1], HistoryUpdateType.Delete, by);
                }
                count = deleted.size();
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
            return count;
        });
    }

    @Override
    public CompletableFuture<ModifiedPage> readModified(HistoryQuery query, ModifiedValue after) {
        checkOpen();
        if (query.isEmpty()) {
            return CompletableFuture.completedFuture(ModifiedPage.EMPTY);
        }
        String sql = "SELECT ts, seq, dv, modified_at, update_type, user_name FROM " + modifiedTable
                + " WHERE node_id = ? AND " + (query.backward() ? "ts <= ? AND ts > ?" : "ts >= ? AND ts < ?")
                + (after == null ? "" : query.backward() ? " AND (ts, seq) < (?, ?)" : " AND (ts, seq) > (?, ?)")
                + (query.backward() ? " ORDER BY ts DESC, seq DESC" : " ORDER BY ts, seq") + " LIMIT ?";
        return supply(connection -> {
            List<ModifiedValue> found = new ArrayList<>();
            boolean more = false;
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                int p = 1;
                statement.setString(p++, query.nodeId().toString());
                statement.setLong(p++, query.start());
                statement.setLong(p++, query.end());
                if (after != null) {
                    statement.setLong(p++, after.ticks());
                    statement.setLong(p++, after.sequence());
                }
                more = fetchPage(statement, p, query.limit(), row -> new ModifiedValue(row.getLong(1), row.getLong(2),
                        DataValueBytes.decode(row.getBytes(3)), new ModificationInfo(DateTime.ofTicks(row.getLong(4)),
                                HistoryUpdateType.fromValue(row.getInt(5)), row.getString(6))), found);
            }
            return new ModifiedPage(found, more);
        });
    }

    @Override
    public CompletableFuture<Long> delete(NodeId nodeId, long startTicks, long endTicks) {
        checkOpen();
        if (startTicks >= endTicks) {
            return CompletableFuture.completedFuture(0L);
        }
        return supply(connection -> {
            connection.setAutoCommit(true);
            try (PreparedStatement statement = connection.prepareStatement(deleteSql)) {
                statement.setString(1, nodeId.toString());
                statement.setLong(2, startTicks);
                statement.setLong(3, endTicks);
                return (long) statement.executeUpdate();
            }
        });
    }

    @Override
    public CompletableFuture<Void> appendEvents(List<EventSample> samples) {
        checkOpen();
        if (samples.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        List<EventSample> copy = List.copyOf(samples);
        return supply(connection -> {
            connection.setAutoCommit(false);
            try {
                // an EventId kept already moves to the event's (new) time: delete it first, then upsert
                try (PreparedStatement delete = connection.prepareStatement(
                        "DELETE FROM " + eventsTable + " WHERE notifier = ? AND event_id = ?");
                        PreparedStatement insert = connection.prepareStatement("INSERT INTO " + eventsTable
                                + " (notifier, ts, event_id, event) VALUES (?, ?, ?, ?) ON CONFLICT (notifier, ts,"
                                + " event_id) DO UPDATE SET event = EXCLUDED.event")) {
                    for (EventSample sample : copy) {
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
            return null;
        });
    }

    @Override
    public CompletableFuture<EventPage> readEvents(EventQuery query) {
        checkOpen();
        if (query.isEmpty()) {
            return CompletableFuture.completedFuture(EventPage.EMPTY);
        }
        String sql = "SELECT event FROM " + eventsTable + " WHERE notifier = ? AND "
                + (query.backward() ? "ts <= ? AND ts > ?" : "ts >= ? AND ts < ?")
                + (query.after() == null ? "" : query.backward() ? " AND (ts, event_id) < (?, ?)"
                        : " AND (ts, event_id) > (?, ?)")
                + (query.backward() ? " ORDER BY ts DESC, event_id DESC" : " ORDER BY ts, event_id") + " LIMIT ?";
        return supply(connection -> {
            List<UaEvent> found = new ArrayList<>();
            boolean more = false;
            connection.setAutoCommit(false); // a fetch size streams rows only inside a transaction
            try (PreparedStatement statement = connection.prepareStatement(sql)) {
                statement.setFetchSize(FETCH_SIZE);
                int p = 1;
                statement.setString(p++, query.notifier().toString());
                statement.setLong(p++, query.start());
                statement.setLong(p++, query.end());
                if (query.after() != null) {
                    statement.setLong(p++, query.after().ticks());
                    statement.setBytes(p++, query.after().eventId().unsafeBytes());
                }
                more = fetchPage(statement, p, query.limit(), row -> eventBytes.decode(row.getBytes(1)), found);
            } finally {
                connection.rollback();
            }
            return new EventPage(found, more);
        });
    }

    /**
     * Binds the LIMIT parameter at {@code index} (one row more than {@code limit}, to learn whether more follow;
     * none for 0), runs the query and reads up to {@code limit} rows into {@code out}.
     *
     * @return whether more rows follow
     */
    private static <T> boolean fetchPage(PreparedStatement statement, int index, long limit, RowReader<T> reader,
            List<T> out) throws SQLException {
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

    /** Makes one element of a page from the current row. */
    @FunctionalInterface
    private interface RowReader<T> {
        T read(ResultSet row) throws SQLException;
    }

    @Override
    public CompletableFuture<List<Boolean>> deleteEvents(NodeId notifier, List<ByteString> eventIds) {
        checkOpen();
        List<ByteString> copy = List.copyOf(eventIds);
        return supply(connection -> {
            List<Boolean> deleted = new ArrayList<>(copy.size());
            connection.setAutoCommit(false);
            try (PreparedStatement statement = connection.prepareStatement(
                    "DELETE FROM " + eventsTable + " WHERE notifier = ? AND event_id = ?")) {
                for (ByteString id : copy) {
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
        });
    }

    @Override
    public CompletableFuture<Long> trim(HistoryRetention retention, long nowTicks) {
        checkOpen();
        if (retention.isUnlimited()) {
            return CompletableFuture.completedFuture(0L);
        }
        String t = options.table();
        return supply(connection -> {
            connection.setAutoCommit(true);
            long deleted = 0;
            long oldest = retention.oldestTicks(nowTicks);
            if (oldest != Long.MIN_VALUE) {
                for (String table : new String[] {t, eventsTable, modifiedTable}) {
                    try (PreparedStatement statement = connection.prepareStatement(
                            "DELETE FROM " + table + " WHERE ts < ?")) {
                        statement.setLong(1, oldest);
                        deleted += statement.executeUpdate();
                    }
                }
            }
            if (retention.maxBytes() > 0) {
                long[] sizeAndRows = sizeAndRows(connection, t);
                long excess = sizeAndRows[0] - retention.maxBytes();
                if (excess > 0 && sizeAndRows[1] > 0) {
                    long perRow = Math.max(1, sizeAndRows[0] / sizeAndRows[1]);
                    long rows = Math.min(sizeAndRows[1], (excess + perRow - 1) / perRow);
                    try (PreparedStatement statement = connection.prepareStatement("DELETE FROM " + t
                            + " WHERE ctid IN (SELECT ctid FROM " + t + " ORDER BY ts LIMIT ?)")) {
                        statement.setLong(1, rows);
                        deleted += statement.executeUpdate();
                    }
                }
            }
            if (deleted > 0) {
                log.info("history retention deleted {} values from {}", deleted, t);
            }
            return deleted;
        });
    }

    /** PostgreSQL's size of the table with its index, in bytes, and its live rows, as counted now. */
    private static long[] sizeAndRows(Connection connection, String table) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery("SELECT pg_total_relation_size('" + table + "'), count(*) FROM "
                        + table)) {
            row.next();
            return new long[] {row.getLong(1), row.getLong(2)};
        }
    }

    /** What an I/O thread does with one connection. */
    @FunctionalInterface
    private interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs the work on an I/O thread with a connection of its own; a SQL failure fails the future (BadInternalError). */
    private <T> CompletableFuture<T> supply(Work<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            io.execute(() -> {
                try (Connection connection = dataSource.getConnection()) {
                    boolean autoCommit = connection.getAutoCommit();
                    try {
                        result.complete(work.run(connection));
                    } finally {
                        connection.setAutoCommit(autoCommit);
                    }
                } catch (SQLException | RuntimeException e) {
                    log.warn("history store on {}: {}", options.table(), e.toString());
                    result.completeExceptionally(new UaException(StatusCodes.BadInternalError,
                            "history database: " + e.getMessage()));
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            result.completeExceptionally(new IllegalStateException("the history store is closed"));
        }
        return result;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the history store is closed");
        }
    }

    /** Writes what the buffer holds, then stops the writer and the I/O threads (waiting up to 30 s each). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        queue.add(STOP);
        try {
            writer.join(TimeUnit.SECONDS.toMillis(30));
            if (writer.isAlive()) {
                log.warn("history writer still busy after 30 s; {} values not written", buffered.get());
                writer.interrupt();
            }
            io.shutdown();
            if (!io.awaitTermination(30, TimeUnit.SECONDS)) {
                io.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            io.shutdownNow();
        }
        // an append that raced with close, queued behind STOP, is answered rather than left waiting
        Append late;
        while ((late = queue.poll()) != null) {
            late.done.completeExceptionally(new IllegalStateException("the history store is closed"));
        }
        log.info("history store on table {} closed after writing {} values", options.table(), written.get());
    }
}
