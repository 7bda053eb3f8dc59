package dev.opcua.stack.client.redundancy;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.connection.ConnectionManager;
import dev.opcua.stack.client.discovery.DiscoveryClient;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.ClientSubscriptions;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.RedundantServerDataType;
import io.netty.util.Timeout;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Client failover in a non-transparent redundant server set (Part 4, 6.6.2.4): one per
 * {@link OpcUaClient} configured with {@link OpcUaClientConfig#redundancy()}. The client object stays
 * the same for the application across failovers: its {@link ConnectionManager} is sent to another
 * server ({@link ConnectionManager#switchServer}), a new session is created there and the
 * subscriptions of the client's record are re-created with their monitored items and listeners
 * (Table 111, "At Failover" for Cold: OpenSecureChannel, CreateSession, ActivateSession, create
 * Subscriptions and MonitoredItems). In {@link RedundancyMode#HOT} the backups' monitor sessions hold
 * mirrors of the subscriptions (publishing disabled) that the new session takes over instead: see
 * {@link RedundancyMode#HOT}. After every failover, ConditionRefresh is called for each subscription
 * with event items (Part 4, 6.6.2.2).
 *
 * <p>Before the first connect the ServiceLevel (i=2267) of every server is probed and the client
 * connects to the highest (ties: the configured order; none reachable: the first). Then, every
 * {@link RedundancyConfig#serviceLevelInterval()}: the active server's ServiceLevel is read over the
 * client's session; in {@link RedundancyMode#WARM}/{@link RedundancyMode#HOT} each other server's is
 * read over a session the manager keeps to it (a monitor, 6.6.2.4.5.3), in {@link RedundancyMode#COLD}
 * the others are probed (connect, read, close) only when a failover is due. A failover happens
 * <ul>
 * <li>when the client has been RECONNECTING (or CONNECTING) for {@link RedundancyConfig#failoverTimeout()}
 * ({@link FailoverReason#SERVER_LOST}), to the reachable server with the highest ServiceLevel above 1
 * (0 Maintenance and 1 NoData serve no data, Table 109); or</li>
 * <li>when the active server's ServiceLevel is below {@link RedundancyConfig#serviceLevelThreshold()} or
 * {@link RedundancyConfig#serviceLevelMargin()} below a partner's, and a partner's is higher
 * ({@link FailoverReason#SERVICE_LEVEL}); the session on the old server is closed.</li>
 * </ul>
 *
 * <p>Thread-safe: the checks run one at a time on the client's timer; a failover is told to the
 * {@link FailoverListener}s when the client is CONNECTED on the new server.
 */
public final class RedundancyManager {

    private static final Logger log = LoggerFactory.getLogger(RedundancyManager.class);
    private static final NodeId SERVICE_LEVEL = NodeId.ns0(NodeIds.Server_ServiceLevel);
    private static final NodeId SERVER_URI_ARRAY = NodeId.ns0(NodeIds.Server_ServerRedundancy_ServerUriArray);
    private static final NodeId REDUNDANT_SERVER_ARRAY = NodeId.ns0(NodeIds.Server_ServerRedundancy_RedundantServerArray);
    private static final String MONITOR_SUFFIX = " (redundancy monitor)";
    private static final String PROBE_SUFFIX = " (redundancy probe)";

    /** One server of the set. */
    private static final class Server {
        final String url;
        volatile String serverUri;
        volatile int level = -1;
        volatile boolean reachable;
        volatile OpcUaClient monitor;
        /** HOT: the client's subscriptions and their mirrors on {@link #monitor}, publishing disabled. */
        final Map<ClientSubscription, ClientSubscription> mirrors = new ConcurrentHashMap<>();

        Server(String url) {
            this.url = url;
        }
    }

    private record Pending(String from, String to, FailoverReason reason, Instant started, long startNanos,
            long lostBefore) {
    }

    private final OpcUaClient client;
    private final ConnectionManager connection;
    private final ClientSubscriptions subscriptions;
    private final OpcUaClientConfig config;
    private final RedundancyConfig redundancy;
    private final List<Server> servers = new CopyOnWriteArrayList<>();
    private final List<FailoverListener> listeners = new CopyOnWriteArrayList<>();
    private final AtomicBoolean checking = new AtomicBoolean();
    private final AtomicLong failovers = new AtomicLong();
    private final AtomicLong possiblyLost = new AtomicLong();
    private final AtomicLong conditionRefreshes = new AtomicLong();
    private volatile Duration lastFailoverDuration;
    private volatile boolean running;
    private volatile Timeout tick;
    /** When the client left CONNECTED (or the last switch while not connected); 0 while connected. */
    private volatile long troubleSinceNanos;
    private volatile Instant troubleSince;
    private volatile long lostBefore;
    private volatile Pending pending;

    public RedundancyManager(OpcUaClient client, ConnectionManager connection, ClientSubscriptions subscriptions) {
        this.client = client;
        this.connection = connection;
        this.subscriptions = subscriptions;
        this.config = client.config();
        this.redundancy = config.redundancy();
        for (String url : redundancy.servers(config.endpointUrl())) {
            servers.add(new Server(url));
        }
        client.addStateListener((previous, current, cause) -> stateChanged(current));
    }

    public void addFailoverListener(FailoverListener listener) {
        listeners.add(listener);
    }

    public void removeFailoverListener(FailoverListener listener) {
        listeners.remove(listener);
    }

    public long failovers() {
        return failovers.get();
    }

    /** The last failover's duration (see {@link FailoverEvent#duration()}); null before the first. */
    public Duration lastFailoverDuration() {
        return lastFailoverDuration;
    }

    /** The sum of {@link FailoverEvent#notificationsPossiblyLost()} over every failover. */
    public long notificationsPossiblyLost() {
        return possiblyLost.get();
    }

    /** The endpoint URL of the server the client's connection goes to (or went to last). */
    public String activeServer() {
        return connection.connectedUrl();
    }

    public RedundancyStatus status() {
        String active = activeServer();
        List<RedundantServer> view = new ArrayList<>();
        for (Server s : servers) {
            view.add(new RedundantServer(s.url, s.serverUri, s.level, s.reachable, s.url.equals(active)));
        }
        return new RedundancyStatus(redundancy.mode(), List.copyOf(view), active, failovers.get(),
                lastFailoverDuration, possiblyLost.get());
    }

    // ---- start and stop ---------------------------------------------------------------------------

    /**
     * Before the client's first connect: discovers the set when asked, probes every server's
     * ServiceLevel and points the connection at the highest; then the checks start. Never fails: a
     * failed discovery or probe leaves the configured set and the first server.
     */
    public CompletableFuture<Void> beforeConnect() {
        running = true;
        troubleSinceNanos = System.nanoTime();
        troubleSince = Instant.now();
        CompletableFuture<Void> discovered = redundancy.discover() ? discover() : CompletableFuture.completedFuture(null);
        return discovered.thenCompose(ok -> probe(servers)).handle((ok, failure) -> {
            Server best = best(null);
            if (best != null && !best.url.equals(connection.connectedUrl())) {
                log.info("redundant set {}: connecting to {} (ServiceLevel {})", urls(), best.url, best.level);
                connection.switchServer(best.url, new UaException(StatusCodes.Good, "highest ServiceLevel"));
            }
            schedule();
            return null;
        });
    }

    /** The client disconnected: the checks stop and the monitor sessions are closed. */
    public CompletableFuture<Void> stop() {
        running = false;
        Timeout t = tick;
        if (t != null) {
            t.cancel();
        }
        List<CompletableFuture<Void>> closing = new ArrayList<>();
        for (Server s : servers) {
            OpcUaClient m = s.monitor;
            s.monitor = null;
            s.mirrors.clear();
            if (m != null) {
                closing.add(m.disconnect());
            }
        }
        return CompletableFuture.allOf(closing.toArray(CompletableFuture[]::new));
    }

    // ---- discovery --------------------------------------------------------------------------------

    /**
     * Part 4, 6.6.2.4.5: the first server's ServerUriArray (and the ServerIds of its RedundantServerArray),
     * each translated into a discovery URL with FindServers on that server.
     */
    private CompletableFuture<Void> discover() {
        String seed = config.endpointUrl();
        OpcUaClient probe = OpcUaClient.create(config.forServer(seed, PROBE_SUFFIX));
        return probe.connect().thenCompose(c -> c.readValues(List.of(SERVER_URI_ARRAY, REDUNDANT_SERVER_ARRAY)))
                .thenCompose(values -> {
                    LinkedHashSet<String> uris = new LinkedHashSet<>();
                    if (values.get(0).value().value() instanceof String[] array) {
                        uris.addAll(List.of(array));
                    }
                    if (values.get(1).value().value() instanceof Object[] array) {
                        for (Object o : array) {
                            Object decoded = o instanceof ExtensionObject x ? x.decoded() : o;
                            if (decoded instanceof RedundantServerDataType r && r.serverId() != null) {
                                uris.add(r.serverId());
                            }
                        }
                    }
                    return DiscoveryClient.findServers(seed, config.quotas(), config.resources())
                            .thenApply(found -> {
                                addDiscovered(uris, found);
                                return (Void) null;
                            });
                }).handle((ok, failure) -> {
                    if (failure != null) {
                        log.warn("could not discover the redundant set of {}: {}; going on with {}", seed,
                                Failures.unwrap(failure).getMessage(), urls());
                    }
                    probe.disconnect();
                    return null;
                });
    }

    private void addDiscovered(LinkedHashSet<String> uris, ApplicationDescription[] found) {
        for (ApplicationDescription app : found) {
            if (!uris.contains(app.applicationUri()) || app.discoveryUrls() == null) {
                continue;
            }
            for (String url : app.discoveryUrls()) {
                if (url != null && url.startsWith("opc.tcp:")) {
                    if (servers.stream().noneMatch(s -> s.url.equals(url))) {
                        Server s = new Server(url);
                        s.serverUri = app.applicationUri();
                        servers.add(s);
                    }
                    break;
                }
            }
        }
        log.info("redundant set discovered from {}: ServerUris {}, endpoints {}", config.endpointUrl(), uris, urls());
        List<String> unresolved = uris.stream().filter(u -> servers.stream().noneMatch(s -> u.equals(s.serverUri))
                && java.util.Arrays.stream(found).noneMatch(app -> u.equals(app.applicationUri()))).toList();
        if (!unresolved.isEmpty()) {
            log.warn("the redundant set of {} names {}, which its FindServers does not return (Part 4, 5.4.2 asks "
                    + "a record for each server of the set): left out; name them in endpoints", config.endpointUrl(),
                    unresolved);
        }
    }

    // ---- the checks -------------------------------------------------------------------------------

    private void schedule() {
        if (!running) {
            return;
        }
        try {
            tick = config.resources().timer().newTimeout(t -> check(), redundancy.serviceLevelInterval().toMillis(),
                    TimeUnit.MILLISECONDS);
        } catch (IllegalStateException e) {
            log.debug("the client's timer is stopped: no redundancy checks");
        }
    }

    private void check() {
        if (!running || !checking.compareAndSet(false, true)) {
            return;
        }
        CompletableFuture<Void> done;
        try {
            done = checkOnce();
        } catch (RuntimeException e) {
            done = CompletableFuture.failedFuture(e);
        }
        done.whenComplete((ok, failure) -> {
            if (failure != null) {
                log.debug("redundancy check failed: {}", failure.toString());
            }
            checking.set(false);
            schedule();
        });
    }

    private CompletableFuture<Void> checkOnce() {
        ClientState state = client.state();
        if (state == ClientState.DISCONNECTED) {
            return CompletableFuture.completedFuture(null);
        }
        String active = activeServer();
        CompletableFuture<Void> others = redundancy.mode() == RedundancyMode.COLD ? CompletableFuture.completedFuture(null)
                : readMonitors(active);
        if (state == ClientState.CONNECTED) {
            if (pending != null) {
                return others;
            }
            if (redundancy.mode() == RedundancyMode.HOT) {
                others = others.thenCompose(ok -> mirrorAll(active));
            }
            Server current = server(active);
            CompletableFuture<DataValue> level = client.readValue(SERVICE_LEVEL);
            return CompletableFuture.allOf(others, level.handle((v, f) -> null)).thenCompose(ok -> {
                DataValue v = level.getNow(null);
                if (current == null || v == null || !(v.value().value() instanceof Number n)) {
                    return CompletableFuture.completedFuture(null);
                }
                current.level = n.intValue();
                current.reachable = true;
                return serviceLevelCheck(current);
            });
        }
        // RECONNECTING or CONNECTING: fail over once the timeout has passed
        if (System.nanoTime() - troubleSinceNanos < redundancy.failoverTimeout().toNanos()) {
            return others;
        }
        return others.thenCompose(ok -> candidates(active)).thenAccept(best -> {
            if (best != null && client.state() != ClientState.CONNECTED && client.state() != ClientState.DISCONNECTED) {
                failOver(active, best, FailoverReason.SERVER_LOST, troubleSince, troubleSinceNanos,
                        new UaException(StatusCodes.BadConnectionClosed, active + " was not reachable for "
                                + redundancy.failoverTimeout()));
            }
        });
    }

    private CompletableFuture<Void> serviceLevelCheck(Server current) {
        int activeLevel = current.level;
        boolean degraded = activeLevel < redundancy.serviceLevelThreshold();
        if (redundancy.mode() == RedundancyMode.COLD) {
            if (!degraded) {
                return CompletableFuture.completedFuture(null);
            }
            return candidates(current.url).thenAccept(best -> serviceLevelFailover(current, activeLevel, best, true));
        }
        serviceLevelFailover(current, activeLevel, best(current.url), degraded);
        return CompletableFuture.completedFuture(null);
    }

    private void serviceLevelFailover(Server current, int activeLevel, Server best, boolean degraded) {
        if (best == null || best.level <= activeLevel) {
            return;
        }
        if (degraded || best.level - activeLevel >= redundancy.serviceLevelMargin()) {
            failOver(current.url, best, FailoverReason.SERVICE_LEVEL, Instant.now(), System.nanoTime(),
                    new UaException(StatusCodes.Good, "the ServiceLevel of " + current.url + " is " + activeLevel
                            + ", " + best.url + "'s " + best.level));
        }
    }

    /** The best other server: from the monitors' last reads, else (and in Cold mode) by probing. */
    private CompletableFuture<Server> candidates(String exclude) {
        Server known = redundancy.mode() == RedundancyMode.COLD ? null : best(exclude);
        if (known != null) {
            return CompletableFuture.completedFuture(known);
        }
        List<Server> others = servers.stream().filter(s -> !s.url.equals(exclude)).toList();
        return probe(others).thenApply(ok -> best(exclude));
    }

    /** The reachable server with the highest ServiceLevel above 1, other than {@code exclude}; null if none. */
    private Server best(String exclude) {
        Server best = null;
        for (Server s : servers) {
            if (s.url.equals(exclude) || !s.reachable || s.level <= 1) {
                continue;
            }
            if (best == null || s.level > best.level) {
                best = s;
            }
        }
        return best;
    }

    private void failOver(String from, Server to, FailoverReason reason, Instant started, long startNanos,
            Throwable cause) {
        if (!running) {
            return;
        }
        pending = new Pending(from, to.url, reason, started, startNanos, lostBefore);
        if (redundancy.mode() == RedundancyMode.HOT) {
            // the subscriptions take over their mirrors on the new server rather than being re-created
            String url = to.url;
            for (ClientSubscription s : subscriptions.list()) {
                ClientSubscription mirror = to.mirrors.remove(s);
                // while the hooks run connectedUrl() is still the old server's: the new channel tells
                s.adoptAtNextRecreate(mirror, () -> connection.channel() != null
                        && url.equals(connection.channel().endpointUrl()));
            }
            to.mirrors.clear();
        }
        // the new target gets its own failover timeout
        troubleSinceNanos = System.nanoTime();
        if (redundancy.mode() == RedundancyMode.HOT_AND_MIRRORED) {
            switchKeepingSession(to.url, cause);
        } else {
            connection.switchServer(to.url, cause);
        }
    }

    private void stateChanged(ClientState current) {
        if (current == ClientState.RECONNECTING) {
            if (troubleSinceNanos == 0) {
                troubleSinceNanos = System.nanoTime();
                troubleSince = Instant.now();
                lostBefore = subscriptions.lostSequenceNumbers();
            }
        } else if (current == ClientState.CONNECTED) {
            troubleSinceNanos = 0;
            Pending p = pending;
            pending = null;
            if (p != null) {
                completed(p);
            }
            syncMonitors();
        } else if (current == ClientState.DISCONNECTED) {
            pending = null;
        }
    }

    private void completed(Pending p) {
        Duration duration = Duration.ofNanos(System.nanoTime() - p.startNanos());
        String to = activeServer();
        if (p.from() != null && p.from().equals(to)) {
            // a slow connect to the server being left (the first one, often) came through before the switch: the
            // client stays where it was, nothing failed over, and no event or count says otherwise
            sessionAtFailover = null;
            connection.stayOn(to);
            log.info("connected to {} after {} ms, before the failover to {} went through: staying there", to,
                    duration.toMillis(), p.to());
            return;
        }
        long lost = Math.max(0, subscriptions.lostSequenceNumbers() - p.lostBefore());
        failovers.incrementAndGet();
        possiblyLost.addAndGet(lost);
        lastFailoverDuration = duration;
        Server now = server(to);
        EndpointDescription e = client.endpoint();
        if (now != null && e != null && e.server() != null) {
            now.serverUri = e.server().applicationUri();
        }
        FailoverEvent event = new FailoverEvent(p.from(), to, p.reason(), p.started(), duration, lost,
                failoverPath());
        conditionRefresh();
        log.warn("failed over from {} to {} ({}) in {} ms", p.from(), to, p.reason(), duration.toMillis());
        if (!listeners.isEmpty()) {
            // off the thread where a response completed: a failover listener may block
            client.config().notificationExecutor().execute(() -> tell(event));
        }
    }

    private void tell(FailoverEvent event) {
        for (FailoverListener l : listeners) {
            try {
                l.onFailover(event);
            } catch (RuntimeException ex) {
                log.warn("failover listener {} failed", l, ex);
            }
        }
    }

    /**
     * Part 4, 6.6.2.2: after a failover the client calls ConditionRefresh for every subscription with event
     * items, so that the conditions' current states reach it from the new server.
     */
    private void conditionRefresh() {
        for (ClientSubscription s : subscriptions.list()) {
            if (s.subscriptionId() == 0 || !s.hasEventItems()) {
                continue;
            }
            conditionRefreshes.incrementAndGet();
            s.conditionRefresh().whenComplete((status, failure) -> {
                if (failure != null || status.isBad()) {
                    log.info("ConditionRefresh of {} after the failover: {}", s,
                            failure != null ? Failures.unwrap(failure).toString() : status);
                }
            });
        }
    }

    /** ConditionRefresh calls made after failovers (one per subscription with event items per failover). */
    public long conditionRefreshes() {
        return conditionRefreshes.get();
    }

    // ---- HotAndMirrored: the session goes along (Part 4, 6.6.2.4.5.5) ------------------------------

    /** The client's session when the HotAndMirrored failover under way began; null for none. */
    private volatile NodeId sessionAtFailover;

    /** Fails over to {@code url} activating the client's session there; the partner took its state over. */
    private void switchKeepingSession(String url, Throwable cause) {
        sessionAtFailover = connection.switchServerKeepingSession(url, cause);
    }

    /** How the failover just completed reached the new server. */
    private FailoverPath failoverPath() {
        NodeId before = sessionAtFailover;
        sessionAtFailover = null;
        var session = client.session();
        if (redundancy.mode() == RedundancyMode.HOT_AND_MIRRORED && before != null && session != null
                && before.equals(session.sessionId())) {
            return FailoverPath.SESSION_REACTIVATED;
        }
        return redundancy.mode() == RedundancyMode.HOT ? FailoverPath.MIRRORS_TRANSFERRED
                : FailoverPath.SUBSCRIPTIONS_RECREATED;
    }

    // ---- Hot: mirrors on the backups (Part 4, 6.6.2.4.5.4) -----------------------------------------

    /** Every backup's monitor session gets, and keeps, a mirror of each of the client's subscriptions. */
    private CompletableFuture<Void> mirrorAll(String active) {
        List<CompletableFuture<Void>> work = new ArrayList<>();
        for (Server s : servers) {
            OpcUaClient m = s.monitor;
            if (!s.url.equals(active) && m != null && m.state() == ClientState.CONNECTED) {
                work.add(mirror(s, m).exceptionally(f -> {
                    log.debug("Hot mirrors on {}: {}", s.url, Failures.unwrap(f).toString());
                    return null;
                }));
            }
        }
        return CompletableFuture.allOf(work.toArray(CompletableFuture[]::new));
    }

    private CompletableFuture<Void> mirror(Server s, OpcUaClient monitor) {
        List<CompletableFuture<?>> work = new ArrayList<>();
        Set<ClientSubscription> live = new HashSet<>(subscriptions.list());
        for (Map.Entry<ClientSubscription, ClientSubscription> e : s.mirrors.entrySet()) {
            if (!live.contains(e.getKey())) {
                s.mirrors.remove(e.getKey());
                work.add(e.getValue().delete());
            }
        }
        // mirrors of an adoption that did not happen (the failover went elsewhere) are no one's now
        for (ClientSubscription orphan : monitor.subscriptions().list()) {
            if (!s.mirrors.containsValue(orphan)) {
                work.add(orphan.delete());
            }
        }
        for (ClientSubscription original : live) {
            if (original.subscriptionId() == 0) {
                continue;
            }
            ClientSubscription existing = s.mirrors.get(original);
            if (existing != null) {
                work.add(existing.mirror(original));
                continue;
            }
            work.add(monitor.subscriptions().create(original.parameters().withPublishingEnabled(false).durable(null))
                    .thenCompose(created -> {
                        if (s.monitor != monitor) {
                            return created.delete();
                        }
                        s.mirrors.put(original, created);
                        return created.mirror(original);
                    }));
        }
        return CompletableFuture.allOf(work.toArray(CompletableFuture[]::new));
    }

    /** For tests and diagnostics: how many subscriptions are mirrored on {@code url}'s monitor session. */
    public int mirrors(String url) {
        Server s = server(url);
        return s == null ? 0 : s.mirrors.size();
    }

    // ---- ServiceLevel of the other servers ---------------------------------------------------------

    /** Warm/Hot: a monitor session to every server but the active one; the active one's is closed. */
    private void syncMonitors() {
        if (!running || redundancy.mode() == RedundancyMode.COLD) {
            return;
        }
        String active = activeServer();
        for (Server s : servers) {
            OpcUaClient m = s.monitor;
            if (s.url.equals(active)) {
                if (m != null) {
                    s.monitor = null;
                    s.mirrors.clear();
                    m.disconnect();
                }
            } else if (m == null) {
                OpcUaClientConfig c = config.forServer(s.url, MONITOR_SUFFIX).toBuilder().keepTryingToConnect(true)
                        .build();
                OpcUaClient monitor = OpcUaClient.create(c);
                s.mirrors.clear();
                s.monitor = monitor;
                monitor.connect().whenComplete((ok, failure) -> {
                    if (failure != null) {
                        log.debug("redundancy monitor of {}: {}", s.url, failure.toString());
                    }
                });
            }
        }
    }

    private CompletableFuture<Void> readMonitors(String active) {
        List<CompletableFuture<?>> reads = new ArrayList<>();
        for (Server s : servers) {
            OpcUaClient m = s.monitor;
            if (s.url.equals(active) || m == null) {
                continue;
            }
            if (m.state() != ClientState.CONNECTED) {
                s.reachable = false;
                continue;
            }
            reads.add(m.readValue(SERVICE_LEVEL).orTimeout(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS)
                    .handle((v, f) -> {
                        record(s, f == null ? v : null);
                        if (f == null && s.serverUri == null && m.endpoint() != null && m.endpoint().server() != null) {
                            s.serverUri = m.endpoint().server().applicationUri();
                        }
                        return null;
                    }));
        }
        return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new));
    }

    /** Connect, read ServiceLevel, disconnect: each of {@code which}, in parallel. */
    private CompletableFuture<Void> probe(List<Server> which) {
        List<CompletableFuture<?>> probes = new ArrayList<>();
        for (Server s : which) {
            OpcUaClient probe = OpcUaClient.create(config.forServer(s.url, PROBE_SUFFIX));
            probes.add(probe.connect().thenCompose(c -> c.readValue(SERVICE_LEVEL))
                    .orTimeout(config.requestTimeout().toMillis(), TimeUnit.MILLISECONDS).handle((v, f) -> {
                        record(s, f == null ? v : null);
                        if (f == null && probe.endpoint() != null && probe.endpoint().server() != null) {
                            s.serverUri = probe.endpoint().server().applicationUri();
                        }
                        probe.disconnect();
                        return null;
                    }));
        }
        return CompletableFuture.allOf(probes.toArray(CompletableFuture[]::new));
    }

    private static void record(Server s, DataValue v) {
        if (v != null && v.value().value() instanceof Number n) {
            s.level = n.intValue();
            s.reachable = true;
        } else {
            s.reachable = false;
        }
    }

    private Server server(String url) {
        for (Server s : servers) {
            if (s.url.equals(url)) {
                return s;
            }
        }
        return null;
    }

    private List<String> urls() {
        return servers.stream().map(s -> s.url).toList();
    }

    /** For tests and diagnostics: the servers' last known ServiceLevels by endpoint URL. */
    public Map<String, Integer> serviceLevels() {
        Map<String, Integer> levels = new ConcurrentHashMap<>();
        servers.forEach(s -> levels.put(s.url, s.level));
        return levels;
    }
}
