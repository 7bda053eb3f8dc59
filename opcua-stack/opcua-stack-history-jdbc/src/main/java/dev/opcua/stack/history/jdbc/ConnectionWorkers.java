package dev.opcua.stack.history.jdbc;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code opcua-history-jdbc-io-N} threads that run a store's reads, updates, deletes and trims, each with a
 * connection of its own, so that no caller's thread (a server worker) waits for the database.
 */
final class ConnectionWorkers {

    private static final Logger log = LoggerFactory.getLogger(ConnectionWorkers.class);

    /** What a worker does with one connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private final DataSource dataSource;
    private final String table;
    private final ExecutorService threads;

    ConnectionWorkers(DataSource dataSource, String table, int count) {
        this.dataSource = dataSource;
        this.table = table;
        AtomicInteger index = new AtomicInteger();
        threads = Executors.newFixedThreadPool(count, r -> {
            Thread thread = new Thread(r, "opcua-history-jdbc-io-" + index.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Runs the work on a worker with a connection of its own, whose auto-commit mode is restored afterwards; a SQL
     * failure fails the future with BadInternalError.
     */
    <T> CompletableFuture<T> supply(Work<T> work) {
        CompletableFuture<T> result = new CompletableFuture<>();
        try {
            threads.execute(() -> {
                try (Connection connection = dataSource.getConnection()) {
                    boolean autoCommit = connection.getAutoCommit();
                    try {
                        result.complete(work.run(connection));
                    } finally {
                        connection.setAutoCommit(autoCommit);
                    }
                } catch (SQLException | RuntimeException e) {
                    log.warn("history store on {}: {}", table, e.toString());
                    result.completeExceptionally(new UaException(StatusCodes.BadInternalError,
                            "history database: " + e.getMessage()));
                }
            });
        } catch (RejectedExecutionException e) {
            result.completeExceptionally(new IllegalStateException("the history store is closed"));
        }
        return result;
    }

    /** Lets the work already given finish (up to 30 s), then stops the threads. */
    void close() {
        threads.shutdown();
        try {
            if (!threads.awaitTermination(30, TimeUnit.SECONDS)) {
                threads.shutdownNow();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            threads.shutdownNow();
        }
    }
}
