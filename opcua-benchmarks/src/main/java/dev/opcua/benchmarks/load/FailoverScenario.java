package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.redundancy.FailoverEvent;
import dev.opcua.stack.client.redundancy.RedundancyConfig;
import dev.opcua.stack.client.redundancy.RedundancyMode;
import dev.opcua.stack.client.redundancy.RedundantServer;
import dev.opcua.stack.client.subscriptions.ClientMonitoredItem;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code --scenario failover}: two {@code BenchServer}s as child processes, a redundant pair ({@code --redundancy
 * cold|warm|hot}, each the other's partner), both changing {@code Var.0 .. Var.{items-1}} themselves at
 * {@code --rate} values per second on a shared wall-clock schedule ({@code --simulate-epoch}: value number
 * {@code n} is {@link BenchAddressSpace#SIMULATION_BASE}{@code + n} on {@code Var.(n % items)} on both servers at
 * the same moment), and one of our clients with {@link RedundancyConfig} of the same mode, subscribed to every
 * item. After {@code --warmup} seconds the active server ({@link OpcUaClient#activeServer()}) is killed with
 * SIGKILL ({@link Process#destroyForcibly()}); the scenario measures
 * <ul>
 * <li>{@code failover_ms}: from the kill to the first notification while the client's active server is the
 * survivor (what an application sees), and {@code event_ms}: the client's own {@link FailoverEvent#duration()}
 * (from the connection's loss to the survivor's session being ready, its subscriptions re-created);</li>
 * <li>{@code missed}: values the client never saw, from the gaps in each item's value sequence (every value set
 * after the old server's last Publish response and before the re-created items' first sample is gone: Cold, Warm
 * and Hot keep no state across servers, Part 4, 6.6.2.4.5), with its bound, (failover time + publishing interval)
 * × rate; {@code steady_missed} counts the values missed in a window without a kill (sampling that misses changes,
 * queue overflow), which must be 0 for {@code missed} to be the failover's alone: each item changes
 * {@code rate / items} times a second, slower than the server's sampling (the defaults, 1,000 items at 10,000
 * values/s, change each item every 100 ms);</li>
 * <li>{@code duplicates}: values seen twice (or older than one already seen) on an item.</li>
 * </ul>
 * Then the killed server is started again (same port and ServerUri), the client given time to see it, and after
 * {@code --interval} seconds the now active one is killed, {@code --kills} times in all.
 */
final class FailoverScenario {

    private static final long TIMEOUT_S = 10;
    private static final long FAILOVER_WAIT_S = 60;

    private FailoverScenario() {
    }

    /** What the item listeners tally; synchronized, as the client may call them from several threads. */
    private static final class Tally {
        private final long[] last;
        private final int items;
        private long received;
        private long missed;
        private long duplicates;
        private long foreign;
        private long lastArrivalNanos;

        Tally(int items) {
            this.items = items;
            this.last = new long[items];
            Arrays.fill(last, -1);
        }

        synchronized void value(int item, DataValue value) {
            received++;
            lastArrivalNanos = System.nanoTime();
            if (value.value() == null || !(value.value().value() instanceof Double d)) {
                foreign++;
                return;
            }
            long seq = (long) (d - BenchAddressSpace.SIMULATION_BASE);
            if (seq < 0 || seq % items != item) {
                foreign++; // the initial 0.0, or not the simulation's value for this item
                return;
            }
            long before = last[item];
            if (before < 0) {
                last[item] = seq;
            } else if (seq <= before) {
                duplicates++;
            } else {
                missed += (seq - before) / items - 1;
                last[item] = seq;
            }
        }

        synchronized long[] snapshot() {
            return new long[] {received, missed, duplicates, foreign};
        }
    }

    static int run(FailoverOptions o, PrintStream out, PrintStream err) throws Exception {
        long epoch = System.currentTimeMillis();
        int[] ports = {freePort(), freePort()};
        String[] uris = {"urn:dev.opcua:bench:server:a", "urn:dev.opcua:bench:server:b"};
        String[] urls = {"opc.tcp://localhost:" + ports[0], "opc.tcp://localhost:" + ports[1]};
        ChildServer[] servers = new ChildServer[2];
        try {
            for (int s = 0; s < 2; s++) {
                servers[s] = start(o, s, ports, uris, urls, epoch, err);
            }
            return measure(o, servers, ports, uris, urls, epoch, out, err);
        } finally {
            for (ChildServer s : servers) {
                if (s != null) {
                    s.close();
                }
            }
        }
    }

    private static ChildServer start(FailoverOptions o, int s, int[] ports, String[] uris, String[] urls, long epoch,
            PrintStream err) throws Exception {
        int p = 1 - s;
        List<String> options = List.of("--port", Integer.toString(ports[s]), "--simulate", o.items() + "," + o.rate(),
                "--simulate-epoch", Long.toString(epoch), "--redundancy", o.mode(), "--application-uri", uris[s],
                "--partner", uris[p] + "=" + urls[p]);
        ChildServer server = ChildServer.start("ours", null, o.items(), false, options);
        err.println("server " + (char) ('a' + s) + " pid " + server.pid() + " at " + server.url() + ", log "
                + server.log());
        return server;
    }

    private static int measure(FailoverOptions o, ChildServer[] servers, int[] ports, String[] uris, String[] urls,
            long epoch, PrintStream out, PrintStream err) throws Exception {
        LinkedBlockingQueue<FailoverEvent> events = new LinkedBlockingQueue<>();
        RedundancyConfig redundancy = RedundancyConfig.builder()
                .mode(RedundancyMode.valueOf(o.mode().toUpperCase(Locale.ROOT)))
                .endpoints(servers[1].url())
                .failoverTimeout(Duration.ofMillis(o.failoverTimeoutMs()))
                .serviceLevelInterval(Duration.ofMillis(o.serviceLevelMs()))
                .build();
        OpcUaClientConfig config = OpcUaClientConfig.builder(servers[0].url())
                .applicationUri(LoadSecurity.APPLICATION_URI)
                .applicationName("load harness")
                .sessionName("failover")
                .sessionTimeout(Duration.ofMinutes(2))
                .requestTimeout(Duration.ofSeconds(TIMEOUT_S))
                .redundancy(redundancy)
                .build();
        Tally tally = new Tally(o.items());
        // armed at a kill with the survivor's URL; the first notification while it is the active server ends the gap
        String[] armed = new String[1];
        long[] firstFromSurvivor = new long[1];
        Object gate = new Object();
        try (OpcUaClient client = OpcUaClient.create(config)) {
            client.addFailoverListener(events::add);
            client.connect().get(TIMEOUT_S * 3, TimeUnit.SECONDS);
            int ns = client.namespaces().indexOf(BenchAddressSpace.NAMESPACE_URI);
            if (ns < 0) {
                throw new IllegalStateException("namespace " + BenchAddressSpace.NAMESPACE_URI + " not on the server");
            }
            ClientSubscription subscription = client.createSubscription(new SubscriptionParameters(o.publishingMs(),
                    LoadSubscriber.LIFETIME_COUNT, LoadSubscriber.KEEP_ALIVE_COUNT, 0, 0, true))
                    .get(TIMEOUT_S, TimeUnit.SECONDS);
            List<DataItemRequest> requests = new ArrayList<>();
            for (int i = 0; i < o.items(); i++) {
                int item = i;
                requests.add(DataItemRequest.of(NodeId.string(ns, BenchAddressSpace.variableId(i)), 0,
                        (monitored, value) -> {
                            tally.value(item, value);
                            String survivor = armed[0];
                            if (survivor != null && survivor.equals(client.activeServer())) {
                                synchronized (gate) {
                                    if (armed[0] != null) {
                                        firstFromSurvivor[0] = System.nanoTime();
                                        armed[0] = null;
                                        gate.notifyAll();
                                    }
                                }
                            }
                        }).withQueue(o.queueSize(), true));
            }
            double samplingMs = -1;
            for (ClientMonitoredItem item : subscription.createDataItems(requests).get(TIMEOUT_S, TimeUnit.SECONDS)) {
                if (!item.status().isGood()) {
                    throw new IllegalStateException("CreateMonitoredItems refused " + item.node() + ": " + item.status());
                }
                samplingMs = item.revisedSamplingInterval();
            }
            err.printf(Locale.ROOT, "client on %s (mode %s), %d items, %d values/s, publishing %.0f ms, sampling %.1f ms%n",
                    client.activeServer(), o.mode(), o.items(), o.rate(), subscription.revisedPublishingInterval(),
                    samplingMs);
            TimeUnit.SECONDS.sleep(o.warmupS());
            long[] t0 = tally.snapshot();
            long start = System.nanoTime();
            TimeUnit.SECONDS.sleep(Math.max(1, o.intervalS()));
            long[] t1 = tally.snapshot();
            double steadyPerS = (t1[0] - t0[0]) / ((System.nanoTime() - start) / 1e9);
            long steadyMissed = t1[1] - t0[1];
            long steadyDuplicates = t1[2] - t0[2];
            err.printf(Locale.ROOT, "steady: %.0f notifications/s, %d missed, %d duplicates%n", steadyPerS,
                    steadyMissed, steadyDuplicates);

            List<Double> failoverMs = new ArrayList<>();
            List<Double> eventMs = new ArrayList<>();
            List<Long> missedPerKill = new ArrayList<>();
            long duplicates = 0;
            long eventLost = 0;
            int failed = 0;
            for (int k = 1; k <= o.kills(); k++) {
                String active = client.activeServer();
                int victim = active.equals(servers[0].url()) ? 0 : active.equals(servers[1].url()) ? 1 : -1;
                if (victim < 0) {
                    throw new IllegalStateException("active server " + active + " is neither " + servers[0].url()
                            + " nor " + servers[1].url());
                }
                int survivor = 1 - victim;
                long[] before = tally.snapshot();
                events.clear();
                synchronized (gate) {
                    firstFromSurvivor[0] = 0;
                    armed[0] = servers[survivor].url();
                }
                long killNanos = System.nanoTime();
                servers[victim].kill();
                long deadline = killNanos + TimeUnit.SECONDS.toNanos(FAILOVER_WAIT_S);
                synchronized (gate) {
                    while (firstFromSurvivor[0] == 0 && System.nanoTime() < deadline) {
                        gate.wait(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
                    }
                }
                FailoverEvent event = events.poll(Math.max(1, (deadline - System.nanoTime()) / 1_000_000),
                        TimeUnit.MILLISECONDS);
                if (firstFromSurvivor[0] == 0) {
                    armed[0] = null;
                    failed++;
                    err.printf(Locale.ROOT, "kill %d: server %c killed, no notification from %s within %d s "
                            + "(client %s)%n", k, (char) ('a' + victim), servers[survivor].url(), FAILOVER_WAIT_S,
                            client.state());
                } else {
                    double ms = (firstFromSurvivor[0] - killNanos) / 1e6;
                    failoverMs.add(ms);
                    if (event != null) {
                        eventMs.add(event.duration().toNanos() / 1e6);
                        eventLost += event.notificationsPossiblyLost();
                    }
                    TimeUnit.SECONDS.sleep(o.settleS());
                    long[] after = tally.snapshot();
                    long missed = after[1] - before[1];
                    missedPerKill.add(missed);
                    duplicates += after[2] - before[2];
                    err.printf(Locale.ROOT, "kill %d: server %c killed; first notification from %c after %.0f ms, "
                            + "FailoverEvent %s ms (%s), %d values missed (bound %.0f: (failover time + publishing interval) × rate), "
                            + "%d duplicates%n", k, (char) ('a' + victim), (char) ('a' + survivor), ms,
                            event == null ? "none" : String.format(Locale.ROOT, "%.0f", event.duration().toNanos() / 1e6),
                            event == null ? "-" : event.reason(), missed, (ms + o.publishingMs()) / 1000 * o.rate(), after[2] - before[2]);
                }
                // the killed server comes back as the standby, on its port and ServerUri
                servers[victim] = start(o, victim, ports, uris, urls, epoch, err);
                if (k < o.kills()) {
                    waitUntilSeen(client, servers[victim].url(), err);
                    TimeUnit.SECONDS.sleep(o.intervalS());
                }
            }
            long[] end = tally.snapshot();
            double seconds = (System.nanoTime() - start) / 1e9;
            Map<String, String> result = new LinkedHashMap<>();
            result.put("scenario", "failover");
            result.put("mode", o.mode());
            result.put("items", Integer.toString(o.items()));
            result.put("rate", Integer.toString(o.rate()));
            result.put("kills", Integer.toString(o.kills()));
            result.put("failed", Integer.toString(failed));
            result.put("failover_timeout_ms", Integer.toString(o.failoverTimeoutMs()));
            result.put("failover_ms_p50", LoadHarness.fmt(percentile(failoverMs, 50)));
            result.put("failover_ms_p99", LoadHarness.fmt(percentile(failoverMs, 99)));
            result.put("failover_ms_max", LoadHarness.fmt(percentile(failoverMs, 100)));
            result.put("event_ms_p50", LoadHarness.fmt(percentile(eventMs, 50)));
            result.put("event_ms_max", LoadHarness.fmt(percentile(eventMs, 100)));
            long missed = missedPerKill.stream().mapToLong(Long::longValue).sum();
            result.put("missed", Long.toString(missed));
            result.put("missed_per_kill_max", Long.toString(missedPerKill.stream().mapToLong(Long::longValue).max()
                    .orElse(0)));
            // values set on the old server after its last Publish response (up to a publishing interval before the
            // kill) and until the re-created items' first sample on the survivor
            result.put("missed_bound", Long.toString(Math.round((percentile(failoverMs, 100) + o.publishingMs())
                    / 1000 * o.rate())));
            result.put("duplicates", Long.toString(duplicates));
            result.put("event_possibly_lost", Long.toString(eventLost));
            result.put("steady_missed", Long.toString(steadyMissed));
            result.put("notifications_per_s", LoadHarness.fmt(steadyPerS));
            result.put("overall_notifications_per_s", LoadHarness.fmt((end[0] - t0[0]) / seconds));
            result.put("unexpected_values", Long.toString(end[3]));
            LoadHarness.printResult(result, out);
            return failed == 0 ? 0 : 1;
        }
    }

    /** Waits until the client reads the restarted server's ServiceLevel (up to 30 s), so it can fail over to it. */
    private static void waitUntilSeen(OpcUaClient client, String url, PrintStream err) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            for (RedundantServer s : client.redundancy().servers()) {
                if (s.endpointUrl().equals(url) && s.reachable() && s.serviceLevel() > 1
                        && client.state() == ClientState.CONNECTED) {
                    return;
                }
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        err.println("note: the client did not see " + url + " reachable within 30 s: " + client.redundancy());
    }

    /** Nearest-rank percentile; NaN for none. */
    static double percentile(List<Double> values, double p) {
        if (values.isEmpty()) {
            return Double.NaN;
        }
        double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
