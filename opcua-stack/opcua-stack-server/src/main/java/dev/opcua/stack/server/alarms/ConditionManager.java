package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.alarms.ConditionNodes.ConditionMethod;
import dev.opcua.stack.server.alarms.ConditionNodes.Instance;
import dev.opcua.stack.server.nodes.CallOperation;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.subscriptions.events.EventSink;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node manager of condition instances (Part 9): one namespace holding the conditions declared
 * with its {@link #builder(String) builder}, their variables mirroring their state, and their methods.
 *
 * <h2>Design</h2>
 * <ul>
 * <li><b>Instances</b>: created at start, when the namespace index is known ({@link ConditionNodes}).
 * Each condition hangs below its source node (HasComponent and HasCondition from the source; the
 * server adds the forward references when the source lives in memory too).</li>
 * <li><b>Events</b>: every change of a condition is reported on its source node through the server's
 * {@link EventSink}, so event items of the source, of notifiers above it and of the Server object
 * receive it; the condition's variables change with it.</li>
 * <li><b>Methods</b> (Part 4, 5.12.2 and Part 9, 5.5.4 to 5.7.4): Enable, Disable, AddComment,
 * Acknowledge and Confirm, called with the condition as object and either the instance's method or
 * the method of the type (i=9027, 9028, 9029, 9111, 9113). Unknown object: BadNodeIdUnknown; a
 * node that is not an object: BadNodeIdInvalid; a method the object does not offer: BadMethodInvalid; missing or extra inputs:
 * BadArgumentsMissing / BadTooManyArguments; inputs of the wrong type: BadInvalidArgument with
 * BadTypeMismatch per input; the state machine's refusals as the condition states them. The caller's
 * user name becomes ClientUserId.</li>
 * <li><b>Inputs</b>: alarms with an input variable are evaluated on each change of that variable,
 * sampled by one named thread ({@code opcua-alarm-inputs}) through the server's node managers at the
 * {@linkplain Builder#inputSamplingInterval input sampling interval}; the application may also push a
 * value with {@link AlarmCondition#input}.</li>
 * </ul>
 */
public final class ConditionManager extends NodeStoreNodeManager {

    private static final Logger log = LoggerFactory.getLogger(ConditionManager.class);
    private static final Duration DEFAULT_INPUT_SAMPLING_INTERVAL = Duration.ofMillis(250);

    private final String namespaceUri;
    private final List<Definition> definitions;
    private final Duration inputSamplingInterval;
    private final Map<String, Condition> byPath = new LinkedHashMap<>();
    private final Map<NodeId, Instance> instances = new ConcurrentHashMap<>();
    private final Map<NodeId, Instance> byMethod = new ConcurrentHashMap<>();
    private volatile EventSink events = (notifier, event) -> { };
    private volatile NodeManagers inputs;
    private volatile InputSampler sampler;
    private volatile int namespaceIndex = -1;

    private ConditionManager(Builder builder) {
        super(List.of(builder.namespaceUri), new NodeStore(builder.definitions.size() * 64), true);
        this.namespaceUri = builder.namespaceUri;
        this.definitions = List.copyOf(builder.definitions);
        this.inputSamplingInterval = builder.inputSamplingInterval;
    }

    /** A builder of the conditions of the namespace {@code namespaceUri}. */
    public static Builder builder(String namespaceUri) {
        return new Builder(namespaceUri);
    }

    public String namespaceUri() {
        return namespaceUri;
    }

    /**
     * Connects the manager to its server before start: where its events go and the node managers it
     * reads inputs through. Done by the server for every registered ConditionManager.
     */
    public void attach(EventSink sink, NodeManagers managers) {
        this.events = Objects.requireNonNull(sink, "sink");
        this.inputs = Objects.requireNonNull(managers, "managers");
    }

    /**
     * The condition declared with {@code path}.
     *
     * @throws IllegalStateException before the server started
     * @throws IllegalArgumentException when no condition has that path
     */
    public Condition condition(String path) {
        if (namespaceIndex < 0) {
            throw new IllegalStateException("the conditions are created when the server starts");
        }
        Condition condition = byPath.get(path);
        if (condition == null) {
            throw new IllegalArgumentException("no condition has the path " + path);
        }
        return condition;
    }

    /** Every condition, empty before start. */
    public Collection<Condition> conditions() {
        List<Condition> all = new ArrayList<>(instances.size());
        instances.values().forEach(i -> all.add(i.condition()));
        return all;
    }

    @Override
    public synchronized void startup(NamespaceTable namespaces) {
        if (namespaceIndex >= 0) {
            return;
        }
        int ns = namespaces.indexOf(namespaceUri);
        if (ns < 0) {
            throw new IllegalStateException("namespace " + namespaceUri + " is not in the namespace table");
        }
        List<AlarmCondition> sampled = new ArrayList<>();
        for (Definition definition : definitions) {
            NodeId id = NodeId.string(ns, definition.path);
            Condition condition = definition.create(id, namespaces);
            Instance instance = ConditionNodes.create(store(), condition,
                    QualifiedName.of(ns, definition.browseName()));
            if (condition instanceof OffNormalAlarm offNormal && offNormal.normalState().equals(normalValueId(id))) {
                addNormalValue(id, offNormal);
            }
            instances.put(id, instance);
            instance.methods().keySet().forEach(method -> byMethod.put(method, instance));
            byPath.put(definition.path, condition);
            condition.listener(this::changed);
            condition.initialize();
            if (condition instanceof AlarmCondition alarm && definition.sampleInput) {
                sampled.add(alarm);
            }
        }
        namespaceIndex = ns;
        if (!sampled.isEmpty() && inputs != null) {
            sampler = new InputSampler(inputs, sampled, inputSamplingInterval);
        }
        log.info("conditions of {}: {} instances, {} sampled inputs", namespaceUri, instances.size(), sampled.size());
    }

    static NodeId normalValueId(NodeId condition) {
        return ConditionNodes.childId(condition, "NormalValue");
    }

    /** The variable NormalState names when the normal value was given as a value (Part 9, 5.8.24.2). */
    private void addNormalValue(NodeId condition, OffNormalAlarm alarm) {
        Variant value = alarm.normalValue();
        NodeId id = normalValueId(condition);
        VariableNode node = new VariableNode(id, QualifiedName.of(condition.namespaceIndex(), "NormalValue"),
                LocalizedText.of("NormalValue"), null, 0, 0, DataValue.of(value, StatusCode.GOOD, DateTime.now(), null),
                ValueAttributes.scalar(value.type().dataTypeId()), (short) 1, (short) 1, 0, false, 1);
        store().add(node);
        node.addReference(UaReference.inverse(ConditionNodes.HAS_COMPONENT, condition));
        node.addReference(UaReference.forward(ConditionNodes.HAS_TYPE_DEFINITION,
                NodeId.ns0(NodeIds.BaseDataVariableType)));
        store().get(condition).addReference(UaReference.forward(ConditionNodes.HAS_COMPONENT, id));
    }

    /** Starts sampling the inputs, once the server runs. */
    public void startInputs() {
        InputSampler current = sampler;
        if (current != null) {
            current.start();
        }
    }

    @Override
    public void shutdown() {
        InputSampler current = sampler;
        if (current != null) {
            current.close();
        }
    }

    private void changed(Condition condition, dev.opcua.stack.server.subscriptions.events.UaEvent event,
            Map<dev.opcua.stack.server.subscriptions.events.FieldPath, Variant> fields) {
        Instance instance = instances.get(condition.nodeId());
        if (instance != null) {
            ConditionNodes.mirror(instance, fields, event);
        }
        if (event != null) {
            events.report(condition.identity().sourceNode(), event);
        }
    }

    // ---- Call --------------------------------------------------------------------------------

    @Override
    public void callNow(OperationContext context, List<CallOperation> operations) {
        for (CallOperation operation : operations) {
            call(context, operation);
        }
    }

    private void call(OperationContext context, CallOperation operation) {
        Instance instance = instances.get(operation.objectId());
        if (instance == null) {
            UaNode node = store().get(operation.objectId());
            operation.fail(node == null ? StatusCodes.BadNodeIdUnknown
                    : node instanceof ObjectNode ? StatusCodes.BadMethodInvalid : StatusCodes.BadNodeIdInvalid);
            return;
        }
        ConditionMethod method;
        Instance owner = byMethod.get(operation.methodId());
        if (owner != null) {
            method = owner == instance ? owner.methods().get(operation.methodId()) : null;
        } else {
            method = ConditionMethod.ofTypeMethod(operation.methodId());
        }
        Condition condition = instance.condition();
        if (method == null || !method.appliesTo(condition)) {
            operation.fail(StatusCodes.BadMethodInvalid);
            return;
        }
        Variant[] inputs = operation.inputArguments();
        int expected = method.inputs().length;
        if (inputs.length < expected) {
            operation.fail(StatusCodes.BadArgumentsMissing);
            return;
        }
        if (inputs.length > expected) {
            operation.fail(StatusCodes.BadTooManyArguments);
            return;
        }
        if (expected == 2) {
            StatusCode[] results = {check(inputs[0], BuiltinType.ByteString), check(inputs[1], BuiltinType.LocalizedText)};
            if (!results[0].isGood() || !results[1].isGood()) {
                operation.fail(StatusCodes.BadInvalidArgument, results);
                return;
            }
        }
        String user = user(context);
        try {
            switch (method) {
                case ENABLE -> condition.enable(user);
                case DISABLE -> condition.disable(user);
                case ADD_COMMENT -> condition.addComment(eventId(inputs[0]), comment(inputs[1]), user);
                case ACKNOWLEDGE -> ((AcknowledgeableCondition) condition).acknowledge(eventId(inputs[0]),
                        comment(inputs[1]), user);
                case CONFIRM -> ((AcknowledgeableCondition) condition).confirm(eventId(inputs[0]), comment(inputs[1]),
                        user);
            }
            operation.complete(new Variant[0]);
        } catch (UaException e) {
            operation.fail(e.statusCode().value());
        }
    }

    /** Good, or BadTypeMismatch for an input that is neither null nor a scalar of the type. */
    private static StatusCode check(Variant input, BuiltinType type) {
        boolean fits = input.isNull() || input.type() == type && !input.isArray();
        return fits ? StatusCode.GOOD : StatusCode.of(StatusCodes.BadTypeMismatch);
    }

    private static ByteString eventId(Variant input) {
        return input.isNull() ? ByteString.NULL : (ByteString) input.value();
    }

    private static LocalizedText comment(Variant input) {
        return input.isNull() ? LocalizedText.NULL : (LocalizedText) input.value();
    }

    /** ClientUserId (Part 9, 5.5.2): the user name of the session, or its token type. */
    static String user(OperationContext context) {
        if (context == null || context.session() == null) {
            return "";
        }
        Identity identity = context.session().identity();
        if (identity == null) {
            return "";
        }
        return identity.userName() != null ? identity.userName() : identity.tokenType().name();
    }

    // ---- declarations ------------------------------------------------------------------------

    /** A node named by a NodeId, or by a namespace URI and a string identifier resolved at start. */
    private record NodeRef(NodeId nodeId, String namespaceUri, String identifier) {

        NodeId resolve(NamespaceTable namespaces, String what) {
            if (nodeId != null) {
                return nodeId;
            }
            int ns = namespaces.indexOf(namespaceUri);
            if (ns < 0) {
                throw new IllegalStateException(what + ": namespace " + namespaceUri + " is not in the namespace table");
            }
            return NodeId.string(ns, identifier);
        }
    }

    private enum Kind { EXCLUSIVE_LIMIT, NON_EXCLUSIVE_LIMIT, OFF_NORMAL }

    /** One condition to create at start. */
    private static final class Definition {
        final Kind kind;
        final String path;
        NodeRef source;
        String sourceName;
        String conditionName;
        NodeRef input;
        boolean sampleInput = true;
        Limits limits;
        int normalSeverity = 100;
        int activeSeverity = 500;
        boolean confirmable = true;
        NodeRef normalState;
        Variant normalValue;

        Definition(Kind kind, String path) {
            this.kind = kind;
            this.path = path;
        }

        String browseName() {
            int dot = path.lastIndexOf('.');
            return dot < 0 ? path : path.substring(dot + 1);
        }

        Condition create(NodeId id, NamespaceTable namespaces) {
            String what = "condition " + path;
            ConditionIdentity identity = ConditionIdentity.of(id, source.resolve(namespaces, what), sourceName,
                    conditionName == null ? browseName() : conditionName);
            NodeId inputNode = input.resolve(namespaces, what);
            return switch (kind) {
                case EXCLUSIVE_LIMIT -> new ExclusiveLimitAlarm(identity, inputNode, limits, normalSeverity, confirmable);
                case NON_EXCLUSIVE_LIMIT -> new NonExclusiveLimitAlarm(identity, inputNode, limits, normalSeverity,
                        confirmable);
                case OFF_NORMAL -> new OffNormalAlarm(identity, inputNode,
                        normalState != null ? normalState.resolve(namespaces, what) : normalValueId(id),
                        normalValue, normalSeverity, activeSeverity, confirmable);
            };
        }

        void validate() {
            String what = "condition " + path;
            if (source == null || sourceName == null) {
                throw new IllegalArgumentException(what + " needs a source node and its name: source(...)");
            }
            if (input == null) {
                throw new IllegalArgumentException(what + " needs an input variable: input(...)");
            }
            if ((kind == Kind.EXCLUSIVE_LIMIT || kind == Kind.NON_EXCLUSIVE_LIMIT) && limits == null) {
                throw new IllegalArgumentException(what + " needs its limits: limits(...)");
            }
            if (kind == Kind.OFF_NORMAL && normalValue == null) {
                throw new IllegalArgumentException(what + " needs its normal value: normalValue(...)");
            }
        }
    }

    /** Options common to every alarm: source, input, severity, confirmation. */
    public abstract static class AlarmOptions<T extends AlarmOptions<T>> {
        final Definition definition;

        AlarmOptions(Definition definition) {
            this.definition = definition;
        }

        @SuppressWarnings("unchecked")
        private T self() {
            return (T) this;
        }

        /** The node the alarm is about (SourceNode) and its name (SourceName), such as a motor object. */
        public T source(NodeId node, String name) {
            definition.source = new NodeRef(Objects.requireNonNull(node, "node"), null, null);
            definition.sourceName = Objects.requireNonNull(name, "name");
            return self();
        }

        /** The source by its namespace URI and string identifier, resolved when the server starts. */
        public T source(String namespaceUri, String identifier, String name) {
            definition.source = new NodeRef(null, Objects.requireNonNull(namespaceUri, "namespaceUri"),
                    Objects.requireNonNull(identifier, "identifier"));
            definition.sourceName = Objects.requireNonNull(name, "name");
            return self();
        }

        /** The variable whose value drives the alarm (InputNode); sampled unless {@link #pushedInput()}. */
        public T input(NodeId node) {
            definition.input = new NodeRef(Objects.requireNonNull(node, "node"), null, null);
            return self();
        }

        /** The input by its namespace URI and string identifier, resolved when the server starts. */
        public T input(String namespaceUri, String identifier) {
            definition.input = new NodeRef(null, Objects.requireNonNull(namespaceUri, "namespaceUri"),
                    Objects.requireNonNull(identifier, "identifier"));
            return self();
        }

        /** The application pushes the input's values with {@link AlarmCondition#input}; it is not sampled. */
        public T pushedInput() {
            definition.sampleInput = false;
            return self();
        }

        /** ConditionName; the last segment of the path by default. */
        public T conditionName(String name) {
            definition.conditionName = Objects.requireNonNull(name, "name");
            return self();
        }

        /** The Severity while the alarm is inactive, 100 by default. */
        public T normalSeverity(int severity) {
            Condition.checkSeverity(severity);
            definition.normalSeverity = severity;
            return self();
        }

        /** Whether the alarm has ConfirmedState and Confirm (true by default). */
        public T confirmable(boolean value) {
            definition.confirmable = value;
            return self();
        }
    }

    /** Options of a limit alarm. */
    public static final class LimitAlarmOptions extends AlarmOptions<LimitAlarmOptions> {
        LimitAlarmOptions(Definition definition) {
            super(definition);
        }

        public LimitAlarmOptions limits(Limits limits) {
            definition.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }
    }

    /** Options of an off-normal alarm. */
    public static final class OffNormalOptions extends AlarmOptions<OffNormalOptions> {
        OffNormalOptions(Definition definition) {
            super(definition);
        }

        /**
         * The normal value of the input; the instance gets a {@code NormalValue} variable holding it,
         * which NormalState names, unless {@link #normalState} names another.
         */
        public OffNormalOptions normalValue(Variant value) {
            definition.normalValue = Objects.requireNonNull(value, "value");
            return this;
        }

        /** A variable of the address space holding the normal value, for NormalState. */
        public OffNormalOptions normalState(NodeId variable) {
            definition.normalState = new NodeRef(Objects.requireNonNull(variable, "variable"), null, null);
            return this;
        }

        /** The Severity while off normal, 500 by default. */
        public OffNormalOptions activeSeverity(int severity) {
            Condition.checkSeverity(severity);
            definition.activeSeverity = severity;
            return this;
        }
    }

    /** Declares the conditions; paths are dot-separated and become the string NodeIds. */
    public static final class Builder {
        private final String namespaceUri;
        private final List<Definition> definitions = new ArrayList<>();
        private Duration inputSamplingInterval = DEFAULT_INPUT_SAMPLING_INTERVAL;

        private Builder(String namespaceUri) {
            if (namespaceUri == null || namespaceUri.isEmpty()) {
                throw new IllegalArgumentException("namespaceUri must not be empty");
            }
            this.namespaceUri = namespaceUri;
        }

        /** How often the input variables are sampled for changes, 250 ms by default. */
        public Builder inputSamplingInterval(Duration interval) {
            if (interval == null || interval.toMillis() < 1) {
                throw new IllegalArgumentException("inputSamplingInterval must be at least 1 ms, was " + interval);
            }
            inputSamplingInterval = interval;
            return this;
        }

        /** An ExclusiveLimitAlarmType instance (Part 9, 5.8.19.3). */
        public Builder exclusiveLimitAlarm(String path, Consumer<LimitAlarmOptions> options) {
            options.accept(new LimitAlarmOptions(add(Kind.EXCLUSIVE_LIMIT, path)));
            return this;
        }

        /** A NonExclusiveLimitAlarmType instance (Part 9, 5.8.20). */
        public Builder nonExclusiveLimitAlarm(String path, Consumer<LimitAlarmOptions> options) {
            options.accept(new LimitAlarmOptions(add(Kind.NON_EXCLUSIVE_LIMIT, path)));
            return this;
        }

        /** An OffNormalAlarmType instance (Part 9, 5.8.24.2). */
        public Builder offNormalAlarm(String path, Consumer<OffNormalOptions> options) {
            options.accept(new OffNormalOptions(add(Kind.OFF_NORMAL, path)));
            return this;
        }

        private Definition add(Kind kind, String path) {
            if (path == null || path.isEmpty() || path.startsWith(".") || path.endsWith(".") || path.contains("..")) {
                throw new IllegalArgumentException("a path is dot-separated names, was '" + path + "'");
            }
            for (Definition d : definitions) {
                if (d.path.equals(path)) {
                    throw new IllegalArgumentException("a condition with the path " + path + " is declared already");
                }
            }
            Definition definition = new Definition(kind, path);
            definitions.add(definition);
            return definition;
        }

        /** @throws IllegalArgumentException naming the condition when a source, input, limits or normal value is missing */
        public ConditionManager build() {
            definitions.forEach(Definition::validate);
            return new ConditionManager(this);
        }
    }

    /** Reads the input variables on one named thread and hands each changed value to its alarm. */
    private static final class InputSampler implements AutoCloseable {
        private final NodeManagers managers;
        private final List<AlarmCondition> alarms;
        private final ReadValueId[] items;
        private final DataValue[] last;
        private final long intervalMillis;
        private final ScheduledExecutorService executor;
        private volatile boolean closed;
        private volatile boolean started;

        InputSampler(NodeManagers managers, List<AlarmCondition> alarms, Duration interval) {
            this.managers = managers;
            this.alarms = List.copyOf(alarms);
            this.items = new ReadValueId[alarms.size()];
            for (int i = 0; i < items.length; i++) {
                items[i] = new ReadValueId(alarms.get(i).inputNode(), AttributeIds.Value, null, null);
            }
            this.last = new DataValue[items.length];
            this.intervalMillis = interval.toMillis();
            this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread thread = new Thread(r, "opcua-alarm-inputs");
                thread.setDaemon(true);
                return thread;
            });
        }

        synchronized void start() {
            if (!started && !closed) {
                started = true;
                executor.execute(this::tick);
            }
        }

        private void tick() {
            if (closed) {
                return;
            }
            managers.read(OperationContext.INTERNAL, items, 0, TimestampsToReturn.Source)
                    .whenComplete((values, failure) -> {
                        if (failure == null) {
                            apply(values);
                        } else {
                            log.warn("reading the alarm inputs failed", failure);
                        }
                        if (!closed) {
                            try {
                                executor.schedule(this::tick, intervalMillis, TimeUnit.MILLISECONDS);
                            } catch (java.util.concurrent.RejectedExecutionException e) {
                                // closed meanwhile
                            }
                        }
                    });
        }

        private synchronized void apply(DataValue[] values) {
            for (int i = 0; i < values.length; i++) {
                DataValue value = values[i];
                DataValue previous = last[i];
                if (previous != null && Objects.equals(previous.value(), value.value())
                        && Objects.equals(previous.statusCode(), value.statusCode())) {
                    continue;
                }
                last[i] = value;
                try {
                    alarms.get(i).input(value);
                } catch (RuntimeException e) {
                    log.warn("alarm {} failed to evaluate its input {}", alarms.get(i), value, e);
                }
            }
        }

        @Override
        public void close() {
            closed = true;
            executor.shutdownNow();
        }
    }
}
