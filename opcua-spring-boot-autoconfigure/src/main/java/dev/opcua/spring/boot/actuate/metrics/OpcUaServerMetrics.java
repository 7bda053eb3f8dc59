package dev.opcua.spring.boot.actuate.metrics;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.server.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.server.transport.uasc.TransportRejection;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.redundancy.RedundancyMode;
import dev.opcua.stack.server.redundancy.SessionMirror;
import dev.opcua.stack.server.requests.RejectReason;
import dev.opcua.stack.server.requests.RequestStatistics;
import dev.opcua.stack.server.session.SessionCounters;
import dev.opcua.stack.server.subscriptions.SubscriptionStatistics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import java.util.ArrayList;
import java.util.List;
import dev.opcua.stack.server.transport.ReverseConnectStatistics;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * The meters of one {@link OpcUaServer} (DESIGN.md section 7), read from the server's own counters
 * when a registry publishes them; nothing is recorded per request.
 *
 * <ul>
 * <li>{@code opcua.server.requests.queued} gauge: requests waiting for a worker, both lanes;
 *     {@code opcua.server.requests.queue.capacity} gauge: the bound of the ordinary queue
 *     (MaxQueuedRequestCount); {@code opcua.server.workers.busy} gauge</li>
 * <li>{@code opcua.server.requests.rejected} function counter [reason]: requests answered without being
 *     run, one series per {@link RejectReason} ({@code too_busy}, {@code too_old}, {@code timeout},
 *     {@code halted})</li>
 * <li>{@code opcua.server.requests.queue.wait} function timer: time requests spent in the queue</li>
 * <li>{@code opcua.server.requests.inline} function counter: requests run on the I/O thread that received
 *     them because none waited ({@code requests.inline-when-idle}); they are not in the queue wait</li>
 * <li>{@code opcua.server.sessions} gauge, {@code opcua.server.sessions.opened|closed|rejected|timeouts}
 *     function counters</li>
 * <li>{@code opcua.server.secure.channels} gauge, {@code opcua.server.transport.received|sent} function
 *     counters (bytes)</li>
 * <li>hostile peers (docs/SECURITY.md, "Hostile peers"): {@code opcua.server.connections} gauge (sockets open
 *     now); {@code opcua.server.transport.rejected} function counter [reason]: peers refused at the transport,
 *     one series per {@link TransportRejection} ({@code connection_limit}, {@code handshake_timeout},
 *     {@code receive_timeout}, {@code message_too_large}, {@code response_too_large}, {@code write_stall},
 *     {@code write_buffer_limit}, {@code protocol_error}); {@code opcua.server.limits.rejected} function counter [limit]: operations refused
 *     at a service limit ({@code too_many_subscriptions}, {@code too_many_monitored_items},
 *     {@code too_many_publish_requests}, {@code no_continuation_points}, {@code query_too_complex});
 *     {@code opcua.server.requests.undecodable} (BadDecodingError, BadEncodingLimitsExceeded ...) and
 *     {@code opcua.server.sessions.unactivated.timeouts} function counters</li>
 * <li>{@code opcua.server.subscriptions}, {@code opcua.server.monitored.items},
 *     {@code opcua.server.publish.requests.parked} gauges, {@code opcua.server.notifications.sent|dropped}
 *     function counters</li>
 * <li>history recording (Part 11; a server with a history store): {@code opcua.server.history.backlog} gauge
 *     (values waiting: queued in the recorder or handed to the store and not yet acknowledged), and
 *     {@code opcua.server.history.values.recorded|dropped|refused} function counters (acknowledged by the store;
 *     dropped by the recorder because its bounded queue was full; refused by the store)</li>
 * <li>reverse connect (Part 6, 7.1.3; {@code reverse-connect.clients}): {@code opcua.server.reverse.attempts}
 *     function counter (connections dialled) and {@code opcua.server.reverse.connections} function counter
 *     [outcome]: {@code taken} (the client's Hello arrived), {@code failed} (the dial did not connect),
 *     {@code closed_unused} (closed before a Hello: refused by the client, or timed out); a dial still waiting
 *     for its client is in none of them yet; all 0 when reverse connect is off</li>
 * <li>{@code opcua.server.certificate.expiry} gauge (seconds): time left until the application certificate's
 *     notAfter, negative once it expired, NaN without a certificate (SecurityPolicy None only, or before
 *     start); read at every scrape, so a renewed certificate shows at once</li>
 * </ul>
 * Every meter carries the tag {@code application.uri} (the server's ApplicationUri) and the tags given
 * to the constructor.
 *
 * <p>The request timer {@code opcua.server.requests} [service, status, outcome, error] and the in-flight
 * long task timer {@code opcua.server.requests.active} [service] are not registered here: they come
 * from the Observation of every service call ({@link dev.opcua.spring.boot.observation.ObservationServiceObserver})
 * through Micrometer's {@code DefaultMeterObservationHandler}, which Spring Boot installs when both
 * metrics and observations are configured. Registering them here as well would count every call twice.
 *
 * <p>Every meter reads the server's {@link OpcUaServer#statistics() statistics}. Bind it once the server
 * has started: the counters exist from {@link OpcUaServer#start()} on; until then every meter reads 0.
 * After the server stops they keep the counts of its last run, so counters do not fall back to 0.
 * {@link #close()} removes the meters from the registries they were bound to.
 */
public final class OpcUaServerMetrics extends StateMeters<OpcUaServer> {

    /** The tag of every meter that names the server. */
    public static final String APPLICATION_URI_TAG = "application.uri";

    /** Meters tagged with the server's application URI only. */
    public OpcUaServerMetrics(OpcUaServer server) {
        this(server, Tags.empty());
    }

    /**
     * @param server the server to watch; it stays referenced weakly by the meters, as Micrometer does
     *        for every state object, so its owner keeps it alive
     * @param tags added to every meter
     */
    public OpcUaServerMetrics(OpcUaServer server, Iterable<Tag> tags) {
        super(server, Tags.of(tags).and(APPLICATION_URI_TAG, applicationUri(server)));
    }

    private static String applicationUri(OpcUaServer server) {
        String uri = Objects.requireNonNull(server, "server").namespaces().uri(1);
        return uri == null ? "" : uri;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        List<Meter> meters = new ArrayList<>();
        meters.add(gauge(registry, "opcua.server.requests.queued", "Requests waiting for a worker, both lanes", s -> requests(s, RequestStatistics::queued)));
        meters.add(gauge(registry, "opcua.server.requests.queue.capacity",
                "Requests the ordinary queue holds at most (MaxQueuedRequestCount)",
                s -> requests(s, RequestStatistics::queueCapacity)));
        meters.add(gauge(registry, "opcua.server.workers.busy", "Worker threads running a request now",
                s -> requests(s, RequestStatistics::busyWorkers)));
        for (RejectReason reason : RejectReason.values()) {
            meters.add(FunctionCounter.builder("opcua.server.requests.rejected", state(),
                            s -> requests(s, statistics -> statistics.rejected(reason)))
                    .description("Requests answered with a ServiceFault without being run")
                    .tags(tags())
                    .tag("reason", reason.name().toLowerCase(Locale.ROOT))
                    .register(registry));
        }
        meters.add(FunctionTimer.builder("opcua.server.requests.queue.wait", state(),
                        s -> requests(s, RequestStatistics::queueWaitCount),
                        s -> requests(s, RequestStatistics::queueWaitTotalNanos), TimeUnit.NANOSECONDS)
                .description("Time requests waited in the queue before a worker took them")
                .tags(tags())
                .register(registry));
        meters.add(counter(registry, "opcua.server.requests.inline",
                "Requests run on the I/O thread that received them because no request waited",
                s -> requests(s, RequestStatistics::ranInline)));

        meters.add(gauge(registry, "opcua.server.sessions", "Sessions open now, activated or not",
                s -> s.statistics().currentSessions()));
        // not "sessions.created": Prometheus reads a counter's "_created" as its creation time, and
        // opcua_server_sessions would then be both this counter and the gauge above
        meters.add(counter(registry, "opcua.server.sessions.opened", "Sessions created by CreateSession",
                s -> sessions(s, SessionCounters::sessionsCreated)));
        meters.add(counter(registry, "opcua.server.sessions.closed", "Sessions closed by CloseSession", s -> sessions(s, SessionCounters::sessionsClosed)));
        meters.add(counter(registry, "opcua.server.sessions.rejected",
                "CreateSession requests refused (too many sessions, bad client certificate ...)",
                s -> sessions(s, SessionCounters::sessionsRejected)));
        meters.add(counter(registry, "opcua.server.sessions.timeouts", "Sessions closed because their timeout "
                + "expired", s -> sessions(s, SessionCounters::sessionTimeouts)));

        meters.add(gauge(registry, "opcua.server.secure.channels", "Secure channels open now",
                s -> transport(s, ServerChannelCounters::secureChannels)));
        meters.add(counter(registry, "opcua.server.transport.received", "Bytes received on every connection",
                BaseUnits.BYTES, s -> transport(s, ServerChannelCounters::bytesReceived)));
        meters.add(counter(registry, "opcua.server.transport.sent", "Bytes sent on every connection", BaseUnits.BYTES,
                s -> transport(s, ServerChannelCounters::bytesSent)));

        meters.add(gauge(registry, "opcua.server.connections", "Sockets open now, with or without a secure channel", s -> transport(s, ServerChannelCounters::openConnections)));
        for (TransportRejection reason : TransportRejection.values()) {
            meters.add(FunctionCounter.builder("opcua.server.transport.rejected", state(),
                            s -> transport(s, counters -> counters.rejected(reason)))
                    .description("Peers refused at the transport: connections closed with an ERR, or responses "
                            + "over the client's limits")
                    .tags(tags())
                    .tag("reason", reason.name().toLowerCase(Locale.ROOT))
                    .register(registry));
        }
        meters.add(limit(registry, "too_many_subscriptions",
                s -> subscriptions(s, SubscriptionStatistics::subscriptionsRejected)));
        meters.add(limit(registry, "too_many_monitored_items",
                s -> subscriptions(s, SubscriptionStatistics::monitoredItemsRejected)));
        meters.add(limit(registry, "too_many_publish_requests",
                s -> subscriptions(s, SubscriptionStatistics::publishRequestsRejected)));
        meters.add(limit(registry, "no_continuation_points", s -> s.statistics().continuationPointsRefused()));
        meters.add(limit(registry, "query_too_complex", s -> s.statistics().browsePathsRefused()));
        meters.add(counter(registry, "opcua.server.requests.undecodable",
                "Requests answered with a ServiceFault because they could not be decoded (BadDecodingError, "
                        + "BadEncodingLimitsExceeded ...)", s -> requests(s, RequestStatistics::undecodable)));
        meters.add(counter(registry, "opcua.server.sessions.unactivated.timeouts",
                "Sessions created, never activated, and closed by their timeout",
                s -> sessions(s, SessionCounters::unactivatedSessionTimeouts)));

        meters.add(gauge(registry, "opcua.server.subscriptions", "Subscriptions open now",
                s -> subscriptions(s, SubscriptionStatistics::subscriptions)));
        meters.add(gauge(registry, "opcua.server.monitored.items", "Monitored items of every subscription",
                s -> subscriptions(s, SubscriptionStatistics::monitoredItems)));
        meters.add(gauge(registry, "opcua.server.publish.requests.parked",
                "Publish requests waiting in their session for a notification or keep-alive",
                s -> subscriptions(s, SubscriptionStatistics::parkedPublishRequests)));
        meters.add(counter(registry, "opcua.server.notifications.sent", "Notifications sent in Publish responses", s -> subscriptions(s, SubscriptionStatistics::notificationsSent)));
        meters.add(counter(registry, "opcua.server.notifications.dropped",
                "Notifications discarded by full monitored-item queues",
                s -> subscriptions(s, SubscriptionStatistics::notificationsDropped)));
        meters.add(gauge(registry, "opcua.server.history.backlog",
                "Values waiting to be stored: queued in the history recorder or not yet acknowledged by the store", s -> s.statistics().historyBacklog()));
        meters.add(counter(registry, "opcua.server.history.values.recorded",
                "Values of historizing variables the history store acknowledged",
                s -> s.statistics().historyValuesRecorded()));
        meters.add(counter(registry, "opcua.server.history.values.dropped",
                "Values not recorded because the history recorder's queue was full (the store fell behind)", s -> s.statistics().historyValuesDropped()));
        for (String outcome : new String[] {"raised", "dropped"}) {
            meters.add(FunctionCounter.builder("opcua.server.audit.events", state(), s -> outcome.equals("raised")
                            ? s.statistics().auditEventsRaised() : s.statistics().auditEventsDropped())
                    .description("Audit events raised on the Server object, or dropped because the audit thread fell"
                            + " behind (Part 4, 6.5)")
                    .tags(tags())
                    .tag("outcome", outcome)
                    .register(registry));
        }
        meters.add(counter(registry, "opcua.server.history.values.refused",
                "Values the history store refused (failed appends)",
                s -> s.statistics().historyValuesRefused()));
        meters.add(counter(registry, "opcua.server.reverse.attempts",
                "Connections dialled to reverse-connect clients (Part 6, 7.1.3)",
                s -> reverseConnect(s).attempts()));
        meters.add(reverseConnection(registry, "taken", ReverseConnectStatistics::taken));
        meters.add(reverseConnection(registry, "failed", ReverseConnectStatistics::failedAttempts));
        meters.add(reverseConnection(registry, "closed_unused", ReverseConnectStatistics::closedUnused));
        if (state().redundancy().settings().mode() == RedundancyMode.HotAndMirrored) {
            mirrorMeters(registry, meters);
        }
        if (state().config().watchesPartners()) {
            meters.add(gauge(registry, "opcua.server.redundancy.partners.reachable",
                    "Partners of the redundant set the partner monitor reached at its last read",
                    s -> partners(s, dev.opcua.stack.server.redundancy.PartnerStatus::reachable)));
            meters.add(gauge(registry, "opcua.server.redundancy.partners.mismatched",
                    "Partners with another ServerUri, NamespaceArray or address space (ServiceLevel held at 100)",
                    s -> partners(s, p -> p.mismatch() != null)));
        }
        meters.add(gauge(registry, "opcua.server.certificate.expiry",
                "Seconds until the application certificate expires (notAfter); negative once expired, NaN without one",
                "seconds", OpcUaServerMetrics::secondsUntilCertificateExpiry));
        bound(registry, meters);
    }




    /** The HotAndMirrored session mirror (Part 4, 6.6.2.4.5): what it wrote, lost, and whether the store answers. */
    private void mirrorMeters(MeterRegistry registry, List<Meter> meters) {
        record Outcome(String name, ToLongFunction<SessionMirror> count) {
        }
        for (Outcome outcome : List.of(new Outcome("written", SessionMirror::writtenStates),
                new Outcome("dropped", SessionMirror::droppedStates),
                new Outcome("failed", SessionMirror::failedWrites))) {
            meters.add(FunctionCounter.builder("opcua.server.redundancy.mirror.states", state(),
                            s -> mirror(s, outcome.count()))
                    .description("Session states of the HotAndMirrored mirror: written to the shared store, dropped "
                            + "past its bound while the store was away, or writes that failed")
                    .tags(tags())
                    .tag("outcome", outcome.name())
                    .register(registry));
        }
        meters.add(counter(registry, "opcua.server.redundancy.sessions.taken.over",
                "Sessions of the partner taken over here when their clients activated them",
                s -> mirror(s, SessionMirror::takenOverSessions)));
        meters.add(gauge(registry, "opcua.server.redundancy.store.reachable",
                "1 while the shared session store answers, 0 while it is away (ServiceLevel lowered)",
                s -> s.sessionMirror() == null || s.sessionMirror().storeReachable() ? 1 : 0));
    }

    private static double partners(OpcUaServer server,
            java.util.function.Predicate<dev.opcua.stack.server.redundancy.PartnerStatus> which) {
        dev.opcua.stack.server.redundancy.PartnerMonitor monitor = server.partnerMonitor();
        return monitor == null ? 0 : monitor.partners().stream().filter(which).count();
    }

    private static double mirror(OpcUaServer server, ToLongFunction<SessionMirror> count) {
        SessionMirror mirror = server.sessionMirror();
        return mirror == null ? 0 : count.applyAsLong(mirror);
    }

    private FunctionCounter reverseConnection(MeterRegistry registry, String outcome,
            ToLongFunction<ReverseConnectStatistics> count) {
        return FunctionCounter.builder("opcua.server.reverse.connections", state(),
                        s -> count.applyAsLong(reverseConnect(s)))
                .description("Reverse-connect dials by what became of them: taken by the client (its Hello "
                        + "arrived), failed (did not connect), closed unused (refused by the client, or timed out)")
                .tags(tags())
                .tag("outcome", outcome)
                .register(registry);
    }

    private static ReverseConnectStatistics reverseConnect(OpcUaServer s) {
        ReverseConnectStatistics current = s.statistics().reverseConnect();
        return current == null ? ReverseConnectStatistics.NONE : current;
    }

    private FunctionCounter limit(MeterRegistry registry, String limit, ToDoubleFunction<OpcUaServer> count) {
        return FunctionCounter.builder("opcua.server.limits.rejected", state(), count)
                .description("Operations refused at a service limit (Part 4 status in the limit tag)")
                .tags(tags())
                .tag("limit", limit)
                .register(registry);
    }

    // The statistics objects appear at start(); before, their meters read 0.

    private static long requests(OpcUaServer s, ToLongFunction<RequestStatistics> reading) {
        RequestStatistics current = s.statistics().requests();
        return current == null ? 0 : reading.applyAsLong(current);
    }

    private static long sessions(OpcUaServer s, ToLongFunction<SessionCounters> reading) {
        SessionCounters current = s.statistics().sessionCounters();
        return current == null ? 0 : reading.applyAsLong(current);
    }

    private static long subscriptions(OpcUaServer s, ToLongFunction<SubscriptionStatistics> reading) {
        SubscriptionStatistics current = s.statistics().subscriptions();
        return current == null ? 0 : reading.applyAsLong(current);
    }

    private static long transport(OpcUaServer s, ToLongFunction<ServerChannelCounters> reading) {
        ServerChannelCounters current = s.statistics().transport();
        return current == null ? 0 : reading.applyAsLong(current);
    }

    private static double secondsUntilCertificateExpiry(OpcUaServer s) {
        ApplicationCertificate certificate = s.applicationCertificate();
        if (certificate == null) {
            return Double.NaN;
        }
        long notAfter = certificate.certificate().getNotAfter().getTime();
        return (notAfter - System.currentTimeMillis()) / 1000.0;
    }

}
