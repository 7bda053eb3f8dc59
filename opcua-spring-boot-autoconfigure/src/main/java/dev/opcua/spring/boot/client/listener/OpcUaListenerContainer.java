package dev.opcua.spring.boot.client.listener;

import dev.opcua.spring.boot.client.listener.filter.EventFields;
import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.ClientStateListener;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.subscriptions.ClientMonitoredItem;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.EventItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.DeadbandType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAdder;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

/**
 * The listeners of one connection with one publishing interval, and the subscription (Part 4, 5.13)
 * and monitored items (5.12) that feed them.
 *
 * <p><b>Creation never blocks.</b> {@link #start()} creates the subscription and items when the
 * client is CONNECTED, or waits for the client to report CONNECTED (the server may be down at
 * start-up: the client keeps trying). A failed attempt is tried again at the next CONNECTED and at
 * the registry's periodic {@link #check()}.
 *
 * <p><b>Reconnects</b> are the client's business: it keeps its own record of the subscription and
 * items and restores them (Republish on the same session, TransferSubscriptions to a new one, else
 * CreateSubscription and CreateMonitoredItems with the same listeners). The container steps in only
 * where the client gave up: when the subscription left the client's record (a {@code disconnect()}
 * empties it), when the client reports a StatusChangeNotification GoodSubscriptionTransferred
 * (another session took it over, 7.20.4), or when the subscription has had no server id at two
 * checks {@link #LOST_PATIENCE} apart (its re-creation failed). It then deletes what is left and creates the
 * subscription and items anew. Items the server refused (a node that does not exist yet) are tried
 * again at each check.
 *
 * <p><b>Delivery</b> runs on the client's listener executor, one subscription's notifications in
 * order. What a listener throws, or a value that does not fit its parameters, is counted and handed
 * to the {@link OpcUaListenerErrorHandler}; the subscription goes on.
 */
public final class OpcUaListenerContainer {

    private static final Log log = LogFactory.getLog(OpcUaListenerContainer.class);
    /** How long a subscription may be without a server id before the container re-creates it. */
    static final Duration LOST_PATIENCE = Duration.ofSeconds(10);

    private final String connection;
    private final OpcUaClient client;
    private final Duration publishingInterval;
    private final Duration durable;
    private final OpcUaListenerDefaults defaults;
    private final OpcUaListenerErrorHandler errorHandler;
    private final LongAdder totalErrors;
    private final List<OpcUaListener> listeners = new CopyOnWriteArrayList<>();
    private final ClientStateListener stateListener = this::onStateChanged;

    // guarded by this
    private boolean running;
    private boolean busy;
    private boolean checkAgain;
    private ClientSubscription subscription;
    private boolean transferredAway;
    private long lostSinceNanos;

    OpcUaListenerContainer(String connection, OpcUaClient client, Duration publishingInterval,
            OpcUaListenerDefaults defaults, OpcUaListenerErrorHandler errorHandler, LongAdder totalErrors) {
        this(connection, client, publishingInterval, null, defaults, errorHandler, totalErrors);
    }

    /** @param durable the lifetime of a durable subscription (Part 4, 6.8), null for an ordinary one */
    OpcUaListenerContainer(String connection, OpcUaClient client, Duration publishingInterval, Duration durable,
            OpcUaListenerDefaults defaults, OpcUaListenerErrorHandler errorHandler, LongAdder totalErrors) {
        this.connection = connection;
        this.client = client;
        this.publishingInterval = publishingInterval;
        this.durable = durable;
        this.defaults = defaults;
        this.errorHandler = errorHandler;
        this.totalErrors = totalErrors;
    }

    public String connection() {
        return connection;
    }

    public Duration publishingInterval() {
        return publishingInterval;
    }

    /** The lifetime of the durable subscription the listeners share; null for an ordinary one. */
    public Duration durable() {
        return durable;
    }

    public List<OpcUaListener> listeners() {
        return List.copyOf(listeners);
    }

    /** The subscription feeding the listeners now, or null while there is none. */
    public synchronized ClientSubscription subscription() {
        return subscription;
    }

    public synchronized boolean isRunning() {
        return running;
    }

    /** Adds a listener; while running, its item is created at once (when connected). */
    void add(OpcUaListener listener) {
        listeners.add(listener);
        if (isRunning()) {
            check();
        }
    }

    /** Creates the subscription and items now if connected, else once the client is. Never blocks. */
    void start() {
        synchronized (this) {
            if (running) {
                return;
            }
            running = true;
        }
        client.addStateListener(stateListener);
        check();
    }

