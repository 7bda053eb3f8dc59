package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StandardDataTypes;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.alarms.ConditionManager;
import dev.opcua.stack.server.alarms.ConditionManagerBuilder;
import dev.opcua.stack.server.alarms.LimitAlarmOptions;
import dev.opcua.stack.server.nodeset.InstantiatesTypes;
import dev.opcua.stack.server.nodeset.TypeInstantiator;
import dev.opcua.stack.server.datatypes.RecordDataTypeManager;
import dev.opcua.stack.server.nodes.BrowseOperation;
import dev.opcua.stack.server.nodes.CallOperation;
import dev.opcua.stack.server.history.HistoryRecorder;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.InMemoryNodeManagerBuilder;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.nodes.ReadOperation;
import dev.opcua.stack.server.nodes.VariableOptions;
import dev.opcua.stack.server.nodes.WriteOperation;
import dev.opcua.stack.server.roles.WellKnownRole;
import dev.opcua.stack.server.subscriptions.items.DataChangeBroker;
import dev.opcua.stack.server.subscriptions.items.MonitoringAware;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.ClassUtils;

/**
 * The nodes of the {@link OpcUaNamespace} beans of one namespace: an {@link InMemoryNodeManager}
 * declared from their {@link UaObjectModel}s, whose variables read and write the beans' members and
 * whose methods call theirs (Part 4, 5.11.2, 5.11.4 and 5.12.2; the stack checks access, data types
 * and argument counts before a bean is touched).
 *
 * <p>It shares the in-memory manager's node store and answers every service through it; it adds
 * {@link MonitoringAware}, which the in-memory manager lacks, so that variables declared with
 * {@link UaVariable#signalsChanges()} feed items of sampling interval 0 from
 * {@link #valueChanged(Object, String)} instead of being sampled. Extending
 * {@link NodeStoreNodeManager} keeps the server linking the bean objects into the Objects folder.
 */
