package dev.opcua.stack.history.jdbc;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.history.DataValueBytes;
import dev.opcua.stack.server.history.HistorySample;
import dev.opcua.stack.server.history.HistoryTime;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The buffer in front of a store's values table and the one thread, {@code opcua-history-jdbc-writer}, that drains
 * it: up to batchSize values per batched upsert in one transaction, at the latest after flushInterval. An append's
 * future completes when its values are committed, or fails with the database's error (BadInternalError) or, while
 * the buffer is full, at once with BadResourceUnavailable, so that memory does not grow while the database is slow
 * or away.
 */
final class ValueWriter {

    private static final Logger log = LoggerFactory.getLogger(ValueWriter.class);

    /** One append call: its values and the future that completes when they are committed. */
    private record Append(List<HistorySample> samples, CompletableFuture<Void> done) {
    }

    /** Put last in the queue by {@link #close}: the writer stops when it reaches it. */
    private static final Append STOP = new Append(List.of(), new CompletableFuture<>());

    private final DataSource dataSource;
    private final ValueTable values;
    private final JdbcHistoryOptions options;
    private final DataValueBytes bytes = new DataValueBytes(); // writer thread only
    private final LinkedBlockingQueue<Append> queue = new LinkedBlockingQueue<>();
    private final AtomicInteger buffered = new AtomicInteger();
    private final AtomicLong written = new AtomicLong();
    private final Thread writer;

    ValueWriter(DataSource dataSource, ValueTable values, JdbcHistoryOptions options) {
        this.dataSource = dataSource;
        this.values = values;
        this.options = options;
        writer = new Thread(this::writeLoop, "opcua-history-jdbc-writer");
        writer.setDaemon(true);
    }

    void start() {
        writer.start();
    }

    /** Values committed since the writer started. */
    long writtenCount() {
        return written.get();
    }

    /** Buffers the samples for the writer, or refuses them at once while the buffer is full. */
    CompletableFuture<Void> append(List<HistorySample> samples) {
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

    /** Takes appends until a batch is full or the flush interval passed, writes them in one transaction. */
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
                int count = first.samples.size();
                Append next;
                while (count < options.batchSize() && (next = queue.peek()) != null && next != STOP) {
                    batch.add(queue.poll());
                    count += next.samples.size();
                }
                write(batch, count);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                batch.clear();
            }
        }
    }

    private void write(List<Append> batch, int count) {
        // One row per key: a batch holding two values of a node at one time keeps the later (append replaces).
        Map<String, ValueTable.Row> rows = new LinkedHashMap<>(count * 2);
        for (Append append : batch) {
            for (HistorySample sample : append.samples) {
                String node = sample.nodeId().toString();
                long ts = HistoryTime.ticksOf(sample.value());
                rows.put(node + '\u0000' + ts, new ValueTable.Row(node, ts, bytes.encode(sample.value())));
            }
        }
        Throwable failure = null;
        try (Connection connection = dataSource.getConnection()) {
            boolean autoCommit = connection.getAutoCommit();
            connection.setAutoCommit(false);
            try {
                values.upsert(connection, rows.values());
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(autoCommit);
            }
        } catch (SQLException | RuntimeException e) {
            failure = e;
            log.error("history writer: a batch of {} values could not be written to {}", count, values.name(), e);
        }
        buffered.addAndGet(-count);
        if (failure == null) {
            written.addAndGet(count);
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

    /**
     * Writes what the buffer holds and stops the writer, waiting up to 30 s; an append that raced with close, queued
     * behind the stop, is answered rather than left waiting.
     */
    void close() {
        queue.add(STOP);
        try {
            writer.join(TimeUnit.SECONDS.toMillis(30));
            if (writer.isAlive()) {
                log.warn("history writer still busy after 30 s; {} values not written", buffered.get());
                writer.interrupt();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Append late;
        while ((late = queue.poll()) != null) {
            late.done.completeExceptionally(new IllegalStateException("the history store is closed"));
        }
    }
}
