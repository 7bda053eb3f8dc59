package dev.opcua.stack.history.jdbc.state;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.history.jdbc.TestPostgres;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.redundancy.MirroredPair;
import dev.opcua.stack.server.redundancy.RedundancyMode;
import dev.opcua.stack.server.redundancy.RedundancyPartner;
import dev.opcua.stack.server.redundancy.RedundancySettings;
import dev.opcua.stack.server.redundancy.SessionMirror;
import dev.opcua.stack.server.subscriptions.durable.PushedCounter;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * What mirroring a session to PostgreSQL costs per notification at a steady rate, in two shapes: one item changing
 * {@value #RATE} times a second (publishing 500 ms, the mirror writing every 50 ms), and the load harness's
 * {@value #ITEMS} items changing {@value #LOAD_RATE} times a second in all (publishing and mirror interval 100 ms).
 * Each runs {@value #SECONDS} s through a connection pool and prints the mirror thread's time (snapshots, encoding,
 * writes; wall clock and CPU) and the store writes' time per notification sent. A measurement, not a check: run
 * with {@code -Dopcua.bench=true}.
 */
@EnabledIfSystemProperty(named = "opcua.bench", matches = "true")
class JdbcMirrorCostIT {

    private static final int RATE = 1_000;
    private static final int SECONDS = 10;
    private static final int ITEMS = 1_000;
    private static final int LOAD_RATE = 10_000;

    @Test
    void mirroring_a_session_at_a_steady_rate_costs_what_it_prints() throws Exception {
        try (HikariDataSource pooled = pool("mirror-cost");
                MirroredPair pair = new MirroredPair(JdbcSessionStateStore.open(pooled, "mirror_cost"))) {
            pair.a.sessionMirror().flushNow();
            Cost before = Cost.now(pair.a, pooled);
            long period = TimeUnit.SECONDS.toNanos(1) / RATE;
            long start = System.nanoTime();
            for (int i = 1; i <= RATE * SECONDS; i++) {
                pair.valueA.set("Value", i);
                LockSupport.parkNanos(start + i * period - System.nanoTime());
            }
            pair.a.sessionMirror().flushNow();
            Cost.now(pair.a, pooled).print("1 item at " + RATE + " values/s", before);
        }
    }

    /** What the mirror and PostgreSQL spent up to a moment; {@link #print} the difference to an earlier one. */
    private record Cost(long notifications, long writes, long bytes, long cycleNanos, long writeNanos,
            long mirrorCpuNanos, long postgresCpuNanos) {

        static Cost now(OpcUaServer server, DataSource database) {
            SessionMirror mirror = server.sessionMirror();
            return new Cost(server.statistics().subscriptions().notificationsSent(), mirror.writtenStates(),
                    mirror.writtenBytes(), mirror.cycleNanos(), mirror.writeNanos(), mirrorThreadCpuNanos(),
                    JdbcMirrorCostIT.postgresCpuNanos(database));
        }

        void print(String shape, Cost before) {
            long n = notifications - before.notifications;
            assertThat(n).isPositive();
            long writes = this.writes - before.writes;
            long cycle = cycleNanos - before.cycleNanos;
            long write = writeNanos - before.writeNanos;
            long cpu = mirrorCpuNanos - before.mirrorCpuNanos;
            long postgres = postgresCpuNanos - before.postgresCpuNanos;
            System.out.printf("mirror cost, %s for %d s: %d notifications, %d writes (%d kB); mirror thread %.0f ms"
                    + " wall, %.0f ms CPU (%.2f / %.2f us per notification); store writes %.0f ms wall (%.2f us per"
                    + " notification, %.0f us per write); PostgreSQL %.0f ms CPU (%.2f us per notification)%n",
                    shape, SECONDS, n, writes, (bytes - before.bytes) / 1024, cycle / 1e6, cpu / 1e6, cycle / 1e3 / n,
                    cpu / 1e3 / n, write / 1e6, write / 1e3 / n, write / 1e3 / Math.max(1, writes), postgres / 1e6,
                    postgres / 1e3 / n);
        }
    }

    @Test
    void mirroring_a_thousand_items_at_ten_thousand_values_a_second_costs_what_it_prints() throws Exception {
        PushedCounter counter = new PushedCounter();
        String[] names = IntStream.range(0, ITEMS).mapToObj(i -> "Value" + i).toArray(String[]::new);
        try (HikariDataSource pooled = pool("mirror-cost-load");
                OpcUaServer server = OpcUaServer.builder()
                        .applicationUri("urn:test:mirror-cost:a").applicationName("mirror cost server")
                        .bindAddress("127.0.0.1").port(0).hostnames(List.of("localhost"))
                        .security(List.of(EndpointSecurity.NONE))
                        .redundancy(RedundancySettings.of(RedundancyMode.HotAndMirrored,
                                new RedundancyPartner("urn:test:mirror-cost:b", "opc.tcp://localhost:1/")))
                        .sessionStateStore(JdbcSessionStateStore.open(pooled, "mirror_cost_load"))
                        .nodeManager(counter)
                        .build().start();
                ClientResources resources = ClientResources.builder().ioThreads(1).build()) {
            counter.start(server.namespaces().indexOf(PushedCounter.NS), server.dataChanges(), names);
            OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                    .applicationUri("urn:test:mirror-cost:client").applicationName("mirror cost client")
                    .resources(resources).requestTimeout(Duration.ofSeconds(10)).build());
            try {
                client.connect().get(10, TimeUnit.SECONDS);
                AtomicLong received = new AtomicLong();
                ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(100))
                        .get(10, TimeUnit.SECONDS);
                subscription.createDataItems(Arrays.stream(names).map(name -> DataItemRequest.of(
                        counter.nodeId(name), 0, (item, value) -> received.incrementAndGet()).withQueue(10, true))
                        .toList()).get(30, TimeUnit.SECONDS);
                server.sessionMirror().flushNow();
                Cost before = Cost.now(server, pooled);
                long period = TimeUnit.SECONDS.toNanos(1) / LOAD_RATE;
                long start = System.nanoTime();
                for (int i = 1; i <= LOAD_RATE * SECONDS; i++) {
                    counter.set(names[i % ITEMS], i);
                    if (i % 10 == 0) {
                        LockSupport.parkNanos(start + i * period - System.nanoTime());
                    }
                }
                server.sessionMirror().flushNow();
                Cost.now(server, pooled).print(ITEMS + " items at " + LOAD_RATE + " values/s", before);
                assertThat(received.get()).as("values the client received").isPositive();
            } finally {
                client.close();
            }
        }
    }

    /** A pool of four connections to the test PostgreSQL, as an application would give the store. */
    private static HikariDataSource pool(String name) throws Exception {
        HikariConfig pool = new HikariConfig();
        pool.setDataSource(TestPostgres.dataSource());
        pool.setMaximumPoolSize(4);
        pool.setPoolName(name);
        return new HikariDataSource(pool);
    }

    /** CPU time of the mirror thread so far; 0 where the JVM does not measure it. */
    private static long mirrorThreadCpuNanos() {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (info != null && info.getThreadName().equals("opcua-session-mirror")) {
                return Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return 0;
    }

    /**
     * CPU time so far of the test PostgreSQL's processes (its postmaster and the backends it forked), from Linux's
     * {@code /proc} at 100 ticks a second; 0 where there is no {@code /proc}.
     */
    private static long postgresCpuNanos(DataSource database) {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement();
                ResultSet pid = statement.executeQuery("SELECT pg_backend_pid()")) {
            pid.next();
            long postmaster = procStat(pid.getLong(1))[1];
            long ticks = 0;
            try (DirectoryStream<Path> processes = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
                for (Path process : processes) {
                    long[] stat = procStat(Long.parseLong(process.getFileName().toString()));
                    if (stat != null && (stat[0] == postmaster || stat[1] == postmaster)) {
                        ticks += stat[2];
                    }
                }
            }
            return ticks * 10_000_000L;
        } catch (Exception e) {
            return 0;
        }
    }

    /** pid, parent pid and user + system ticks of a process; null when it is gone. */
    private static long[] procStat(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return new long[] {pid, Long.parseLong(fields[1]), Long.parseLong(fields[11]) + Long.parseLong(fields[12])};
        } catch (Exception e) {
            return null;
        }
    }
}
