package dev.opcua.spring.boot.actuate.metrics;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.redundancy.RedundancyStatus;
import dev.opcua.stack.client.redundancy.RedundantServer;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.ClientSubscriptions;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The meters of one OPC UA client connection (DESIGN.md section 10), read from the client's own state
 * and counters when a registry publishes them; nothing is recorded per request.
 *
 * <ul>
 * <li>{@code opcua.client.session.state} gauge: the connection's {@link ClientState} as a number,
 *     see {@link #stateValue(ClientState)}: 0 DISCONNECTED, 1 CONNECTING, 2 RECONNECTING, 3 CONNECTED
 *     (so {@code < 3} means "no session", and the value rises towards a working connection)</li>
 * <li>{@code opcua.client.reconnects} function counter: lost connections re-established</li>
 * <li>{@code opcua.client.subscriptions}, {@code opcua.client.monitored.items} gauges: the client's own
 *     record of its subscriptions and their items, kept also while it reconnects</li>
 * <li>{@code opcua.client.notifications.received|dropped} function counters: data-change and event
 *     notifications received, and dropped because a subscription's listener queue was full</li>
 * <li>{@code opcua.client.listener.errors} function counter: exceptions thrown by listeners</li>
 * <li>with redundancy (Part 4, 6.6.2.4) only: {@code opcua.client.failovers} function counter: failovers to
 *     another server of the redundant set; {@code opcua.client.active.server} gauge, one per server of the
 *     set with the tag {@value #ENDPOINT_TAG}: 1 for the server the connection goes to, 0 for the others;
 *     {@code opcua.client.server.service.level} gauge per server: its ServiceLevel as last read (-1 unknown)</li>
 * </ul>
 * Every meter carries the tag {@value #CONNECTION_TAG} (the connection's name) and the tags given to the
 * constructor.
 *
 * <p>Not here: the request timer {@code opcua.client.requests} comes from the Observation of every
 * request ({@link dev.opcua.spring.boot.observation.ObservationRequestObservers}) through Micrometer's
 * {@code DefaultMeterObservationHandler}, as the server's does; {@code opcua.client.publish.latency} is
 * timed as Publish requests end, by {@link OpcUaClientPublishLatency}.
 *
 * <p>{@link #close()} removes the meters from the registries they were bound to.
 */
public final class OpcUaClientMetrics extends StateMeters<OpcUaClient> {

    /** The tag of every meter that names the connection. */
    public static final String CONNECTION_TAG = "connection";

    /** The tag of the per-server redundancy gauges: the server's endpoint URL. */
    public static final String ENDPOINT_TAG = "endpoint";

    private final java.lang.ref.WeakReference<OpcUaClient> client;

    private final LongSupplier otherListenerErrors;

    /**
     * @param connection the connection's name, the key under {@code opcua.client.connections}
     * @param client the client to watch; the meters reference it weakly, as Micrometer does for every
     *        state object, so its owner keeps it alive
     * @param tags added to every meter
     */
    public OpcUaClientMetrics(String connection, OpcUaClient client, Iterable<Tag> tags) {
        this(connection, client, tags, () -> 0);
    }

    /**
     * @param otherListenerErrors errors of listeners the client does not see fail (the annotated
     *        listeners' container catches them), added to {@code opcua.client.listener.errors}
     */
    public OpcUaClientMetrics(String connection, OpcUaClient client, Iterable<Tag> tags,
            LongSupplier otherListenerErrors) {
        super(client, Tags.of(tags).and(CONNECTION_TAG, Objects.requireNonNull(connection, "connection")));
        this.otherListenerErrors = Objects.requireNonNull(otherListenerErrors, "otherListenerErrors");
        this.client = new java.lang.ref.WeakReference<>(client);
    }

    /**
     * The value of {@code opcua.client.session.state}: 0 DISCONNECTED, 1 CONNECTING, 2 RECONNECTING,
     * 3 CONNECTED. Fixed here rather than the enum's ordinal, so that dashboards and alerts keep their
     * meaning if the enum is reordered.
     */
    public static int stateValue(ClientState state) {
        return switch (state) {
            case DISCONNECTED -> 0;
            case CONNECTING -> 1;
            case RECONNECTING -> 2;
            case CONNECTED -> 3;
        };
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        List<Meter> meters = new ArrayList<>();
        meters.add(gauge(registry, "opcua.client.session.state",
                "State of the connection: 0 DISCONNECTED, 1 CONNECTING, 2 RECONNECTING, 3 CONNECTED",
                c -> stateValue(c.state())));
        meters.add(counter(registry, "opcua.client.reconnects", "Lost connections re-established",
                OpcUaClient::reconnects));
        meters.add(gauge(registry, "opcua.client.subscriptions", "Subscriptions of the client",
                c -> c.subscriptions().list().size()));
        meters.add(gauge(registry, "opcua.client.monitored.items", "Monitored items of every subscription", OpcUaClientMetrics::monitoredItems));
        meters.add(counter(registry, "opcua.client.notifications.received",
                "Data-change and event notifications received",
                c -> c.subscriptions().notificationsReceived()));
        meters.add(counter(registry, "opcua.client.notifications.dropped",
                "Notifications dropped because a subscription's listener queue was full",
                c -> c.subscriptions().droppedNotifications()));
        meters.add(counter(registry, "opcua.client.publish.held.back",
                "Times Publish requests were held back because a listener queue had no room for more responses",
                c -> c.subscriptions().publishHoldBacks()));
        meters.add(counter(registry, "opcua.client.publish.held.back.long",
                "Publish hold-backs that lasted two keep-alive periods: the listeners do not keep up",
                c -> c.subscriptions().longPublishHoldBacks()));
        meters.add(counter(registry, "opcua.client.listener.errors", "Exceptions thrown by subscription listeners", c -> c.subscriptions().listenerErrors() + otherListenerErrors.getAsLong()));
        redundancy(registry, meters);
        bound(registry, meters);
    }


    /** The failover meters, for a client with a redundant set; the servers are those known at binding. */
    private void redundancy(MeterRegistry registry, List<Meter> meters) {
        OpcUaClient c = client.get();
        RedundancyStatus status = c == null ? null : c.redundancy();
        if (status == null) {
            return;
        }
        meters.add(counter(registry, "opcua.client.failovers", "Failovers to another server of the redundant set", cl -> cl.redundancy().failovers()));
        for (RedundantServer server : status.servers()) {
            String url = server.endpointUrl();
            meters.add(Gauge.builder("opcua.client.active.server", c, cl -> url.equals(cl.activeServer()) ? 1 : 0)
                    .description("1 for the server of the redundant set the connection goes to, 0 for the others")
                    .tags(tags()).tag(ENDPOINT_TAG, url).register(registry));
            meters.add(Gauge.builder("opcua.client.server.service.level", c, cl -> serviceLevel(cl, url))
                    .description("ServiceLevel of a server of the redundant set as last read, -1 unknown")
                    .tags(tags()).tag(ENDPOINT_TAG, url).register(registry));
        }
    }

    private static double serviceLevel(OpcUaClient client, String url) {
        for (RedundantServer s : client.redundancy().servers()) {
            if (s.endpointUrl().equals(url)) {
                return s.serviceLevel();
            }
        }
        return -1;
    }

    private static double monitoredItems(OpcUaClient client) {
        ClientSubscriptions subscriptions = client.subscriptions();
        long items = 0;
        for (ClientSubscription subscription : subscriptions.list()) {
            items += subscription.items().size();
        }
        return items;
    }



}
