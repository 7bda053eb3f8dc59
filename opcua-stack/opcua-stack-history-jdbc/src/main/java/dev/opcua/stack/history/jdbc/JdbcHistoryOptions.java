package dev.opcua.stack.history.jdbc;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of a {@link JdbcHistoryStore}.
 *
 * @param table the table's name, a lower-case SQL identifier
 * @param batchSize most values written in one batched statement and transaction
 * @param bufferCapacity most appended values waiting for the writer; an append beyond it is refused with
 *        BadResourceUnavailable rather than let memory grow while the database is slow or away
 * @param flushInterval longest a value waits in the buffer before the writer takes it
 * @param ioThreads threads that run reads, updates and deletes (each holds one connection while it works)
 * @param timescale whether to make the table a TimescaleDB hypertable where the extension is available
 */
public record JdbcHistoryOptions(String table, int batchSize, int bufferCapacity, Duration flushInterval,
        int ioThreads, boolean timescale) {

    /** Table opcua_history, batches of 1,000, 100,000 values buffered, flushed every 200 ms, 2 threads, TimescaleDB where present. */
    public static final JdbcHistoryOptions DEFAULT =
            new JdbcHistoryOptions("opcua_history", 1_000, 100_000, Duration.ofMillis(200), 2, true);

    public JdbcHistoryOptions {
        HistorySchema.checkName(table);
        Objects.requireNonNull(flushInterval, "flushInterval");
        if (batchSize < 1 || bufferCapacity < batchSize || ioThreads < 1) {
            throw new IllegalArgumentException("batchSize must be >= 1, bufferCapacity >= batchSize and ioThreads >= 1,"
                    + " were " + batchSize + ", " + bufferCapacity + " and " + ioThreads);
        }
        if (flushInterval.isNegative() || flushInterval.isZero()) {
            throw new IllegalArgumentException("flushInterval must be positive, was " + flushInterval);
        }
    }

    /** These options with another table. */
    public JdbcHistoryOptions withTable(String value) {
        return new JdbcHistoryOptions(value, batchSize, bufferCapacity, flushInterval, ioThreads, timescale);
    }
}
