package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.alarms.ConditionManager;
import dev.opcua.stack.server.datatypes.RecordDataTypeManager;
import dev.opcua.stack.server.history.HistoryRecorder;
import dev.opcua.stack.server.nodes.BrowseOperation;
import dev.opcua.stack.server.nodes.CallOperation;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.InMemoryNodeManagerBuilder;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.nodes.ReadOperation;
import dev.opcua.stack.server.nodes.WriteOperation;
import dev.opcua.stack.server.nodeset.InstantiatesTypes;
import dev.opcua.stack.server.nodeset.TypeInstantiator;
import dev.opcua.stack.server.subscriptions.items.DataChangeBroker;
import dev.opcua.stack.server.subscriptions.items.MonitoringAware;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.springframework.util.ClassUtils;

/**
 * The nodes of the {@link OpcUaNamespace} beans of one namespace: an {@link InMemoryNodeManager}
 * declared from their {@link UaObjectModel}s ({@link UaBeanNodeDeclarer}), whose variables read and
 * write the beans' members and whose methods call theirs (Part 4, 5.11.2, 5.11.4 and 5.12.2, through
 * {@link UaBeanMemberAccess}; the stack checks access, data types and argument counts before a bean is
 * touched). Objects of a {@link UaObject#type()} become instances of their type at start
 * ({@link UaTypedObjects}), alarms go to a {@link #conditionManager() condition manager} of their own.
 *
 * <p>It shares the in-memory manager's node store and answers every service through it; it adds
 * {@link MonitoringAware}, which the in-memory manager lacks, so that variables declared with
 * {@link UaVariable#signalsChanges()} feed items of sampling interval 0 from
 * {@link #valueChanged(Object, String)} instead of being sampled. Extending
 * {@link NodeStoreNodeManager} keeps the server linking the bean objects into the Objects folder.
 */
public final class OpcUaAnnotatedNodeManager extends NodeStoreNodeManager implements MonitoringAware,
        InstantiatesTypes {

    private final InMemoryNodeManager nodes;
    /** The DataTypes of the record variables, in {@link #typesNamespaceUri}; null when there are none. */
    private final RecordDataTypeManager types;
    private final UaBeanMemberAccess access;
    private final UaTypedObjects typedObjects;
    private final List<UaObjectModel> roots;
    private final List<UaVariableBinding> variables;
    /** Holder object (by identity) to its variables by Java name, and the bean to nested ones by dotted path. */
    private final Map<Object, Map<String, List<UaVariableBinding>>> byHolder;
    /** Set in startup: where the types' namespaces are looked up. */
    private volatile NamespaceTable namespaceTable;
    /** Filled in startup: the NodeIds of the variables that signal their changes. */
    private volatile Set<NodeId> signalled = Set.of();

    private OpcUaAnnotatedNodeManager(InMemoryNodeManager nodes, UaBeanNodeDeclarer declared,
            RecordDataTypeManager types, UaBeanMemberAccess access, List<UaObjectModel> roots) {
        super(nodes.namespaceUris(), nodes.store(), nodes.isNonBlocking());
        this.nodes = nodes;
        this.types = types;
        this.access = access;
        this.roots = roots;
        this.variables = declared.variables();
        this.byHolder = declared.byHolder();
        this.typedObjects = new UaTypedObjects(nodes, declared.typedObjects(), variables, access);
    }

    /** Nodes may be added to the beans' namespace and deleted through the NodeManagement services (Part 4, 5.7). */
    @Override
    public boolean acceptsNodeManagement() {
        return true;
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
        RecordDataTypeManager types = UaBeanNodeDeclarer.recordTypes(namespaceUri, typesNamespaceUri(namespaceUri),
                roots);
        UaBeanMemberAccess access = new UaBeanMemberAccess(types);
        UaBeanNodeDeclarer declarer = new UaBeanNodeDeclarer(builder, access, types);
        roots.forEach(declarer::declare);
        return new OpcUaAnnotatedNodeManager(declarer.build(), declarer, types, access, List.copyOf(roots));
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
        return UaBeanAlarmDeclarer.conditionManager(namespaceUri(), alarmsNamespaceUri(namespaceUri()), roots);
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

    /**
     * The variables annotated {@code @UaVariable(published = ...)}, in declaration order, with their NodeIds.
     *
     * @throws IllegalStateException before the server started
     */
    public List<UaPublishedVariable> publishedVariables() {
        List<UaPublishedVariable> published = new ArrayList<>();
        for (UaVariableBinding binding : variables) {
            UaVariableModel model = binding.model;
            if (model.published() == null) {
                continue;
            }
            if (binding.nodeId == null) {
                throw new IllegalStateException("the NodeIds of namespace " + namespaceUri()
                        + " are known once the server started");
            }
            published.add(new UaPublishedVariable(model.published(), model.publishedField(), binding.nodeId,
                    model.builtinType(), model.valueRank(), model.member()));
        }
        return published;
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
        access.connect(dataChanges);
    }

    /**
     * Records signalled changes of {@link UaVariable#historizing()} variables at once, into the recorder
     * the supplier gives when a change is signalled (null: none, as before the server started); without
     * signals they are recorded when sampled.
     */
    public void connectHistory(Supplier<HistoryRecorder> history) {
        access.connectHistory(history);
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
        Map<String, List<UaVariableBinding>> members = byHolder.get(source);
        if (members == null) {
            return false;
        }
        List<UaVariableBinding> bindings = members.get(property);
        if (bindings == null) {
            throw new IllegalArgumentException("value change of '" + property + "' of "
                    + source.getClass().getName() + ": it has no @UaVariable of that name; its variables are "
                    + new TreeSet<>(members.keySet()));
        }
        for (UaVariableBinding binding : bindings) {
            access.push(binding);
        }
        return true;
    }

    @Override
    public synchronized void startup(NamespaceTable namespaces) {
        nodes.startup(namespaces);
        namespaceTable = namespaces;
        Set<NodeId> pushed = new HashSet<>();
        for (UaVariableBinding binding : variables) {
            // a typed object's variables are the instance's children: their ids follow the same path rule
            binding.nodeId = binding.typed ? NodeId.string(nodes.namespaceIndex(), binding.path)
                    : nodes.nodeId(binding.path);
            if (binding.model.signalsChanges()) {
                pushed.add(binding.nodeId);
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
        typedObjects.instantiate(instances, namespaceTable);
    }

    @Override
    public void shutdown() {
        access.connect(null);
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
}
