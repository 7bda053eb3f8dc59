package dev.opcua.spring.boot.client.listener;

import dev.opcua.stack.client.subscriptions.ClientMonitoredItem;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.ContentFilterElementResult;
import dev.opcua.stack.core.types.structured.ContentFilterResult;
import dev.opcua.stack.core.types.structured.EventFilterResult;
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
        // the problem first: whoever sees the item (isCreated) sees its problem too
        this.problem = created.status().isGood() ? filterProblem(created) : "the server refused the item: "
                + created.status();
        this.item = created;
    }

    /**
     * What the server said against an event item's filter (Part 4, 7.22.4 EventFilterResult): a select
     * clause or where-clause element it cannot evaluate. A server that does not support an operator
     * (Eclipse Milo 1.1.2 has no And and Or) creates the item and then sends no event, so this is
     * the one place the reason shows. Null when the filter is accepted.
     */
    static String filterProblem(ClientMonitoredItem created) {
        if (!(created.filterResult().decoded() instanceof EventFilterResult result)) {
            return null;
        }
        StatusCode[] select = result.selectClauseResults();
        for (int i = 0; select != null && i < select.length; i++) {
            if (select[i] != null && select[i].isBad()) {
                return "the server refused select clause " + i + ": " + select[i];
            }
        }
        ContentFilterResult where = result.whereClauseResult();
        ContentFilterElementResult[] elements = where == null ? null : where.elementResults();
        for (int i = 0; elements != null && i < elements.length; i++) {
            if (elements[i] != null && elements[i].statusCode().isBad()) {
                return "the server cannot evaluate element " + i + " of the where clause: " + elements[i].statusCode()
                        + " (no event passes the filter)";
            }
        }
        return null;
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
