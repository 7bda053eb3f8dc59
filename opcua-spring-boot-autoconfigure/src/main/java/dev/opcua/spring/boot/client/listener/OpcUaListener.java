package dev.opcua.spring.boot.client.listener;

import dev.opcua.stack.client.subscriptions.ClientMonitoredItem;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import java.util.concurrent.atomic.LongAdder;

/**
 * One registered listener at run time: its endpoint, the monitored item that feeds it (while there
 * is one) and its counters. Thread-safe; {@link #info()} is a snapshot for the Actuator endpoint.
 */
public final class OpcUaListener {

    private final OpcUaListenerEndpoint endpoint;
    private final String connection;
    private final LongAdder notifications = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private volatile ClientMonitoredItem item;
    private volatile StatusCode status = StatusCode.of(StatusCodes.BadWaitingForInitialData);
    private volatile String problem;

    OpcUaListener(OpcUaListenerEndpoint endpoint, String connection) {
        this.endpoint = endpoint;
        this.connection = connection;
    }

    public String id() {
        return endpoint.id();
    }

    public OpcUaListenerEndpoint endpoint() {
        return endpoint;
    }

    /** The connection's name (resolved: never empty). */
    public String connection() {
        return connection;
    }

    /** The item feeding this listener, null while there is none (not connected yet, or refused). */
    public ClientMonitoredItem item() {
        return item;
    }

    /** Whether the server has the item now. */
    public boolean isCreated() {
        ClientMonitoredItem i = item;
        return i != null && i.serverId() != 0 && i.status().isGood();
    }

    /**
     * The status of the item's creation: BadWaitingForInitialData before the first attempt, Good
     * once created, else why the server (or the client, for a node id it could not resolve) refused it.
     */
    public StatusCode status() {
        ClientMonitoredItem i = item;
        return i != null ? i.status() : status;
    }

    /** Notifications handed to the listener, failed ones included. */
    public long notifications() {
        return notifications.sum();
    }

    /** Notifications the listener failed on (it threw, or the value did not fit its parameters). */
    public long errors() {
        return errors.sum();
    }

    /** Why the item could not be created, or null. */
    public String problem() {
        return problem;
    }

    public OpcUaListenerInfo info() {
        StatusCode s = status();
        ClientMonitoredItem i = item;
        return new OpcUaListenerInfo(id(), connection, endpoint.kind(), endpoint.node(), isCreated(), s.name(),
                i == null ? 0 : i.subscription().subscriptionId(), i == null ? 0 : i.serverId(), notifications(),
                errors(), problem);
    }

    // ---- the container's side -------------------------------------------------------------------

    void delivered() {
        notifications.increment();
    }

    void failed() {
        notifications.increment();
        errors.increment();
    }

    void created(ClientMonitoredItem created) {
        this.item = created;
        this.problem = created.status().isGood() ? null : "the server refused the item: " + created.status();
    }

    void refused(StatusCode code, String why) {
        this.item = null;
        this.status = code;
        this.problem = why;
    }

    void reset() {
        this.item = null;
        this.status = StatusCode.of(StatusCodes.BadWaitingForInitialData);
    }

    @Override
    public String toString() {
        return "OpcUaListener[" + id() + ", " + connection + ", " + endpoint.describeSource() + ", " + status() + "]";
    }
}