    /**
     * Stops delivering and deletes the subscription at the server (best effort: the future completes,
     * never fails).
     */
    CompletableFuture<Void> stop() {
        ClientSubscription s;
        synchronized (this) {
            if (!running) {
                return CompletableFuture.completedFuture(null);
            }
            running = false;
            s = subscription;
            subscription = null;
        }
        client.removeStateListener(stateListener);
        listeners.forEach(OpcUaListener::reset);
        if (s == null || !client.subscriptions().list().contains(s)) {
            return CompletableFuture.completedFuture(null);
        }
        return s.delete().handle((ok, failure) -> {
            if (failure != null) {
                log.debug("Deleting the listeners' subscription of '" + connection + "' failed: "
                        + Failures.unwrap(failure));
            }
            return null;
        });
    }

    private void onStateChanged(ClientState previous, ClientState current, Throwable cause) {
        if (current == ClientState.CONNECTED) {
            check();
        }
    }

    /**
     * Brings subscription and items in line with the listeners when connected: creates what is
     * missing, re-creates a subscription the client lost. Runs one at a time; a check asked for
     * meanwhile runs after.
     */
    void check() {
        synchronized (this) {
            if (!running) {
                return;
            }
            if (busy) {
                checkAgain = true;
                return;
            }
            busy = true;
            checkAgain = false;
        }
        CompletableFuture<Void> work;
        try {
            work = client.state() == ClientState.CONNECTED ? reconcile() : CompletableFuture.completedFuture(null);
        } catch (RuntimeException e) {
            work = CompletableFuture.failedFuture(e);
        }
        work.whenComplete((ok, failure) -> {
            if (failure != null) {
                log.warn("OPC UA listeners of '" + connection + "' (publishing interval " + publishingInterval
                        + "): the subscription could not be created (" + describe(failure) + "); trying again "
                        + "when the client reconnects or at the next check");
            }
            boolean again;
            synchronized (this) {
                busy = false;
                again = checkAgain && running;
            }
            if (again) {
                check();
            }
        });
    }

    private CompletableFuture<Void> reconcile() {
        ClientSubscription s;
        boolean rebuild;
        synchronized (this) {
            s = subscription;
            rebuild = s == null || transferredAway || !client.subscriptions().list().contains(s) || lostTooLong(s);
            if (rebuild) {
                subscription = null;
                transferredAway = false;
                lostSinceNanos = 0;
            }
        }
        if (!rebuild) {
            return createItems(s, missing(s));
        }
        if (s != null) {
            log.info("OPC UA listeners of '" + connection + "': the client no longer restores " + s
                    + "; creating the subscription anew");
            s.delete(); // leaves the client's record at once; the server may no longer have it
        }
        listeners.forEach(OpcUaListener::reset);
        return client.createSubscription(SubscriptionParameters.ofInterval(publishingInterval.toNanos() / 1e6)
                        .durable(durable))
                .thenCompose(created -> {
                    synchronized (this) {
                        if (!running) {
                            created.delete();
                            return CompletableFuture.<Void>completedFuture(null);
                        }
                        subscription = created;
                    }
                    created.setStatusListener((sub, status) -> onStatusChange(sub, status));
                    log.info("OPC UA listeners of '" + connection + "': subscription " + created.subscriptionId()
                            + " (publishing every " + created.revisedPublishingInterval() + " ms) for "
                            + listeners.size() + " listeners");
                    return createItems(created, listeners());
                });
    }

    /**
     * A subscription without a server id at two checks at least {@link #LOST_PATIENCE} (or three
     * publishing intervals) apart: the client's own re-creation failed, not merely under way.
     */
    private boolean lostTooLong(ClientSubscription s) {
        if (s.subscriptionId() != 0) {
            lostSinceNanos = 0;
            return false;
        }
        long now = System.nanoTime();
        if (lostSinceNanos == 0) {
            lostSinceNanos = now;
            return false;
        }
        long patience = Math.max(LOST_PATIENCE.toNanos(), publishingInterval.toNanos() * 3);
        return now - lostSinceNanos >= patience;
    }

    private void onStatusChange(ClientSubscription s, StatusCode status) {
        if (status != null && status.isSameCode(StatusCodes.GoodSubscriptionTransferred)) {
            log.warn("OPC UA listeners of '" + connection + "': subscription " + s.subscriptionId()
                    + " was transferred to another session; creating it anew");
            synchronized (this) {
                if (subscription != s) {
                    return;
                }
                transferredAway = true;
            }
            check();
        } else if (status != null && status.isBad()) {
            log.warn("OPC UA listeners of '" + connection + "': subscription " + s.subscriptionId() + " reported "
                    + status + " (the client re-creates it)");
        }
    }

    /** Listeners without a live item in {@code s}: never created, refused, or gone with an old subscription. */
    private List<OpcUaListener> missing(ClientSubscription s) {
        Set<ClientMonitoredItem> live = new HashSet<>(s.items());
        List<OpcUaListener> missing = new ArrayList<>();
        for (OpcUaListener l : listeners) {
            ClientMonitoredItem item = l.item();
            if (item == null || !live.contains(item)) {
                missing.add(l);
            }
        }
        return missing;
    }

