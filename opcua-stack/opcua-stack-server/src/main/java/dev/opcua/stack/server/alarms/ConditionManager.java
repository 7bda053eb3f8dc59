package dev.opcua.stack.server.alarms;

import dev.opcua.stack.server.audit.AuditLog;
import dev.opcua.stack.server.audit.AuditsOwnMethods;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.alarms.ConditionNodes.Instance;
import dev.opcua.stack.server.nodes.CallOperation;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.subscriptions.events.EventSink;
import dev.opcua.stack.server.subscriptions.events.FieldPath;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The node manager of condition instances (Part 9, 5.5 ConditionType and 5.8 AlarmConditionType): one
 * namespace holding the alarms declared with its {@link ConditionManagerBuilder builder}, their
 * variables mirroring their state, and their methods.
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
 * Acknowledge and Confirm, answered by {@link ConditionMethodCalls}; the caller's user name becomes
 * ClientUserId.</li>
 * <li><b>Inputs</b>: alarms with an input variable are evaluated on each change of that variable,
 * sampled by one named thread ({@code opcua-alarm-inputs}, {@link AlarmInputSampler}) through the
 * server's node managers at the {@linkplain ConditionManagerBuilder#inputSamplingInterval input
 * sampling interval}; the application may also push a value with {@link AlarmCondition#input}.</li>
 * </ul>
 */
public final class ConditionManager extends NodeStoreNodeManager implements AuditsOwnMethods {

    private static final Logger log = LoggerFactory.getLogger(ConditionManager.class);

    private final String namespaceUri;
    private final List<ConditionDefinition> definitions;
    private final Duration inputSamplingInterval;
    private final Map<String, Condition> byPath = new LinkedHashMap<>();
    private final Map<NodeId, Instance> instances = new ConcurrentHashMap<>();
    private final Map<NodeId, Instance> byMethod = new ConcurrentHashMap<>();
    private final ConditionMethodCalls methodCalls;
    private volatile EventSink events = (notifier, event) -> { };
    private volatile NodeManagers inputs;
    private volatile AlarmInputSampler sampler;
    private volatile int namespaceIndex = -1;

    ConditionManager(String namespaceUri, List<ConditionDefinition> definitions, Duration inputSamplingInterval) {
        super(List.of(namespaceUri), new NodeStore(definitions.size() * 64), true);
        this.namespaceUri = namespaceUri;
        this.definitions = List.copyOf(definitions);
        this.inputSamplingInterval = inputSamplingInterval;
        this.methodCalls = new ConditionMethodCalls(store(), instances, byMethod);
    }

    /** A builder of the conditions of the namespace {@code namespaceUri}. */
    public static ConditionManagerBuilder builder(String namespaceUri) {
        return new ConditionManagerBuilder(namespaceUri);
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
     * Where the condition methods are audited (Part 9, 5.10: AuditConditionEnable, Comment, Acknowledge and
     * Confirm events) when the server audits; set by the server with {@link #attach}.
     */
    public void attachAudit(AuditLog audit) {
        methodCalls.audit(Objects.requireNonNull(audit, "audit"));
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
        for (ConditionDefinition definition : definitions) {
            NodeId id = NodeId.string(ns, definition.path);
            Condition condition = definition.create(id, namespaces);
            Instance instance = ConditionNodes.create(store(), condition,
                    QualifiedName.of(ns, definition.browseName()));
            if (condition instanceof OffNormalAlarm offNormal
                    && offNormal.normalState().equals(ConditionNodes.normalValueId(id))) {
                ConditionNodes.addNormalValue(store(), id, offNormal);
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
            sampler = new AlarmInputSampler(inputs, sampled, inputSamplingInterval);
        }
        log.info("conditions of {}: {} instances, {} sampled inputs", namespaceUri, instances.size(), sampled.size());
    }

    /** Starts sampling the inputs, once the server runs. */
    public void startInputs() {
        AlarmInputSampler current = sampler;
        if (current != null) {
            current.start();
        }
    }

    @Override
    public void shutdown() {
        AlarmInputSampler current = sampler;
        if (current != null) {
            current.close();
        }
    }

    /** Mirrors a change into the instance's variables and reports its event on the condition's source. */
    private void changed(Condition condition, UaEvent event, Map<FieldPath, Variant> fields) {
        Instance instance = instances.get(condition.nodeId());
        if (instance != null) {
            ConditionNodes.mirror(instance, fields, event);
        }
        if (event != null) {
            events.report(condition.identity().sourceNode(), event);
        }
    }

    @Override
    public void callNow(OperationContext context, List<CallOperation> operations) {
        for (CallOperation operation : operations) {
            methodCalls.call(context, operation);
        }
    }
}
