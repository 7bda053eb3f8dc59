package dev.opcua.stack.history.jdbc;

import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.history.HistoryModification;
import dev.opcua.stack.server.history.HistoryPage;
import dev.opcua.stack.server.history.HistoryQuery;
import dev.opcua.stack.server.history.HistoryRetention;
import dev.opcua.stack.server.history.HistorySample;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.ModifiedPage;
import dev.opcua.stack.server.history.ModifiedValue;
import dev.opcua.stack.server.history.UpdateMode;
import dev.opcua.stack.server.history.UpdateOutcome;
import dev.opcua.stack.server.history.events.EventPage;
import dev.opcua.stack.server.history.events.EventQuery;
import dev.opcua.stack.server.history.events.EventSample;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link HistoryStore} (Part 11) in PostgreSQL through plain JDBC on the application's {@link DataSource} (schema
 * in {@link HistorySchema}, created on {@link #open}).
 *
 * <ul>
 *   <li>Appends go to a bounded buffer that one thread drains in batched transactions ({@link ValueWriter}); values
 *       not yet committed are not visible to reads.</li>
 *   <li>Reads, updates, deletes and trims run on {@code opcua-history-jdbc-io-N} threads, never on the caller's
 *       ({@link ConnectionWorkers}); a read walks the primary key {@code (node_id, ts)} and streams rows with a
 *       fetch size ({@link ValueTable}, {@link ModifiedValueTable}).</li>
 *   <li>Events are appended, read and deleted on the I/O threads, each call one transaction
 *       ({@link EventTable}).</li>
 *   <li>{@link #trim} deletes by age and by PostgreSQL's measure of the table's size ({@link TableRetention}).</li>
 * </ul>
 *
 * The store owns its threads and closes them in {@link #close}, after writing what the buffer holds; the
 * DataSource stays the application's.
 */
public final class JdbcHistoryStore implements HistoryStore {

    private static final Logger log = LoggerFactory.getLogger(JdbcHistoryStore.class);

    private final JdbcHistoryOptions options;
    private final boolean hypertable;
    private final ValueTable values;
    private final ModifiedValueTable modified;
    private final EventTable events;
    private final TableRetention retention;
    private final ValueWriter writer;
    private final ConnectionWorkers workers;
    private volatile boolean closed;

    private JdbcHistoryStore(DataSource dataSource, JdbcHistoryOptions options, boolean hypertable) {
        this.options = options;
        this.hypertable = hypertable;
        modified = new ModifiedValueTable(options.table());
        values = new ValueTable(options.table(), modified);
        events = new EventTable(options.table());
        retention = new TableRetention(values.name(), events.name(), modified.name());
        writer = new ValueWriter(dataSource, values, options);
        workers = new ConnectionWorkers(dataSource, options.table(), options.ioThreads());
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
        return writer.writtenCount();
    }

    @Override
    public CompletableFuture<Void> append(List<HistorySample> samples) {
        checkOpen();
        return writer.append(samples);
    }

    @Override
    public CompletableFuture<HistoryPage> read(HistoryQuery query) {
        checkOpen();
        if (query.isEmpty()) {
            return CompletableFuture.completedFuture(HistoryPage.EMPTY);
        }
        return workers.supply(connection -> values.read(connection, query));
    }

    @Override
    public CompletableFuture<List<UpdateOutcome>> update(NodeId nodeId, UpdateMode mode, List<DataValue> values) {
        checkOpen();
        String node = nodeId.toString();
        return workers.supply(connection -> this.values.update(connection, node, mode, values));
    }

    @Override
    public CompletableFuture<List<UpdateOutcome>> update(NodeId nodeId, UpdateMode mode, List<DataValue> values,
            HistoryModification by) {
        checkOpen();
        String node = nodeId.toString();
        List<DataValue> copy = List.copyOf(values);
        return workers.supply(connection -> this.values.update(connection, node, mode, copy, by));
    }

    @Override
    public CompletableFuture<Long> delete(NodeId nodeId, long startTicks, long endTicks) {
        checkOpen();
        if (startTicks >= endTicks) {
            return CompletableFuture.completedFuture(0L);
        }
        return workers.supply(connection -> values.delete(connection, nodeId.toString(), startTicks, endTicks));
    }

    @Override
    public CompletableFuture<Long> delete(NodeId nodeId, long startTicks, long endTicks, HistoryModification by) {
        checkOpen();
        if (startTicks >= endTicks) {
            return CompletableFuture.completedFuture(0L);
        }
        return workers.supply(connection -> values.delete(connection, nodeId.toString(), startTicks, endTicks, by));
    }

    @Override
    public CompletableFuture<ModifiedPage> readModified(HistoryQuery query, ModifiedValue after) {
        checkOpen();
        if (query.isEmpty()) {
            return CompletableFuture.completedFuture(ModifiedPage.EMPTY);
        }
        return workers.supply(connection -> modified.read(connection, query, after));
    }

    @Override
    public CompletableFuture<Void> appendEvents(List<EventSample> samples) {
        checkOpen();
        if (samples.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        List<EventSample> copy = List.copyOf(samples);
        return workers.supply(connection -> {
            events.append(connection, copy);
            return null;
        });
    }

    @Override
    public CompletableFuture<EventPage> readEvents(EventQuery query) {
        checkOpen();
        if (query.isEmpty()) {
            return CompletableFuture.completedFuture(EventPage.EMPTY);
        }
        return workers.supply(connection -> events.read(connection, query));
    }

    @Override
    public CompletableFuture<List<Boolean>> deleteEvents(NodeId notifier, List<ByteString> eventIds) {
        checkOpen();
        List<ByteString> copy = List.copyOf(eventIds);
        return workers.supply(connection -> events.delete(connection, notifier, copy));
    }

    @Override
    public CompletableFuture<Long> trim(HistoryRetention retention, long nowTicks) {
        checkOpen();
        if (retention.isUnlimited()) {
            return CompletableFuture.completedFuture(0L);
        }
        return workers.supply(connection -> this.retention.trim(connection, retention, nowTicks));
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
        writer.close();
        workers.close();
        log.info("history store on table {} closed after writing {} values", options.table(), writer.writtenCount());
    }
}
