package dev.opcua.spring.boot.autoconfigure.server.history;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The PostgreSQL history store ({@code opcua.server.history.store=jdbc}), on the application's DataSource.
 * Kept apart from {@link OpcUaHistoryProperties} so that its keys only appear with the store they tune.
 */
@ConfigurationProperties("opcua.server.history.jdbc")
public class OpcUaHistoryJdbcProperties {

    /** Table holding the history, created on first start; a lower-case SQL identifier. */
    private String table = "opcua_history";

    /** Most values written in one batched statement and transaction. */
    private int batchSize = 1_000;

    /** Most recorded values waiting for the database; beyond it recording is refused until the database catches up. */
    private int bufferCapacity = 100_000;

    /** Longest a recorded value waits before it is written. */
    private Duration flushInterval = Duration.ofMillis(200);

    /** Threads, each with one connection at a time, that run HistoryRead and HistoryUpdate queries. */
    private int ioThreads = 2;

    /** Whether to make the table a TimescaleDB hypertable where the extension is available (it is never required). */
    private boolean timescale = true;

    public String getTable() {
        return table;
    }

    public void setTable(String table) {
        this.table = table;
    }

    public int getBatchSize() {
        return batchSize;
    }

    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    public int getBufferCapacity() {
        return bufferCapacity;
    }

    public void setBufferCapacity(int bufferCapacity) {
        this.bufferCapacity = bufferCapacity;
    }

    public Duration getFlushInterval() {
        return flushInterval;
    }

    public void setFlushInterval(Duration flushInterval) {
        this.flushInterval = flushInterval;
    }

    public int getIoThreads() {
        return ioThreads;
    }

    public void setIoThreads(int ioThreads) {
        this.ioThreads = ioThreads;
    }

    public boolean isTimescale() {
        return timescale;
    }

    public void setTimescale(boolean timescale) {
        this.timescale = timescale;
    }
}