    private CompletableFuture<Void> createItems(ClientSubscription s, List<OpcUaListener> targets) {
        List<OpcUaListener> dataListeners = new ArrayList<>();
        List<DataItemRequest> dataRequests = new ArrayList<>();
        List<OpcUaListener> eventListeners = new ArrayList<>();
        List<EventItemRequest> eventRequests = new ArrayList<>();
        for (OpcUaListener l : targets) {
            NodeId node;
            try {
                node = client.nodeId(l.endpoint().node());
            } catch (RuntimeException e) {
                StatusCode code = e instanceof UaException ua ? ua.statusCode()
                        : StatusCode.of(StatusCodes.BadNodeIdInvalid);
                if (l.problem() == null || !l.problem().equals(e.getMessage())) {
                    log.warn("OPC UA listener " + l.id() + ": the node id '" + l.endpoint().node()
                            + "' cannot be resolved: " + e.getMessage());
                }
                l.refused(code, e.getMessage());
                continue;
            }
            if (l.endpoint().kind() == OpcUaListenerEndpoint.Kind.EVENT) {
                eventListeners.add(l);
                eventRequests.add(eventRequest(l, node));
            } else {
                dataListeners.add(l);
                dataRequests.add(dataRequest(l, node));
            }
        }
        CompletableFuture<Void> data = dataRequests.isEmpty() ? CompletableFuture.completedFuture(null)
                : s.createDataItems(dataRequests).thenAccept(items -> created(dataListeners, items));
        return data.thenCompose(ok -> eventRequests.isEmpty() ? CompletableFuture.<Void>completedFuture(null)
                : s.createEventItems(eventRequests).thenAccept(items -> created(eventListeners, items)));
    }

    private DataItemRequest dataRequest(OpcUaListener l, NodeId node) {
        OpcUaListenerEndpoint e = l.endpoint();
        Duration sampling = e.samplingInterval() != null ? e.samplingInterval() : defaults.samplingInterval();
        int queue = e.queueSize() >= 0 ? e.queueSize() : defaults.queueSize();
        DataItemRequest request = DataItemRequest.of(node, sampling.toNanos() / 1e6,
                (item, value) -> deliver(l, new ListenerNotification.DataChange(item, value)))
                .withAttribute(e.attributeId(), null)
                .withQueue(queue, e.discardOldest());
        if (e.deadbandType() == DeadbandType.Absolute) {
            request = request.withAbsoluteDeadband(e.deadband());
        } else if (e.deadbandType() == DeadbandType.Percent) {
            request = request.withPercentDeadband(e.deadband());
        }
        return request;
    }

    private EventItemRequest eventRequest(OpcUaListener l, NodeId notifier) {
        OpcUaListenerEndpoint e = l.endpoint();
        EventItemRequest request = EventItemRequest.of(notifier, EventFields.filter(e.fields(), e.where()),
                (item, fields) -> deliver(l, new ListenerNotification.Event(item, fields)));
        return e.queueSize() >= 0 ? request.withQueue(e.queueSize(), e.discardOldest()) : request;
    }

    private void created(List<OpcUaListener> targets, List<ClientMonitoredItem> items) {
        for (int i = 0; i < targets.size() && i < items.size(); i++) {
            OpcUaListener l = targets.get(i);
            ClientMonitoredItem item = items.get(i);
            StatusCode before = l.status();
            l.created(item);
            if (item.status().isBad() && !item.status().equals(before)) {
                log.warn("OPC UA listener " + l.id() + ": the server refused the item for "
                        + l.endpoint().describeSource() + ": " + item.status() + " (tried again at the next check)");
            } else if (l.problem() != null) {
                log.warn("OPC UA listener " + l.id() + " on " + l.endpoint().describeSource() + ": " + l.problem());
            }
        }
    }

    private void deliver(OpcUaListener listener, ListenerNotification notification) {
        try {
            listener.endpoint().invoker().invoke(notification);
            listener.delivered();
        } catch (VirtualMachineError e) {
            throw e;
        } catch (Throwable e) {
            listener.failed();
            totalErrors.increment();
            try {
                errorHandler.handleError(listener, notification, e);
            } catch (RuntimeException handlerFailure) {
                log.error("The error handler of OPC UA listener " + listener.id() + " failed", handlerFailure);
            }
        }
    }

    private static String describe(Throwable failure) {
        Throwable cause = Failures.unwrap(failure);
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }

    @Override
    public String toString() {
        return "OpcUaListenerContainer['" + connection + "', " + publishingInterval + ", " + listeners.size()
                + " listeners]";
    }
}
