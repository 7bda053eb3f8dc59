package dev.opcua.spring.boot.client.listener;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.enumerated.DeadbandType;
import dev.opcua.stack.core.types.structured.ContentFilter;
import dev.opcua.stack.core.types.structured.ContentFilterElement;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The description of one listener, as an annotation or the application gives it: which connection,
 * what to monitor (an attribute of a node, with sampling interval, queue and deadband; or the
 * events of a notifier, with the fields to select and a where clause), the publishing interval of
 * the subscription it joins, and the {@link OpcUaListenerInvoker} that hands notifications on.
 * Registered with {@link OpcUaListenerEndpointRegistry#register}; immutable.
 *
 * <p>Unset values (null durations, a queue size of -1) take the connection's
 * {@link OpcUaListenerDefaults}. Node ids are text ({@code nsu=urn:acme;s=Speed}, {@code ns=2;i=7},
 * {@code i=2253}), resolved once the client is connected (namespace URIs need the server's
 * NamespaceArray).
 */
public final class OpcUaListenerEndpoint {

    /** What a listener receives. */
    public enum Kind {
        /** Values of an attribute (a data item, Part 4, 5.12.1). */
        DATA_CHANGE,
        /** Events of a notifier (an event item, Part 4, 5.12.1.4). */
        EVENT
    }

    private final String id;
    private final String connection;
    private final Kind kind;
    private final String node;
    private final long attributeId;
    private final Duration samplingInterval;
    private final int queueSize;
    private final boolean discardOldest;
    private final DeadbandType deadbandType;
    private final double deadband;
    private final Duration publishingInterval;
    private final Duration durable;
    private final List<String> fields;
    private final ContentFilter where;
    private final String whereText;
    private final OpcUaListenerInvoker invoker;

    private OpcUaListenerEndpoint(Builder b) {
        this.id = requireText(b.id, "id");
        this.connection = b.connection == null ? "" : b.connection;
        this.kind = b.kind;
        this.node = requireText(b.node, kind == Kind.EVENT ? "notifier" : "node");
        this.attributeId = b.attributeId;
        this.samplingInterval = b.samplingInterval;
        this.queueSize = b.queueSize;
        this.discardOldest = b.discardOldest;
        this.deadbandType = Objects.requireNonNull(b.deadbandType, "deadbandType");
        this.deadband = b.deadband;
        this.publishingInterval = b.publishingInterval;
        this.durable = b.durable;
        this.fields = List.copyOf(b.fields);
        this.where = b.where == null ? new ContentFilter(new ContentFilterElement[0]) : b.where;
        this.whereText = b.whereText == null ? "" : b.whereText;
        this.invoker = Objects.requireNonNull(b.invoker, "invoker");
        if (queueSize < -1) {
            throw new IllegalArgumentException("queueSize must be >= 0, or -1 for the connection's default: "
                    + queueSize);
        }
        if (deadband < 0 || Double.isNaN(deadband) || deadbandType == DeadbandType.Percent && deadband > 100) {
            throw new IllegalArgumentException("deadband must be >= 0 (and <= 100 for a percent deadband): "
                    + deadband);
        }
        if (kind == Kind.EVENT && fields.isEmpty()) {
            throw new IllegalArgumentException("an event listener selects at least one field");
        }
        if (samplingInterval != null && samplingInterval.isNegative()) {
            throw new IllegalArgumentException("samplingInterval must not be negative: " + samplingInterval);
        }
        if (publishingInterval != null && (publishingInterval.isNegative() || publishingInterval.isZero())) {
            throw new IllegalArgumentException("publishingInterval must be positive: " + publishingInterval);
        }
        if (durable != null && (durable.isNegative() || durable.isZero())) {
            throw new IllegalArgumentException("durable must be positive: " + durable);
        }
    }

    /** A listener of the Value (unless {@link Builder#attributeId} says otherwise) of {@code node}. */
    public static Builder dataChange(String id, String node, OpcUaListenerInvoker invoker) {
        return new Builder(id, Kind.DATA_CHANGE, node, invoker);
    }

    /** A listener of the events of {@code notifier} (the Server object is {@code i=2253}). */
    public static Builder event(String id, String notifier, List<String> fields, OpcUaListenerInvoker invoker) {
        return new Builder(id, Kind.EVENT, notifier, invoker).fields(fields);
    }

    /** Unique among the registry's listeners; for annotated methods {@code <bean>.<method>}. */
    public String id() {
        return id;
    }

    /** The connection's name; empty for the only connection there is. */
    public String connection() {
        return connection;
    }

    public Kind kind() {
        return kind;
    }

    /** The node id text of the node (data change) or notifier (event). */
    public String node() {
        return node;
    }

    public long attributeId() {
        return attributeId;
    }

    /** Null for the connection's default. */
    public Duration samplingInterval() {
        return samplingInterval;
    }

    /** -1 for the connection's default (data items) or 1000 (event items). */
    public int queueSize() {
        return queueSize;
    }

    public boolean discardOldest() {
        return discardOldest;
    }

    public DeadbandType deadbandType() {
        return deadbandType;
    }

    public double deadband() {
        return deadband;
    }

    /** Null for the connection's default. */
    public Duration publishingInterval() {
        return publishingInterval;
    }

    /**
     * The lifetime of a durable subscription (Part 4, 6.8) the listener's item joins; null for an ordinary
     * subscription.
     */
    public Duration durable() {
        return durable;
    }

    /** The event fields selected, in order (event listeners). */
    public List<String> fields() {
        return fields;
    }

    /** The where clause of an event listener; no elements for every event. */
    public ContentFilter where() {
        return where;
    }

    /** The where clause as written, for messages; empty when none. */
    public String whereText() {
        return whereText;
    }

    public OpcUaListenerInvoker invoker() {
        return invoker;
    }

    /** "node ns=2;s=Speed" or "events of i=2253 where Severity > 500", for messages. */
    public String describeSource() {
        if (kind == Kind.EVENT) {
            return "events of " + node + (whereText.isBlank() ? "" : " where " + whereText);
        }
        return "node " + node + (attributeId == AttributeIds.Value ? "" : " attribute " + attributeId);
    }

    @Override
    public String toString() {
        return "OpcUaListenerEndpoint[" + id + ", connection '" + connection + "', " + describeSource() + "]";
    }

    private static String requireText(String value, String name) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException(name + " must not be empty");
        }
        return value;
    }

    /** Builds an endpoint; every value but the id, node and invoker is optional. */
    public static final class Builder {

        private final String id;
        private final Kind kind;
        private final String node;
        private final OpcUaListenerInvoker invoker;
        private String connection = "";
        private long attributeId = AttributeIds.Value;
        private Duration samplingInterval;
        private int queueSize = -1;
        private boolean discardOldest = true;
        private DeadbandType deadbandType = DeadbandType.None;
        private double deadband;
        private Duration publishingInterval;
        private Duration durable;
        private List<String> fields = List.of();
        private ContentFilter where;
        private String whereText;

        private Builder(String id, Kind kind, String node, OpcUaListenerInvoker invoker) {
            this.id = id;
            this.kind = kind;
            this.node = node;
            this.invoker = invoker;
        }

        public Builder connection(String connection) {
            this.connection = connection;
            return this;
        }

        public Builder attributeId(long attributeId) {
            this.attributeId = attributeId;
            return this;
        }

        /** Null for the connection's default. */
        public Builder samplingInterval(Duration samplingInterval) {
            this.samplingInterval = samplingInterval;
            return this;
        }

        /** -1 for the default. */
        public Builder queue(int queueSize, boolean discardOldest) {
            this.queueSize = queueSize;
            this.discardOldest = discardOldest;
            return this;
        }

        /** A DataChangeFilter deadband (Part 4, 7.22.2; Percent needs an AnalogItem's EURange, Part 8, 6.2). */
        public Builder deadband(DeadbandType type, double deadband) {
            this.deadbandType = type;
            this.deadband = deadband;
            return this;
        }

        /** Null for the connection's default. */
        public Builder publishingInterval(Duration publishingInterval) {
            this.publishingInterval = publishingInterval;
            return this;
        }

        /** Joins a durable subscription of this lifetime (SetSubscriptionDurable, Part 5, 9.3); null: an ordinary one. */
        public Builder durable(Duration lifetime) {
            this.durable = lifetime;
            return this;
        }

        public Builder fields(List<String> fields) {
            this.fields = List.copyOf(fields);
            return this;
        }

        /** @param text the clause as written, for messages */
        public Builder where(ContentFilter where, String text) {
            this.where = where;
            this.whereText = text;
            return this;
        }

        public OpcUaListenerEndpoint build() {
            return new OpcUaListenerEndpoint(this);
        }
    }
}
