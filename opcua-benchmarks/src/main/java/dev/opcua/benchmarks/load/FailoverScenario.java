package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.load.FailoverOptions.Fault;
import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.redundancy.FailoverEvent;
import dev.opcua.stack.client.redundancy.RedundancyConfig;
import dev.opcua.stack.client.redundancy.RedundantServer;
import dev.opcua.stack.client.subscriptions.ClientMonitoredItem;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataChangeListener;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.subscriptions.SubscriptionSettings;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@code --scenario failover}: {@code BenchServer}s as child processes ({@link FailoverServers}), a redundant pair
 * ({@code --mode cold|warm|hot|hot-and-mirrored}, each the other's partner; hot-and-mirrored sharing one PostgreSQL
 * for their sessions) or one server ({@code --mode none}), changing
 * {@code Var.0 .. Var.{items-1}} themselves at {@code --rate} values per second on a shared wall-clock schedule
 * ({@code --simulate-epoch}: value number {@code n} is {@link BenchAddressSpace#SIMULATION_BASE}{@code + n} on
 * {@code Var.(n % items)} on every server at the same moment), and one of our clients, with
 * {@link RedundancyConfig} of the same mode for a pair, subscribed to every item, reaching each server through a
 * {@code FaultProxy}. After {@code --warmup} seconds a {@code --fault} hits the client's server
 * ({@link OpcUaClient#activeServer()}), {@code --kills} times, {@code --interval} seconds apart:
 * <ul>
 * <li>{@code kill}: SIGKILL, as a crash; {@code stop}: SIGTERM, the server closes (and saves its durable
 * subscriptions). The server is started again (same port and ServerUri): at once with {@code --mode none}, where
 * the client reconnects to it; after the client's failover to the partner otherwise;</li>
 * <li>{@code cut}: the proxy to the client's server blackholes ({@code --cut blackhole}) or drops and refuses
 * ({@code --cut drop}) every connection for {@code --cut-ms}; both servers stay up;</li>
 * <li>{@code client-restart}: every proxy drops and refuses the client for {@code --down-ms}, its session left
 * open and timed out by the server meanwhile (session timeout half of that); then the client comes back with a
 * new session and TransferSubscriptions, or re-creates what cannot be transferred. With {@code --client-new} the
 * client object is dropped instead, as a killed process (its resources closed: no CloseSession), and after the
 * absence a new client resumes the subscription from the dropped one's resume token ({@link FailoverClient}).</li>
 * </ul>
 * With {@code --durable} (one server) the subscription is made durable (SetSubscriptionDurable, Part 4, 6.8), and
 * the server keeps it in a file store ({@code --durable-dir}) across its restarts. For each fault the scenario
 * measures
 * <ul>
 * <li>{@code failover_ms}: from the fault to the first notification the client then gets from where it is bound to
 * get it (the survivor after a failover, else any after the fault ended), and {@code event_ms}: the client's own
 * {@link FailoverEvent#duration()} when it failed over;</li>
 * <li>{@code missed}: values the client never saw, from the gaps in each item's value sequence
 * ({@link FailoverTally}), with the bound (failover time + publishing interval) × rate of a failover that keeps no
 * state (Part 4, 6.6.2.4.5); {@code steady_missed} counts the values missed in a window without a fault (sampling
 * that misses changes, queue overflow), which must be 0 for {@code missed} to be the faults' alone;</li>
 * <li>{@code duplicates}: values seen twice (or older than one already seen) on an item;</li>
 * <li>{@code paths}: how the client went on after each fault ({@link FailoverEvent#path()}: its session
 * re-activated on the partner, the partner's mirrors enabled, or subscriptions re-created);</li>
 * <li>with {@code hot-and-mirrored}, the session mirror's cost on the client's server in the steady window
 * ({@link MirrorCost}): the mirror thread's CPU and the store's write time per notification sent, and the
 * embedded PostgreSQL's CPU.</li>
 * </ul>
 */
final class FailoverScenario {

    private static final long TIMEOUT_S = 10;
    private static final long FAILOVER_WAIT_S = 60;

    private FailoverScenario() {
    }

    static int run(FailoverOptions o, PrintStream out, PrintStream err) throws Exception {
        try (FailoverServers servers = FailoverServers.start(o, err)) {
            return measure(o, servers, out, err);
        }
    }

    private static int measure(FailoverOptions o, FailoverServers servers, PrintStream out, PrintStream err)
            throws Exception {
        LinkedBlockingQueue<FailoverEvent> events = new LinkedBlockingQueue<>();
        OpcUaClientConfig.Builder config = OpcUaClientConfig.builder(servers.url(0))
                .applicationUri(LoadSecurity.APPLICATION_URI)
                .applicationName("load harness")
                .sessionName("failover")
                .sessionTimeout(Duration.ofMillis(o.sessionTimeoutMs()))
                .requestTimeout(Duration.ofSeconds(TIMEOUT_S))
                .subscriptionSettings(SubscriptionSettings.builder()
                        .requestTimeout(Duration.ofSeconds(TIMEOUT_S))
                        .maxQueuedNotifications(o.clientQueue())
                        .build());
        if (o.reconnectMaxMs() > 0) {
            config.reconnectDelays(Duration.ofSeconds(1), Duration.ofMillis(o.reconnectMaxMs()));
        }
        if (o.redundant()) {
            config.redundancy(RedundancyConfig.builder()
                    .mode(o.clientMode())
                    .endpoints(servers.url(1))
                    .failoverTimeout(Duration.ofMillis(o.failoverTimeoutMs()))
                    .serviceLevelInterval(Duration.ofMillis(o.serviceLevelMs()))
                    .build());
        }
        FailoverTally tally = new FailoverTally(o.items());
        ArrivalGate gate = new ArrivalGate();
        try (FailoverClient clients = new FailoverClient(config, o.clientNew(), events::add)) {
            OpcUaClient client = clients.connect();
            DataChangeListener listener = listener(o, client, tally, gate, clients);
            ClientSubscription subscription = subscribe(o, client, listener, err);
            clients.subscribed(subscription);
            long sessionTimeoutMs = client.session().revisedTimeout().toMillis();
            if (o.fault() == Fault.CLIENT_RESTART && sessionTimeoutMs >= o.downMs()) {
                err.printf(Locale.ROOT, "note: the server revised the session timeout to %d ms, not less than --down-ms "
                        + "%d: the session outlives the client's absence and is re-activated, as after a network "
                        + "cut%n", sessionTimeoutMs, o.downMs());
            }
            TimeUnit.SECONDS.sleep(o.warmupS());
            int steadyServer = servers.indexOf(client.activeServer());
            MirrorCost mirrorStart = MirrorCost.parse(servers.statsLine(steadyServer));
            long storeCpuStart = servers.stateStoreCpuNanos();
            long[] t0 = tally.snapshot();
            long start = System.nanoTime();
            TimeUnit.SECONDS.sleep(Math.max(1, o.intervalS()));
            long[] t1 = tally.snapshot();
            double steadySeconds = (System.nanoTime() - start) / 1e9;
            MirrorCost mirrorEnd = MirrorCost.parse(servers.statsLine(steadyServer));
            long storeCpuEnd = servers.stateStoreCpuNanos();
            double steadyPerS = (t1[0] - t0[0]) / steadySeconds;
            long steadyMissed = t1[1] - t0[1];
            err.printf(Locale.ROOT, "steady: %.0f notifications/s, %d missed, %d duplicates%n", steadyPerS,
                    steadyMissed, t1[2] - t0[2]);
            Map<String, String> mirrorCost = MirrorCost.between(mirrorStart, mirrorEnd, steadySeconds,
                    storeCpuStart < 0 || storeCpuEnd < 0 ? -1 : storeCpuEnd - storeCpuStart);
            if (o.mirrored()) {
                err.println("steady: session mirror of server " + servers.letter(steadyServer) + ": " + mirrorCost);
            }

            List<Double> failoverMs = new ArrayList<>();
            List<Double> eventMs = new ArrayList<>();
            List<Long> missedPerFault = new ArrayList<>();
            List<Long> lostPerFault = new ArrayList<>();
            long duplicates = 0;
            long eventLost = 0;
            Map<String, Integer> paths = new java.util.TreeMap<>();
            int failed = 0;
            int switched = 0;
            for (int k = 1; k <= o.kills(); k++) {
                client = clients.client();
                int victim = servers.indexOf(client.activeServer());
                long[] before = tally.snapshot();
                events.clear();
                tally.mark();
                long faultMillis = System.currentTimeMillis();
                long faultNanos = System.nanoTime();
                String target = apply(o, servers, victim, tally, gate, faultNanos, clients, listener, err);
                client = clients.client();
                long deadline = faultNanos + TimeUnit.SECONDS.toNanos(FAILOVER_WAIT_S);
                long arrival = gate.await(deadline);
                FailoverEvent event = o.redundant() && target != null ? events.poll(Math.max(1,
                        (deadline - System.nanoTime()) / 1_000_000), TimeUnit.MILLISECONDS) : events.poll();
                String now = client.activeServer();
                if (!now.equals(servers.url(victim))) {
                    switched++;
                }
                if (arrival == 0) {
                    failed++;
                    err.printf(Locale.ROOT, "%s %d: server %c, no notification within %d s (client %s on %s)%n",
                            o.fault().option(), k, servers.letter(victim), FAILOVER_WAIT_S, client.state(), now);
                } else {
                    double ms = (arrival - faultNanos) / 1e6;
                    failoverMs.add(ms);
                    if (event != null) {
                        eventMs.add(event.duration().toNanos() / 1e6);
                        eventLost += event.notificationsPossiblyLost();
                        paths.merge(event.path().name().toLowerCase(Locale.ROOT), 1, Integer::sum);
                    }
                    TimeUnit.SECONDS.sleep(o.settleS());
                    long[] after = tally.snapshot();
                    long missed = after[1] - before[1];
                    long absent = after[4] - before[4];
                    missedPerFault.add(missed);
                    lostPerFault.add(missed - absent);
                    duplicates += after[2] - before[2];
                    err.printf(Locale.ROOT, "%s %d: newest value before it due %d ms before the fault, first newer "
                            + "one after it due %d ms after%n", o.fault().option(), k,
                            faultMillis - servers.dueAtMillis(tally.newestAtMark()),
                            servers.dueAtMillis(tally.firstAfterMark()) - faultMillis);
                    err.printf(Locale.ROOT, "%s %d: server %c; first notification after %.0f ms, now on %c, "
                            + "FailoverEvent %s ms (%s), %d values missed (%d of them never set, no server running; "
                            + "bound %.0f: (failover time + publishing interval) × rate), %d duplicates%n",
                            o.fault().option(), k, servers.letter(victim), ms,
                            servers.letter(servers.indexOf(now)), event == null ? "none"
                                    : String.format(Locale.ROOT, "%.0f", event.duration().toNanos() / 1e6),
                            event == null ? "-" : event.reason() + ", " + event.path(), missed, absent,
                            (ms + o.publishingMs()) / 1000 * o.rate(),
                            after[2] - before[2]);
                }
                if (!servers.alive(victim)) { // killed or stopped in a pair: back as the standby
                    servers.restart(victim, err);
                }
                if (k < o.kills()) {
                    waitUntilBack(client, servers, victim, o, err);
                    TimeUnit.SECONDS.sleep(o.intervalS());
                }
            }
            long[] end = tally.snapshot();
            double seconds = (System.nanoTime() - start) / 1e9;
            Map<String, String> result = new LinkedHashMap<>();
            result.put("scenario", "failover");
            result.put("mode", o.mode());
            result.put("fault", o.fault().option());
            switch (o.fault()) {
                case CUT -> {
                    result.put("cut", o.cut());
                    result.put("cut_ms", Integer.toString(o.cutMs()));
                }
                case CLIENT_RESTART -> {
                    result.put("down_ms", Integer.toString(o.downMs()));
                    result.put("client_new", o.clientNew() ? "yes" : "no");
                    result.put("resumes", Integer.toString(clients.resumes()));
                }
                default -> {
                }
            }
            long durableHours = clients.subscription().revisedDurableLifetimeHours();
            result.put("durable", o.durable() ? durableHours + "h" : "no");
            result.put("items", Integer.toString(o.items()));
            result.put("rate", Integer.toString(o.rate()));
            result.put("kills", Integer.toString(o.kills()));
            result.put("failed", Integer.toString(failed));
            result.put("switched", Integer.toString(switched));
            result.put("failover_timeout_ms", Integer.toString(o.failoverTimeoutMs()));
            result.put("failover_ms_p50", LoadHarness.fmt(percentile(failoverMs, 50)));
            result.put("failover_ms_p99", LoadHarness.fmt(percentile(failoverMs, 99)));
            result.put("failover_ms_max", LoadHarness.fmt(percentile(failoverMs, 100)));
            result.put("event_ms_p50", LoadHarness.fmt(percentile(eventMs, 50)));
            result.put("event_ms_max", LoadHarness.fmt(percentile(eventMs, 100)));
            long missed = missedPerFault.stream().mapToLong(Long::longValue).sum();
            result.put("missed", Long.toString(missed));
            result.put("missed_per_kill_max", Long.toString(missedPerFault.stream().mapToLong(Long::longValue).max()
                    .orElse(0)));
            // missed less the values never set (due while no server of the client's ran)
            result.put("lost", Long.toString(lostPerFault.stream().mapToLong(Long::longValue).sum()));
            result.put("lost_per_kill_max", Long.toString(lostPerFault.stream().mapToLong(Long::longValue).max()
                    .orElse(0)));
            result.put("missed_bound", Long.toString(missedBound(percentile(failoverMs, 100), o)));
            result.put("duplicates", Long.toString(duplicates));
            result.put("event_possibly_lost", Long.toString(eventLost));
            result.put("paths", paths.isEmpty() ? "none" : paths.entrySet().stream()
                    .map(e -> e.getKey() + ":" + e.getValue()).collect(java.util.stream.Collectors.joining(",")));
            result.put("steady_missed", Long.toString(steadyMissed));
            result.put("notifications_per_s", LoadHarness.fmt(steadyPerS));
            result.put("overall_notifications_per_s", LoadHarness.fmt((end[0] - t0[0]) / seconds));
            result.put("unexpected_values", Long.toString(end[3]));
            result.put("session_timeout_ms", Long.toString(sessionTimeoutMs));
            result.put("client_queue", Integer.toString(o.clientQueue()));
            if (o.mirrored()) {
                result.putAll(mirrorCost);
            }
            result.put("reconnect_max_ms", Long.toString(clients.client().config().reconnectMaxDelay().toMillis()));
            // the client's own counts: NotificationMessages fetched again, sequence numbers the server no longer had
            result.put("republished", Long.toString(clients.republished()));
            result.put("lost_sequence_numbers", Long.toString(clients.lostSequenceNumbers()));
            result.put("dropped_notifications", Long.toString(clients.droppedNotifications()));
            result.put("publish_hold_backs", Long.toString(clients.publishHoldBacks()));
            result.put("long_publish_hold_backs", Long.toString(clients.longPublishHoldBacks()));
            LoadHarness.printResult(result, out);
            return failed == 0 ? 0 : 1;
        }
    }

    /**
     * Values set on the old server after its last Publish response (up to a publishing interval before the fault)
     * and until the first notification after it: what a failover or a re-creation that keeps no state loses at
     * most. 0 when nothing arrived.
     */
    static long missedBound(double failoverMsMax, FailoverOptions o) {
        return Double.isNaN(failoverMsMax) ? 0 : Math.round((failoverMsMax + o.publishingMs()) / 1000 * o.rate());
    }

    /**
     * Every item's values go to the tally (the item found by its node, so that a resumed subscription's items,
     * known by their client handles and nodes, count the same) and open the gate.
     */
    private static DataChangeListener listener(FailoverOptions o, OpcUaClient client, FailoverTally tally,
            ArrivalGate gate, FailoverClient clients) {
        int ns = namespace(client);
        Map<NodeId, Integer> index = new HashMap<>();
        for (int i = 0; i < o.items(); i++) {
            index.put(NodeId.string(ns, BenchAddressSpace.variableId(i)), i);
        }
        return (monitored, value) -> {
            Integer item = index.get(monitored.node());
            if (item != null) {
                tally.value(item, value);
            }
            gate.arrived(clients.client().activeServer());
        };
    }

    private static int namespace(OpcUaClient client) {
        int ns = client.namespaces().indexOf(BenchAddressSpace.NAMESPACE_URI);
        if (ns < 0) {
            throw new IllegalStateException("namespace " + BenchAddressSpace.NAMESPACE_URI + " not on the server");
        }
        return ns;
    }

    private static ClientSubscription subscribe(FailoverOptions o, OpcUaClient client, DataChangeListener listener,
            PrintStream err) throws Exception {
        int ns = namespace(client);
        SubscriptionParameters parameters = new SubscriptionParameters(o.publishingMs(),
                LoadSubscriber.LIFETIME_COUNT, LoadSubscriber.KEEP_ALIVE_COUNT, 0, 0, true);
        if (o.durable()) {
            parameters = parameters.durable(Duration.ofHours(o.durableHours()));
        }
        ClientSubscription subscription = client.createSubscription(parameters).get(TIMEOUT_S, TimeUnit.SECONDS);
        if (o.durable() && !subscription.isDurable()) {
            throw new IllegalStateException("SetSubscriptionDurable refused: " + subscription.durableStatus());
        }
        List<DataItemRequest> requests = new ArrayList<>();
        for (int i = 0; i < o.items(); i++) {
            requests.add(DataItemRequest.of(NodeId.string(ns, BenchAddressSpace.variableId(i)), 0, listener)
                    .withQueue(o.queueSize(), true));
        }
        double samplingMs = -1;
        long queue = -1;
        for (ClientMonitoredItem item : subscription.createDataItems(requests).get(TIMEOUT_S, TimeUnit.SECONDS)) {
            if (!item.status().isGood()) {
                throw new IllegalStateException("CreateMonitoredItems refused " + item.node() + ": " + item.status());
            }
            samplingMs = item.revisedSamplingInterval();
            queue = item.revisedQueueSize();
        }
        err.printf(Locale.ROOT, "client on %s (mode %s, fault %s%s), %d items, %d values/s, publishing %.0f ms, "
                + "sampling %.1f ms, queue %d%n", client.activeServer(), o.mode(), o.fault().option(),
                o.durable() ? ", durable " + subscription.revisedDurableLifetimeHours() + " h" : "", o.items(), o.rate(),
                subscription.revisedPublishingInterval(), samplingMs, queue);
        return subscription;
    }

    /**
     * Applies the fault to server {@code victim} (the client's) and arms the gate with where the first notification
     * after it is to come from; returns the URL it waits for, null for "any after the fault ended".
     */
    private static String apply(FailoverOptions o, FailoverServers servers, int victim, FailoverTally tally,
            ArrivalGate gate, long faultNanos, FailoverClient clients, DataChangeListener listener, PrintStream err)
            throws Exception {
        int partner = servers.count() > 1 ? 1 - victim : -1;
        gate.reset();
        switch (o.fault()) {
            case KILL, STOP -> {
                if (partner >= 0) {
                    gate.arm(faultNanos, servers.url(partner));
                    servers.stop(victim, o.fault() == Fault.KILL);
                    return servers.url(partner);
                }
                long down = System.currentTimeMillis();
                servers.stop(victim, o.fault() == Fault.KILL);
                servers.restart(victim, err);
                // nothing set the values due from the stop until the new process simulates (before its READY)
                tally.absent(servers.valueDueAt(down) + 1, servers.valueDueAt(System.currentTimeMillis()));
                gate.arm(System.nanoTime(), null);
                return null;
            }
            case CUT -> {
                // with a partner the client may fail over during the cut: a notification from it ends the gap
                if (partner >= 0) {
                    gate.arm(faultNanos, servers.url(partner));
                }
                servers.cut(victim, o.cut().equals("blackhole"));
                TimeUnit.MILLISECONDS.sleep(o.cutMs());
                servers.heal(victim);
                gate.widenIfWaiting(System.nanoTime());
                return null;
            }
            case CLIENT_RESTART -> {
                for (int s = 0; s < servers.count(); s++) {
                    servers.cut(s, false);
                }
                long downUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(o.downMs());
                if (o.clientNew()) {
                    clients.crash(err);
                }
                TimeUnit.NANOSECONDS.sleep(Math.max(0, downUntil - System.nanoTime()));
                for (int s = 0; s < servers.count(); s++) {
                    servers.heal(s);
                }
                gate.arm(System.nanoTime(), null);
                if (o.clientNew()) {
                    clients.restart(listener, err);
                }
                return null;
            }
            default -> throw new IllegalStateException("unknown fault " + o.fault());
        }
    }

    /**
     * Waits until the client is connected again and, in a pair, reads the restarted or healed server's ServiceLevel
     * (up to 30 s), so it can fail over to it at the next fault.
     */
    private static void waitUntilBack(OpcUaClient client, FailoverServers servers, int victim, FailoverOptions o,
            PrintStream err) throws InterruptedException {
        String url = servers.url(victim);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (client.state() == ClientState.CONNECTED) {
                if (!o.redundant()) {
                    return;
                }
                for (RedundantServer s : client.redundancy().servers()) {
                    if (s.endpointUrl().equals(url) && s.reachable() && s.serviceLevel() > 1) {
                        return;
                    }
                }
            }
            TimeUnit.MILLISECONDS.sleep(100);
        }
        err.println("note: the client did not get back to " + url + " within 30 s: " + client.state()
                + (o.redundant() ? " " + client.redundancy() : ""));
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

    /**
     * The moment the first notification after a fault arrives: armed with the earliest moment that counts and the
     * server it must come from (null: any), opened by the first notification that qualifies.
     */
    static final class ArrivalGate {

        private long openFromNanos = Long.MAX_VALUE;
        private String from;
        private long arrival;

        /** Closed: nothing qualifies until armed. */
        synchronized void reset() {
            this.openFromNanos = Long.MAX_VALUE;
            this.from = null;
            this.arrival = 0;
        }

        synchronized void arm(long fromNanos, String server) {
            this.openFromNanos = fromNanos;
            this.from = server;
            this.arrival = 0;
        }

        /** A notification arrived while the client's active server is {@code activeServer}. */
        void arrived(String activeServer) {
            long now = System.nanoTime();
            synchronized (this) {
                if (arrival == 0 && now >= openFromNanos && (from == null || from.equals(activeServer))) {
                    arrival = now;
                    notifyAll();
                }
            }
        }

        /** Unless a notification qualified already, from now on any notification qualifies. */
        synchronized void widenIfWaiting(long fromNanos) {
            if (arrival == 0) {
                arm(fromNanos, null);
            }
        }

        /** Waits until a qualifying notification arrives or {@code deadlineNanos}; its moment, 0 for none. */
        synchronized long await(long deadlineNanos) throws InterruptedException {
            while (arrival == 0 && System.nanoTime() < deadlineNanos) {
                wait(Math.max(1, (deadlineNanos - System.nanoTime()) / 1_000_000));
            }
            long result = arrival;
            openFromNanos = Long.MAX_VALUE;
            return result;
        }
    }
}