public final class OpcUaAnnotatedNodeManager extends NodeStoreNodeManager implements MonitoringAware,
        InstantiatesTypes {

    private static final Logger log = LoggerFactory.getLogger(OpcUaAnnotatedNodeManager.class);
    private static final Variant[] NO_VARIANTS = {};
    private static final NodeId HAS_COMPONENT = NodeId.ns0(NodeIds.HasComponent);

    private final InMemoryNodeManager nodes;
    /** The DataTypes of the record variables, in {@link #typesNamespaceUri}; null when there are none. */
    private final RecordDataTypeManager types;
    private final List<UaObjectModel> roots;
    private final List<VariableEntry> variables;
    /** The objects of a {@link UaObject#type()}, instantiated at start by their paths. */
    private final Map<String, UaObjectModel> typedObjects;
    /** Set in startup: where the types' namespaces are looked up. */
    private volatile NamespaceTable namespaceTable;
    /** Holder object (by identity) to its variables by Java name, and the bean to nested ones by dotted path. */
    private final Map<Object, Map<String, List<VariableEntry>>> byHolder;
    /** Variables whose failures were logged at WARN once already; later ones go to DEBUG. */
    private final Set<String> warned = ConcurrentHashMap.newKeySet();
    /** Filled in startup: the NodeIds of the variables that signal their changes. */
    private volatile Set<NodeId> signalled = Set.of();
    /** Where signalled changes of historizing variables are recorded; asked per change. */
    private volatile Supplier<HistoryRecorder> recorder = () -> null;
    private volatile DataChangeBroker broker;

    private OpcUaAnnotatedNodeManager(InMemoryNodeManager nodes, RecordDataTypeManager types,
            List<UaObjectModel> roots, List<VariableEntry> variables,
            Map<Object, Map<String, List<VariableEntry>>> byHolder, Map<String, UaObjectModel> typedObjects) {
        super(nodes.namespaceUris(), nodes.store(), nodes.isNonBlocking());
        this.nodes = nodes;
        this.types = types;
        this.typedObjects = typedObjects;
        this.roots = roots;
        this.variables = variables;
        this.byHolder = byHolder;
    }

    /**
     * The node manager of the beans, all annotated {@code @OpcUaNamespace(namespaceUri)}; it is
     * non-blocking when every one of them says {@link OpcUaNamespace#nonBlocking()}.
     *
     * @param beans the beans by name (names appear in error messages), in the order their objects are added
     * @throws OpcUaAnnotationException when a bean or a member is wrong, or two beans have the same object name
     */
    public static OpcUaAnnotatedNodeManager of(String namespaceUri, Map<String, ?> beans) {
        List<UaObjectModel> roots = new ArrayList<>();
        Map<String, String> rootNames = new LinkedHashMap<>();
        boolean nonBlocking = true;
        for (Map.Entry<String, ?> bean : beans.entrySet()) {
            OpcUaNamespace namespace = ClassUtils.getUserClass(bean.getValue()).getAnnotation(OpcUaNamespace.class);
            nonBlocking &= namespace != null && namespace.nonBlocking();
            UaObjectModel root = UaBeanIntrospector.introspect(bean.getKey(), bean.getValue());
            String taken = rootNames.putIfAbsent(root.browseName(), bean.getKey());
            if (taken != null) {
                throw new OpcUaAnnotationException("bean '" + bean.getKey() + "': object name '" + root.browseName()
                        + "' in namespace " + namespaceUri + " is taken by bean '" + taken
                        + "'; set @OpcUaNamespace(name = ...) to tell them apart");
            }
            roots.add(root);
        }
        return of(namespaceUri, roots, nonBlocking);
    }

    static OpcUaAnnotatedNodeManager of(String namespaceUri, List<UaObjectModel> roots, boolean nonBlocking) {
        InMemoryNodeManagerBuilder builder = InMemoryNodeManager.builder(namespaceUri);
        if (nonBlocking) {
            builder.nonBlockingCallbacks();
        }
        List<VariableEntry> variables = new ArrayList<>();
        Map<Object, Map<String, List<VariableEntry>>> byHolder = new IdentityHashMap<>();
        OpcUaAnnotatedNodeManager[] self = new OpcUaAnnotatedNodeManager[1];
        RecordDataTypeManager types = recordTypes(namespaceUri, roots);
        Map<String, UaObjectModel> typed = new LinkedHashMap<>();
        for (UaObjectModel root : roots) {
            declare(builder, root, root.browseName(), root.instance(), variables, byHolder, self, types, typed);
        }
        self[0] = new OpcUaAnnotatedNodeManager(builder.build(), types, List.copyOf(roots), List.copyOf(variables),
                byHolder, typed);
        return self[0];
    }

    /** The DataTypes of the record variables of the objects, or null when they have none. */
    private static RecordDataTypeManager recordTypes(String namespaceUri, List<UaObjectModel> roots) {
        Set<Class<? extends Record>> records = new java.util.LinkedHashSet<>();
        java.util.ArrayDeque<UaObjectModel> pending = new java.util.ArrayDeque<>(roots);
        while (!pending.isEmpty()) {
            UaObjectModel object = pending.poll();
            for (UaVariableModel variable : object.variables()) {
                if (variable.converter().recordType() != null) {
                    records.add(variable.converter().recordType());
                }
            }
            pending.addAll(object.objects());
        }
        if (records.isEmpty()) {
            return null;
        }
        RecordDataTypeManager.Builder builder = RecordDataTypeManager.builder(typesNamespaceUri(namespaceUri));
        try {
            records.forEach(builder::record);
        } catch (IllegalArgumentException e) {
            throw new OpcUaAnnotationException("namespace " + namespaceUri + ": " + e.getMessage());
        }
        return builder.build();
    }

    /** The namespace of the DataTypes of the record variables of a namespace. */
    public static String typesNamespaceUri(String namespaceUri) {
        return namespaceUri + "/types";
    }

    /**
     * The DataTypes of the record variables of this namespace (Part 3, 5.8.3), a node manager of its own
     * in {@link #typesNamespaceUri}; null when no variable holds a record.
     */
    public RecordDataTypeManager typeManager() {
        return types;
    }

    private static void declare(InMemoryNodeManagerBuilder builder, UaObjectModel object, String path, Object bean,
            List<VariableEntry> variables, Map<Object, Map<String, List<VariableEntry>>> byHolder,
            OpcUaAnnotatedNodeManager[] self, RecordDataTypeManager types, Map<String, UaObjectModel> typed) {
        if (object.typed()) {
            // the type's instance is made at start (instantiateTypes); its variables bind the instance's children
            typed.put(path, object);
            for (UaVariableModel variable : object.variables()) {
                VariableEntry entry = new VariableEntry(variable, path + "." + variable.browseName(), true);
                variables.add(entry);
                index(byHolder, object.instance(), variable.property(), entry);
                index(byHolder, bean, object.javaPath() + "." + variable.property(), entry);
            }
            return;
        }
        boolean alarmSource = object.variables().stream().anyMatch(UaVariableModel::hasAlarm);
        builder.object(path, o -> {
            o.displayName(object.displayName()).description(object.description());
            if (alarmSource) {
                o.eventNotifier(); // Part 9: clients may monitor the alarms of the object on it
            }
        });
        for (UaVariableModel variable : object.variables()) {
            String variablePath = path + "." + variable.browseName();
            VariableEntry entry = new VariableEntry(variable, variablePath, false);
            variables.add(entry);
            index(byHolder, object.instance(), variable.property(), entry);
            if (!object.javaPath().isEmpty()) {
                index(byHolder, bean, object.javaPath() + "." + variable.property(), entry);
            }
            Consumer<VariableOptions> options = v -> {
                v.displayName(variable.displayName())
                        .description(variable.description())
                        .valueRank(variable.valueRank())
                        .minimumSamplingInterval(variable.minimumSamplingInterval())
                        .valueSupplier(() -> self[0].read(variable));
                if (variable.valueRank() == 1) {
                    v.arrayDimensions(0);
                }
                if (variable.writable()) {
                    v.onWrite((context, value) -> self[0].write(entry, value));
                }
                if (!variable.readRoles().isEmpty()) {
                    v.readRoles(variable.readRoles().toArray(WellKnownRole[]::new));
                }
                if (!variable.writeRoles().isEmpty()) {
                    v.writeRoles(variable.writeRoles().toArray(WellKnownRole[]::new));
                }
                if (variable.historizing()) {
                    v.historizing();
                }
            };
            Class<? extends Record> record = variable.converter().recordType();
            if (record != null) {
                builder.variable(variablePath, types.dataTypeId(record), options);
            } else {
                builder.variable(variablePath, variable.builtinType(), options);
            }
        }
        for (UaMethodModel method : object.methods()) {
            builder.method(path + "." + method.browseName(), arguments(method.inputs()), arguments(method.outputs()),
                    (context, inputs) -> self[0].call(method, context, inputs), m -> {
                        if (!method.callRoles().isEmpty()) {
                            m.callRoles(method.callRoles().toArray(WellKnownRole[]::new));
                        }
                    });
        }
        for (UaObjectModel child : object.objects()) {
            declare(builder, child, path + "." + child.browseName(), bean, variables, byHolder, self, types, typed);
        }
    }

    private static void index(Map<Object, Map<String, List<VariableEntry>>> byHolder, Object holder, String name,
            VariableEntry entry) {
        byHolder.computeIfAbsent(holder, h -> new LinkedHashMap<>()).computeIfAbsent(name, n -> new ArrayList<>(1))
                .add(entry);
    }

    private static Argument[] arguments(List<UaArgumentModel> arguments) {
        Argument[] result = new Argument[arguments.size()];
        for (int i = 0; i < result.length; i++) {
            result[i] = arguments.get(i).toArgument();
        }
        return result;
    }

    public String namespaceUri() {
        return nodes.namespaceUri();
    }

    /** The namespace of the conditions of the {@link UaLimitAlarm}s of a namespace. */
    public static String alarmsNamespaceUri(String namespaceUri) {
        return namespaceUri + "/alarms";
    }

    /**
     * The condition instances of the {@link UaLimitAlarm} and {@link UaOffNormalAlarm} variables of this
     * namespace, in the namespace {@link #alarmsNamespaceUri}; null when there are none.
     */
    public ConditionManager conditionManager() {
        ConditionManagerBuilder builder = ConditionManager.builder(alarmsNamespaceUri(namespaceUri()));
        int count = 0;
        for (UaObjectModel root : roots) {
            count += declareAlarms(builder, root, root.browseName());
        }
        return count == 0 ? null : builder.build();
    }

    private int declareAlarms(ConditionManagerBuilder builder, UaObjectModel object, String path) {
        int count = 0;
        for (UaVariableModel variable : object.variables()) {
            UaOffNormalAlarmModel offNormal = variable.offNormalAlarm();
            if (offNormal != null) {
                builder.offNormalAlarm(path + "." + offNormal.conditionName(), o -> o
                        .source(namespaceUri(), path, object.browseName())
                        .input(namespaceUri(), path + "." + variable.browseName())
                        .conditionName(offNormal.conditionName())
                        .normalValue(offNormal.normalValue())
                        .activeSeverity(offNormal.severity())
                        .normalSeverity(offNormal.normalSeverity())
                        .confirmable(offNormal.confirmable()));
                count++;
            }
            UaLimitAlarmModel alarm = variable.limitAlarm();
            if (alarm == null) {
                continue;
            }
            Consumer<LimitAlarmOptions> options = o -> o
                    .source(namespaceUri(), path, object.browseName())
                    .input(namespaceUri(), path + "." + variable.browseName())
                    .conditionName(alarm.conditionName())
                    .limits(alarm.limits())
                    .normalSeverity(alarm.normalSeverity())
                    .confirmable(alarm.confirmable());
            String conditionPath = path + "." + alarm.conditionName();
            if (alarm.exclusive()) {
                builder.exclusiveLimitAlarm(conditionPath, options);
            } else {
                builder.nonExclusiveLimitAlarm(conditionPath, options);
            }
            count++;
        }
        for (UaObjectModel child : object.objects()) {
            count += declareAlarms(builder, child, path + "." + child.browseName());
        }
        return count;
    }

    /**
     * The NodeId of a node by its path of browse names from the bean's object ({@code "Filler.Motor.Speed"}).
     *
     * @throws IllegalStateException before the server started
     * @throws IllegalArgumentException when no node has that path
     */
    public NodeId nodeId(String path) {
        return nodes.nodeId(path);
    }

    /** The objects of the beans, for tests and diagnostics. */
    List<UaObjectModel> roots() {
        return roots;
    }

    /**
     * Hands signalled changes to the server's monitored items from now on; before, signals are
     * ignored (nothing can be monitored before the server started).
     */
    public void connect(DataChangeBroker dataChanges) {
        this.broker = dataChanges;
    }

    /**
     * Records signalled changes of {@link UaVariable#historizing()} variables at once, into the recorder
     * the supplier gives when a change is signalled (null: none, as before the server started); without
     * signals they are recorded when sampled.
     */
    public void connectHistory(Supplier<HistoryRecorder> history) {
        this.recorder = history == null ? () -> null : history;
    }

    /**
     * The member {@code property} of {@code source} changed: its current value goes to the items
     * that monitor it without sampling. Does nothing before {@link #connect} and for variables no
     * item monitors.
     *
     * @param source the bean, or an object of one of its {@link UaObject} members
     * @param property the member's Java name, or from the bean a dotted path of Java names
     * @return whether {@code source} is an object of this manager
     * @throws IllegalArgumentException when the object has no {@link UaVariable} of that name
     */
    public boolean valueChanged(Object source, String property) {
        Map<String, List<VariableEntry>> members = byHolder.get(source);
        if (members == null) {
            return false;
        }
        List<VariableEntry> entries = members.get(property);
        if (entries == null) {
            throw new IllegalArgumentException("value change of '" + property + "' of "
                    + source.getClass().getName() + ": it has no @UaVariable of that name; its variables are "
                    + new TreeSet<>(members.keySet()));
        }
        for (VariableEntry entry : entries) {
            push(entry);
        }
        return true;
    }

    private void push(VariableEntry entry) {
        DataChangeBroker dataChanges = broker;
        NodeId nodeId = entry.nodeId;
        if (nodeId == null) {
            return;
        }
        boolean monitored = dataChanges != null && dataChanges.isMonitored(nodeId);
        HistoryRecorder history = entry.model.historizing() ? recorder.get() : null;
        if (!monitored && history == null) {
            return;
        }
        DataValue value;
        try {
            value = DataValue.of(read(entry.model), StatusCode.GOOD, DateTime.now(), null);
        } catch (UaException e) {
            value = DataValue.ofStatus(e.statusCode());
        }
        if (monitored) {
            dataChanges.valueChanged(nodeId, value);
        }
        if (history != null) {
            history.record(nodeId, value);
        }
    }

    /** Reads through the resolved handle; a failure becomes the status of the read (and is logged). */
    private Variant read(UaVariableModel variable) {
        Object value;
        try {
            value = (Object) variable.getter().invokeExact();
        } catch (UaException e) {
            throw e;
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw failed(variable.member(), "reading", e);
        }
        try {
            Class<? extends Record> record = variable.converter().recordType();
            return record != null ? types.toVariant((Record) value) : variable.converter().toVariant(value);
        } catch (RuntimeException e) {
            throw failed(variable.member(), "converting the value " + value + " to " + variable.builtinType() + " of", e);
        }
    }

    private void write(VariableEntry entry, Variant value) {
        UaVariableModel variable = entry.model;
        Class<? extends Record> record = variable.converter().recordType();
        // a record arrives as its structure, decoded by the codec of its DataType, and becomes a new instance
        Object javaValue = record != null ? types.fromVariant(value, record) : variable.converter().fromVariant(value);
        if (javaValue == null && variable.converter().isPrimitive()) {
            throw new UaException(StatusCodes.BadTypeMismatch, variable.member() + " takes no null value");
        }
        try {
            variable.setter().invokeExact(javaValue);
        } catch (IllegalArgumentException e) {
            throw new UaException(StatusCode.of(StatusCodes.BadOutOfRange), e.getMessage(), e);
        } catch (UaException e) {
            throw e;
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw failed(variable.member(), "writing", e);
        }
        if (variable.signalsChanges()) {
            push(entry); // a write is a change the bean did not signal itself
        }
    }

    /** Calls the bean's method; the Identity parameter, if any, gets the user of the calling session. */
    private Variant[] call(UaMethodModel method, OperationContext context, Variant[] inputs) {
        Object[] arguments = new Object[method.parameterCount()];
        int input = 0;
        for (int slot = 0; slot < arguments.length; slot++) {
            if (slot == method.callerSlot()) {
                arguments[slot] = context.identity();
                continue;
            }
            UaArgumentModel argument = method.inputs().get(input);
            arguments[slot] = argument.converter().fromVariant(inputs[input++]);
            if (arguments[slot] == null && argument.converter().isPrimitive()) {
                throw new UaException(StatusCodes.BadInvalidArgument, "argument " + argument.name() + " of "
                        + method.member() + " must not be null");
            }
        }
        Object result;
        try {
            result = (Object) method.invoker().invokeExact(arguments);
        } catch (UaException e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new UaException(StatusCode.of(StatusCodes.BadInvalidArgument), e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw new UaException(StatusCode.of(StatusCodes.BadInvalidState), e.getMessage(), e);
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw failed(method.member(), "calling", e);
        }
        try {
            return outputs(method, result);
        } catch (UaException e) {
            throw e;
        } catch (Error e) {
            throw e;
        } catch (Throwable e) {
            throw failed(method.member(), "converting the result of", e);
        }
    }

    private static Variant[] outputs(UaMethodModel method, Object result) throws Throwable {
        List<UaArgumentModel> outputs = method.outputs();
        if (outputs.isEmpty()) {
            return NO_VARIANTS;
        }
        if (method.outputReaders() == null) {
            return new Variant[] {outputs.get(0).converter().toVariant(result)};
        }
        Variant[] values = new Variant[outputs.size()];
        for (int i = 0; i < values.length; i++) {
            Object component = result == null ? null : (Object) method.outputReaders().get(i).invokeExact(result);
            values[i] = outputs.get(i).converter().toVariant(component);
        }
        return values;
    }

    /** BadInternalError for the client; the cause logged, at WARN the first time per member. */
    private UaException failed(String member, String what, Throwable cause) {
        String message = what + " " + member + " failed";
        if (warned.add(what + member)) {
            log.warn("{} (BadInternalError; repeats are logged at DEBUG)", message, cause);
        } else {
            log.debug(message, cause);
        }
        return new UaException(StatusCode.of(StatusCodes.BadInternalError), message + ": " + cause, cause);
    }

    @Override
    public synchronized void startup(NamespaceTable namespaces) {
        nodes.startup(namespaces);
        namespaceTable = namespaces;
        Set<NodeId> pushed = new HashSet<>();
        for (VariableEntry entry : variables) {
            // a typed object's variables are the instance's children: their ids follow the same path rule
            entry.nodeId = entry.typed ? NodeId.string(nodes.namespaceIndex(), entry.path) : nodes.nodeId(entry.path);
            if (entry.model.signalsChanges()) {
                pushed.add(entry.nodeId);
            }
        }
        signalled = Collections.unmodifiableSet(pushed);
    }

    /**
     * Creates the objects of a {@link UaObject#type()} with their type's Mandatory children and the Optional
     * ones the object binds, and binds the object's variables to them.
     *
     * @throws OpcUaAnnotationException naming the bean, the member and the type when the type is unknown, or a
     *     variable names no child of the type or does not fit its DataType
     */
    @Override
    public synchronized void instantiateTypes(TypeInstantiator instances) {
        int ns = nodes.namespaceIndex();
        for (Map.Entry<String, UaObjectModel> typed : typedObjects.entrySet()) {
            String path = typed.getKey();
            UaObjectModel object = typed.getValue();
            NodeId type = resolve(object);
            Set<String> children;
            try {
                children = instances.declaredChildren(type);
            } catch (IllegalArgumentException e) {
                throw new OpcUaAnnotationException(object.where() + ": @UaObject type " + object.type()
                        + " is no ObjectType of the server (" + e.getMessage() + ")");
            }
            Set<String> bound = new java.util.LinkedHashSet<>();
            for (UaVariableModel variable : object.variables()) {
                if (!children.contains(variable.browseName())) {
                    throw new OpcUaAnnotationException(variable.member() + ": names no child of the type "
                            + object.type() + " (" + object.where() + "); its children are " + children);
                }
                bound.add(variable.browseName());
            }
            int dot = path.lastIndexOf('.');
            NodeId instanceId = NodeId.string(ns, path);
            try {
                instances.instantiate(type, instanceId, QualifiedName.of(ns, object.browseName()),
                        nodes.nodeId(path.substring(0, dot)), HAS_COMPONENT, bound);
            } catch (IllegalArgumentException e) {
                throw new OpcUaAnnotationException(object.where() + ": instantiating the type " + object.type()
                        + " failed: " + e.getMessage());
            }
        }
        for (VariableEntry entry : variables) {
            if (entry.typed) {
                bind(entry);
            }
        }
    }

    /** The NodeId of a typed object's type, with the server's namespace index. */
    private NodeId resolve(UaObjectModel object) {
        ExpandedNodeId type = object.type();
        if (type.namespaceUri() == null) {
            return type.nodeId();
        }
        int index = namespaceTable.indexOf(type.namespaceUri());
        if (index < 0) {
            throw new OpcUaAnnotationException(object.where() + ": @UaObject type " + type + " is in the namespace "
                    + type.namespaceUri() + ", which the server does not have; load its NodeSet2 file "
                    + "(opcua.server.nodesets)");
        }
        return type.nodeId().withNamespaceIndex(index);
    }

    /** Makes an instance's child Variable read (and write) the bean's member. */
    private void bind(VariableEntry entry) {
        UaVariableModel variable = entry.model;
        if (!(store().get(entry.nodeId) instanceof VariableNode child)) {
            throw new OpcUaAnnotationException(variable.member() + ": the child " + variable.browseName()
                    + " of its object's type is no Variable");
        }
        BuiltinType expected = StandardDataTypes.encodingOf(child.valueAttributes().dataType());
        int rank = child.valueAttributes().valueRank();
        boolean rankFits = rank == -1 ? variable.valueRank() == -1 : rank < 1 || variable.valueRank() != -1;
        if (expected != null && expected != BuiltinType.Variant && (expected != variable.builtinType() || !rankFits)) {
            throw new OpcUaAnnotationException(variable.member() + ": holds " + variable.builtinType()
                    + (variable.valueRank() == -1 ? "" : " array") + ", but the child " + variable.browseName()
                    + " of its object's type has the DataType " + expected + " and ValueRank " + rank
                    + "; use a Java type that maps to it (see @UaVariable dataType)");
        }
        VariableNode bound = child;
        // CurrentWrite (Part 3, 8.57) as the member allows: a value the bean never sees must not be writable
        int write = variable.writable() ? 0x02 : 0;
        if ((child.accessLevel() & 0x02) != write || (child.userAccessLevel() & 0x02) != write) {
            bound = new VariableNode(child.nodeId(), child.browseName(), child.displayName(), child.description(),
                    child.writeMask(), child.userWriteMask(), child.value(), child.valueAttributes(),
                    (short) (child.accessLevel() & ~0x02 | write), (short) (child.userAccessLevel() & ~0x02 | write),
                    child.minimumSamplingInterval(), child.historizing(), child.accessLevelEx() & ~0x02L | write);
            bound.addReferences(child.references());
            store().remove(child.nodeId());
            store().add(bound);
        }
        bound.setValueSource(() -> {
            try {
                return DataValue.of(read(variable), StatusCode.GOOD, DateTime.now(), null);
            } catch (UaException e) {
                return DataValue.ofStatus(e.statusCode());
            }
        });
        if (variable.writable()) {
            nodes.onWrite(bound.nodeId(), (context, value) -> write(entry, value));
        }
    }

    @Override
    public void shutdown() {
        broker = null;
        nodes.shutdown();
    }

    @Override
    public boolean pushesValueChanges(NodeId nodeId) {
        return signalled.contains(nodeId);
    }

    @Override
    public void readNow(OperationContext context, List<ReadOperation> operations) {
        nodes.readNow(context, operations);
    }

    @Override
    public void writeNow(OperationContext context, List<WriteOperation> operations) {
        nodes.writeNow(context, operations);
    }

    @Override
    public void browseNow(OperationContext context, List<BrowseOperation> operations) {
        nodes.browseNow(context, operations);
    }

    @Override
    public void callNow(OperationContext context, List<CallOperation> operations) {
        nodes.callNow(context, operations);
    }

    @Override
    public String toString() {
        return "OpcUaAnnotatedNodeManager[" + namespaceUri() + ", objects "
                + roots.stream().map(UaObjectModel::browseName).toList() + "]";
    }

    /** A declared variable and, once the server started, its NodeId. */
    private static final class VariableEntry {
        final UaVariableModel model;
        final String path;
        /** Whether it binds a child of a type instance rather than a node of the builder. */
        final boolean typed;
        volatile NodeId nodeId;

        VariableEntry(UaVariableModel model, String path, boolean typed) {
            this.model = model;
            this.path = path;
            this.typed = typed;
        }
    }
}
