package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.IdType;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.server.addressspace.MethodNode;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.ObjectTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.history.aggregate.AggregateConfiguration;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.WellKnownRole;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A node manager for one namespace whose folders, objects, variables and methods are declared with
 * a {@link #builder(String) builder} and live in memory.
 *
 * <p>Nodes are named by a dotted path ("Line1.Speed"): the last segment is the BrowseName, the
 * rest names the parent, and the path is the string identifier of the NodeId unless an explicit
 * identifier is given. A node without a parent path hangs below the root (the Objects folder by
 * default) or below an explicit parent of another namespace. Since the namespace index is known
 * only once the manager is registered, the nodes are created in {@link #startup}; the server
 * adds the reverse of references into other namespaces afterwards.
 *
 * <p>References (Part 3, 7 and Part 5): a parent folder, or a parent of another namespace,
 * Organizes its child, any other parent HasComponent; methods are always components; folders have
 * the type definition FolderType, objects BaseObjectType, variables BaseDataVariableType, the
 * InputArguments / OutputArguments of a method (Part 3, 5.7) are PropertyType properties holding
 * {@link Argument} ExtensionObjects (left out when a method has none).
 *
 * <p>Variables store a value, or ask a supplier on every read; a write handler sees a written
 * value after the access and type checks and before it is stored, and vetoes it by throwing a
 * {@link UaException} (e.g. BadOutOfRange). A manager with neither, or whose builder was told
 * {@link Builder#nonBlockingCallbacks()}, is {@link NodeManager#isNonBlocking() non-blocking}.
 *
 * <p>Call (Part 4, 5.12.2): an unknown object is BadNodeIdUnknown, a node that is not an Object
 * BadNodeIdInvalid, a method that is not a component of the object (or not of this manager)
 * BadMethodInvalid; too few inputs BadArgumentsMissing, too many BadTooManyArguments, inputs that
 * do not fit the declared DataType and ValueRank BadInvalidArgument with BadTypeMismatch for each
 * of them; a handler's UaException gives its status, any other exception BadInternalError, as do
 * outputs that do not match the declared count. A method the session's roles may not Call is
 * BadUserAccessDenied.
 *
 * <p>Roles (Part 3, 4.9): {@link Builder#defaultPermissions} sets the namespace default,
 * {@link Options#permissions} and {@link Options#roles} (with their shorthands
 * {@link VariableOptions#writeRoles} and {@link MethodOptions#callRoles}) a node's own table, which
 * the checks of {@link NodeStoreNodeManager} use.
 */
public final class InMemoryNodeManager extends NodeStoreNodeManager {

    /** The code of a method: returns the output arguments or throws a {@link UaException}. */
    @FunctionalInterface
    public interface MethodHandler {
        Variant[] invoke(OperationContext context, Variant[] inputs);
    }

    /** Sees a written value before it is stored; throws a {@link UaException} to refuse it. */
    @FunctionalInterface
    public interface WriteHandler {
        void onWrite(OperationContext context, Variant value);
    }

    private static final int ACCESS_READ = CURRENT_READ;
    private static final int ACCESS_WRITE = CURRENT_WRITE;
    private static final NodeId ORGANIZES = NodeId.ns0(NodeIds.Organizes);
    private static final NodeId HAS_COMPONENT = NodeId.ns0(NodeIds.HasComponent);
    private static final NodeId HAS_PROPERTY = NodeId.ns0(NodeIds.HasProperty);
    private static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);
    private static final NodeId FOLDER_TYPE = NodeId.ns0(NodeIds.FolderType);
    private static final NodeId BASE_OBJECT_TYPE = NodeId.ns0(NodeIds.BaseObjectType);
    private static final NodeId BASE_DATA_VARIABLE_TYPE = NodeId.ns0(NodeIds.BaseDataVariableType);
    private static final NodeId PROPERTY_TYPE = NodeId.ns0(NodeIds.PropertyType);
    private static final NodeId ARGUMENT_TYPE = NodeId.ns0(NodeIds.Argument);
    private static final NodeId HAS_HISTORICAL_CONFIGURATION = NodeId.ns0(NodeIds.HasHistoricalConfiguration);
    private static final NodeId HISTORICAL_DATA_CONFIGURATION_TYPE = NodeId.ns0(NodeIds.HistoricalDataConfigurationType);
    private static final NodeId AGGREGATE_CONFIGURATION_TYPE = NodeId.ns0(NodeIds.AggregateConfigurationType);
    /** The standard BrowseName of every HistoricalDataConfiguration instance (Part 11, 5.2.2, Table 6). */
    public static final String HA_CONFIGURATION = "HA Configuration";
    private static final Argument[] NO_ARGUMENTS = {};

    private enum Kind { FOLDER, OBJECT, VARIABLE, METHOD }

    private final String namespaceUri;
    private final NodeId root;
    private final List<Spec> specs;
    private final Map<String, Spec> specsByPath;
    /** Filled once in startup, before the server takes requests; read only afterwards. */
    private final Map<String, NodeId> idsByPath = new HashMap<>();
    private final Map<NodeId, MethodEntry> methods = new HashMap<>();
    /** Filled in startup, and by {@link #onWrite} for nodes made at start by others (type instances). */
    private final Map<NodeId, WriteHandler> writeHandlers = new ConcurrentHashMap<>();
    private volatile int namespaceIndex = -1;

    private InMemoryNodeManager(Builder builder) {
        super(List.of(builder.namespaceUri), new NodeStore(builder.specs.size() * 2), builder.nonBlocking());
        this.namespaceUri = builder.namespaceUri;
        this.root = builder.root;
        this.specs = List.copyOf(builder.specs.values());
        this.specsByPath = new HashMap<>(builder.specs);
        if (builder.defaultPermissions != null) {
            store().setDefaultPermissions(builder.defaultPermissions);
        }
    }

    /** A builder of the nodes of the namespace {@code namespaceUri}. */
    public static Builder builder(String namespaceUri) {
        return new Builder(namespaceUri);
    }

    public String namespaceUri() {
        return namespaceUri;
    }

    /** The index of the namespace; -1 before {@link #startup}. */
    public int namespaceIndex() {
        return namespaceIndex;
    }

    /**
     * The NodeId of the node declared with {@code path}.
     *
     * @throws IllegalStateException before {@link #startup}
     * @throws IllegalArgumentException when no node has that path
     */
    public NodeId nodeId(String path) {
        if (namespaceIndex < 0) {
            throw new IllegalStateException("the nodes are created when the server starts");
        }
        NodeId id = idsByPath.get(path);
        if (id == null) {
            throw new IllegalArgumentException("no node has the path " + path);
        }
        return id;
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
        for (Spec spec : specs) {
            idsByPath.put(spec.path, spec.nodeId(ns));
        }
        // references are collected per node and added with one array copy each: a folder with
        // 10,000 children would otherwise copy its array 10,000 times
        Map<NodeId, List<UaReference>> references = new HashMap<>(specs.size() * 4);
        DateTime now = DateTime.now();
        for (Spec spec : specs) {
            NodeId id = idsByPath.get(spec.path);
            NodeId parent = spec.parent != null ? spec.parent : spec.parentPath == null ? root
                    : idsByPath.get(spec.parentPath);
            boolean organized = spec.parent != null || spec.parentPath == null
                    || specsByPath.get(spec.parentPath).kind == Kind.FOLDER;
            NodeId referenceType = spec.kind != Kind.METHOD && organized ? ORGANIZES : HAS_COMPONENT;
            linkParent(references, parent, referenceType, id, spec.parent == null && spec.parentPath != null);
            QualifiedName browseName = QualifiedName.of(ns, spec.browseName);
            LocalizedText description = spec.description == null ? null : LocalizedText.of(spec.description);
            LocalizedText displayName = LocalizedText.of(spec.displayName == null ? spec.browseName : spec.displayName);
            switch (spec.kind) {
                case FOLDER, OBJECT -> {
                    store().add(new ObjectNode(id, browseName, displayName, description, 0, 0,
                            spec.eventNotifier));
                    typeDefinition(references, id, spec.kind == Kind.FOLDER ? FOLDER_TYPE : spec.typeDefinition);
                }
                case VARIABLE -> {
                    store().add(createVariable(id, browseName, displayName, description, spec, dataType(spec, namespaces),
                            now));
                    typeDefinition(references, id, BASE_DATA_VARIABLE_TYPE);
                    if (spec.variable.historizing) {
                        addHistoricalConfiguration(references, spec.path, id, spec.variable.stepped, now);
                    }
                }
                case METHOD -> {
                    store().add(new MethodNode(id, browseName, displayName, description, 0, 0, true, true));
                    addArguments(references, spec.path, id, "InputArguments", spec.inputs, now);
                    addArguments(references, spec.path, id, "OutputArguments", spec.outputs, now);
                    methods.put(id, new MethodEntry(parent, spec.inputs, spec.outputs, spec.handler));
                }
            }
        }
        for (Spec spec : specs) {
            applyPermissions(spec, store().get(idsByPath.get(spec.path)));
        }
        for (Map.Entry<NodeId, List<UaReference>> entry : references.entrySet()) {
            UaNode node = store().get(entry.getKey());
            if (node != null) {
                node.addReferences(entry.getValue().toArray(new UaReference[0]));
            }
        }
        namespaceIndex = ns;
    }

    /**
     * Gives a node its own permission table when its options asked for one: the given table, or the
     * namespace default, narrowed by the roles named per permission. Done at startup, once the server
     * set the namespace default.
     */
    private void applyPermissions(Spec spec, UaNode node) {
        if (node == null || spec.permissions == null && spec.onlyRoles.isEmpty()) {
            return;
        }
        NodePermissions permissions = spec.permissions != null ? spec.permissions : store().defaultPermissions();
        for (Map.Entry<Permission, List<WellKnownRole>> only : spec.onlyRoles.entrySet()) {
            permissions = permissions.withOnly(only.getKey(), only.getValue());
        }
        store().setPermissions(node, permissions);
    }

    /** Adds parent -> child (only when the parent is a node of this manager) and child -> parent. */
    private static void linkParent(Map<NodeId, List<UaReference>> references, NodeId parent, NodeId type,
            NodeId child, boolean parentIsLocal) {
        if (parentIsLocal) {
            references.computeIfAbsent(parent, k -> new ArrayList<>()).add(UaReference.forward(type, child));
        }
        references.computeIfAbsent(child, k -> new ArrayList<>()).add(UaReference.inverse(type, parent));
    }

    private static void typeDefinition(Map<NodeId, List<UaReference>> references, NodeId node, NodeId type) {
        references.computeIfAbsent(node, k -> new ArrayList<>()).add(UaReference.forward(HAS_TYPE_DEFINITION, type));
    }

    /** The variable's DataType; one named by namespace URI gets the server's index for it. */
    private static NodeId dataType(Spec spec, NamespaceTable namespaces) {
        ExpandedNodeId byUri = spec.variable.dataTypeByUri;
        if (byUri == null) {
            return spec.variable.dataType;
        }
        int ns = namespaces.indexOf(byUri.namespaceUri());
        if (ns < 0) {
            throw new IllegalStateException(spec.path + ": its DataType " + byUri + " is in a namespace the server "
                    + "does not have");
        }
        return byUri.nodeId().withNamespaceIndex(ns);
    }

    private VariableNode createVariable(NodeId id, QualifiedName browseName, LocalizedText displayName,
            LocalizedText description, Spec spec, NodeId dataType, DateTime now) {
        VariableOptions options = spec.variable;
        short access = (short) ((options.readable ? ACCESS_READ : 0)
                | (options.writable || options.writeHandler != null ? ACCESS_WRITE : 0));
        VariableNode node = new VariableNode(id, browseName, displayName, description, 0, 0,
                DataValue.of(options.value, StatusCode.GOOD, now, null),
                new ValueAttributes(dataType, options.valueRank, options.arrayDimensions), access, access,
                options.minimumSamplingInterval, false, access);
        if (options.historizing) {
            node.setHistoryAccess(true, options.historyWritable);
        }
        Supplier<Variant> supplier = options.supplier;
        if (supplier != null) {
            node.setValueSource(() -> supplied(supplier));
        }
        if (options.writeHandler != null) {
            writeHandlers.put(id, options.writeHandler);
        }
        return node;
    }

    /** A supplier's failure becomes the status of the read, not an exception in the read path. */
    private static DataValue supplied(Supplier<Variant> supplier) {
        try {
            Variant value = supplier.get();
            return DataValue.of(value == null ? Variant.NULL : value, StatusCode.GOOD, DateTime.now(), null);
        } catch (UaException e) {
            return DataValue.ofStatus(e.statusCode());
        } catch (RuntimeException e) {
            return DataValue.ofStatus(StatusCode.of(StatusCodes.BadInternalError));
        }
    }

    /**
     * The variable's HistoricalDataConfiguration (Part 11, 5.2.2): an object "HA Configuration" referenced
     * with HasHistoricalConfiguration, with its mandatory Stepped property and AggregateConfiguration object
     * (Part 13, 4.2.1.2; the values the server's aggregates use by default). Clients learn from it whether
     * the history is stepped or sloped, and the server's at-time and processed reads go by its Stepped.
     */
    private void addHistoricalConfiguration(Map<NodeId, List<UaReference>> references, String path, NodeId variable,
            boolean stepped, DateTime now) {
        NodeId config = childId(variable, HA_CONFIGURATION);
        store().add(new ObjectNode(config, QualifiedName.of(0, HA_CONFIGURATION), LocalizedText.of(HA_CONFIGURATION),
                null, 0, 0, (short) 0));
        idsByPath.putIfAbsent(path + "." + HA_CONFIGURATION, config);
        linkParent(references, variable, HAS_HISTORICAL_CONFIGURATION, config, true);
        typeDefinition(references, config, HISTORICAL_DATA_CONFIGURATION_TYPE);
        addProperty(references, config, "Stepped", BuiltinType.Boolean, Variant.ofBoolean(stepped), now);
        NodeId aggregates = childId(config, "AggregateConfiguration");
        store().add(new ObjectNode(aggregates, QualifiedName.of(0, "AggregateConfiguration"),
                LocalizedText.of("AggregateConfiguration"), null, 0, 0, (short) 0));
        linkParent(references, config, HAS_COMPONENT, aggregates, true);
        typeDefinition(references, aggregates, AGGREGATE_CONFIGURATION_TYPE);
        AggregateConfiguration defaults = AggregateConfiguration.DEFAULT;
        addProperty(references, aggregates, "TreatUncertainAsBad", BuiltinType.Boolean,
                Variant.ofBoolean(defaults.treatUncertainAsBad()), now);
        addProperty(references, aggregates, "PercentDataBad", BuiltinType.Byte,
                Variant.ofByte(defaults.percentDataBad()), now);
        addProperty(references, aggregates, "PercentDataGood", BuiltinType.Byte,
                Variant.ofByte(defaults.percentDataGood()), now);
        addProperty(references, aggregates, "UseSlopedExtrapolation", BuiltinType.Boolean,
                Variant.ofBoolean(defaults.useSlopedExtrapolation()), now);
    }

    /** The id of a child of {@code parent} named {@code name}: "parent.name" in the parent's namespace. */
    private static NodeId childId(NodeId parent, String name) {
        return parent.idType() == IdType.String
                ? NodeId.string(parent.namespaceIndex(), parent.stringId() + "." + name)
                : NodeId.string(parent.namespaceIndex(), parent + "." + name);
    }

    /** A read-only scalar property of namespace 0's BrowseName {@code name}. */
    private void addProperty(Map<NodeId, List<UaReference>> references, NodeId owner, String name, BuiltinType type,
            Variant value, DateTime now) {
        NodeId id = childId(owner, name);
        store().add(new VariableNode(id, QualifiedName.of(0, name), LocalizedText.of(name), null, 0, 0,
                DataValue.of(value, StatusCode.GOOD, now, null),
                ValueAttributes.scalar(NodeId.ns0(type.typeId())), (short) ACCESS_READ, (short) ACCESS_READ, 0,
                false, ACCESS_READ));
        linkParent(references, owner, HAS_PROPERTY, id, true);
        typeDefinition(references, id, PROPERTY_TYPE);
    }

    /** The property is found by the path "method path.InputArguments" too. */
    private void addArguments(Map<NodeId, List<UaReference>> references, String path, NodeId method, String name,
            Argument[] arguments, DateTime now) {
        if (arguments.length == 0) {
            return;
        }
        NodeId id = childId(method, name);
        ExtensionObject[] values = new ExtensionObject[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            values[i] = ExtensionObject.of(arguments[i]);
        }
        store().add(new VariableNode(id, QualifiedName.of(0, name), LocalizedText.of(name), null, 0, 0,
                DataValue.of(Variant.ofArray(BuiltinType.ExtensionObject, values), StatusCode.GOOD, now, null),
                new ValueAttributes(ARGUMENT_TYPE, 1, new long[] {arguments.length}), (short) ACCESS_READ,
                (short) ACCESS_READ, 0, false, ACCESS_READ));
        idsByPath.putIfAbsent(path + "." + name, id);
        references.computeIfAbsent(method, k -> new ArrayList<>()).add(UaReference.forward(HAS_PROPERTY, id));
        references.computeIfAbsent(id, k -> new ArrayList<>()).add(UaReference.inverse(HAS_PROPERTY, method));
        typeDefinition(references, id, PROPERTY_TYPE);
    }

    /**
     * Hands the written values of a variable of this manager's store that its builder did not declare (a
     * child of a type instance made at start, {@code OpcUaServer.instances()}) to a handler, as
     * {@link VariableOptions#onWrite} does for declared ones. The variable's AccessLevel must allow writing.
     */
    public void onWrite(NodeId variable, WriteHandler handler) {
        if (!(store().get(variable) instanceof VariableNode)) {
            throw new IllegalArgumentException(variable + " is no variable of " + namespaceUri);
        }
        writeHandlers.put(variable, Objects.requireNonNull(handler, "handler"));
    }

    @Override
    protected StatusCode acceptWrite(OperationContext context, VariableNode variable, DataValue value) {
        WriteHandler handler = writeHandlers.get(variable.nodeId());
        if (handler == null) {
            return StatusCode.GOOD;
        }
        try {
            handler.onWrite(context, value.value());
            return StatusCode.GOOD;
        } catch (UaException e) {
            return e.statusCode();
        } catch (RuntimeException e) {
            return StatusCode.of(StatusCodes.BadInternalError);
        }
    }

    @Override
    public void callNow(OperationContext context, List<CallOperation> operations) {
        for (CallOperation operation : operations) {
            call(context, operation);
        }
    }

    private void call(OperationContext context, CallOperation operation) {
        UaNode object = store().get(operation.objectId());
        if (object == null) {
            operation.fail(StatusCodes.BadNodeIdUnknown);
            return;
        }
        if (!(object instanceof ObjectNode) && !(object instanceof ObjectTypeNode)) {
            operation.fail(StatusCodes.BadNodeIdInvalid);
            return;
        }
        MethodEntry method = methods.get(operation.methodId());
        if (method == null || !method.owner.equals(object.nodeId())) {
            operation.fail(StatusCodes.BadMethodInvalid);
            return;
        }
        UaNode methodNode = store().get(operation.methodId());
        if (methodNode != null && !context.allows(permissionsOf(methodNode), Permission.CALL)) {
            operation.fail(StatusCodes.BadUserAccessDenied);
            return;
        }
        Variant[] inputs = operation.inputArguments();
        if (inputs.length < method.inputs.length) {
            operation.fail(StatusCodes.BadArgumentsMissing);
            return;
        }
        if (inputs.length > method.inputs.length) {
            operation.fail(StatusCodes.BadTooManyArguments);
            return;
        }
        StatusCode[] inputResults = new StatusCode[inputs.length];
        boolean valid = true;
        for (int i = 0; i < inputs.length; i++) {
            Argument argument = method.inputs[i];
            boolean fits = DataTypeCheck.accepts(
                    new ValueAttributes(argument.dataType(), argument.valueRank(), argument.arrayDimensions()),
                    inputs[i] == null ? Variant.NULL : inputs[i]);
            inputResults[i] = fits ? StatusCode.GOOD : StatusCode.of(StatusCodes.BadTypeMismatch);
            valid &= fits;
        }
        if (!valid) {
            operation.fail(StatusCodes.BadInvalidArgument, inputResults);
            return;
        }
        try {
            Variant[] outputs = method.handler.invoke(context, inputs);
            int count = outputs == null ? 0 : outputs.length;
            if (count != method.outputs.length) {
                operation.fail(StatusCodes.BadInternalError); // the handler broke its own declaration
                return;
            }
            operation.complete(outputs);
        } catch (UaException e) {
            operation.fail(e.statusCode().value());
        } catch (RuntimeException e) {
            operation.fail(StatusCodes.BadInternalError);
        }
    }

    private record MethodEntry(NodeId owner, Argument[] inputs, Argument[] outputs, MethodHandler handler) {
    }

    /** One declared node. */
    private static final class Spec {
        final Kind kind;
        final String path;
        final String parentPath;
        final String browseName;
        Object identifier;
        String displayName;
        String description;
        NodeId parent;
        NodeId typeDefinition = BASE_OBJECT_TYPE;
        short eventNotifier;
        VariableOptions variable;
        Argument[] inputs;
        Argument[] outputs;
        MethodHandler handler;
        NodePermissions permissions;
        final Map<Permission, List<WellKnownRole>> onlyRoles = new EnumMap<>(Permission.class);

        Spec(Kind kind, String path) {
            this.kind = kind;
            this.path = path;
            int dot = path.lastIndexOf('.');
            this.parentPath = dot < 0 ? null : path.substring(0, dot);
            this.browseName = path.substring(dot + 1);
        }

        NodeId nodeId(int ns) {
            if (identifier instanceof Long) {
                return NodeId.numeric(ns, (Long) identifier);
            }
            return NodeId.string(ns, identifier != null ? (String) identifier : path);
        }
    }

    /**
     * Options shared by every node: an explicit identifier, names, a parent of another namespace.
     *
     * @param <T> the options class, for chaining
     */
    public abstract static class Options<T extends Options<T>> {
        final Spec spec;

        Options(Spec spec) {
            this.spec = spec;
        }

        @SuppressWarnings("unchecked")
        private T self() {
            return (T) this;
        }

        /** A string identifier instead of the path. */
        public T id(String identifier) {
            spec.identifier = Objects.requireNonNull(identifier, "identifier");
            return self();
        }

        /** A numeric identifier (UInt32) instead of the path. */
        public T id(long identifier) {
            if (identifier < 0 || identifier > 0xFFFF_FFFFL) {
                throw new IllegalArgumentException("a numeric identifier is a UInt32, was " + identifier);
            }
            spec.identifier = identifier;
            return self();
        }

        public T displayName(String text) {
            spec.displayName = text;
            return self();
        }

        public T description(String text) {
            spec.description = text;
            return self();
        }

        /**
         * The node's own RolePermissions (Part 3, 5.2.9) instead of the namespace default; combined
         * with {@link #roles} when both are given.
         */
        public T permissions(NodePermissions permissions) {
            spec.permissions = Objects.requireNonNull(permissions, "permissions");
            return self();
        }

        /**
         * Exactly {@code roles} have {@code permission} on this node; its other permissions are the
         * namespace default's (or those of {@link #permissions}). For example
         * {@code roles(Permission.WRITE, WellKnownRole.OPERATOR)}: everyone who may read, only
         * operators write.
         */
        public T roles(Permission permission, WellKnownRole... roles) {
            spec.onlyRoles.put(Objects.requireNonNull(permission, "permission"), List.of(roles));
            return self();
        }

        /**
         * A parent of another namespace, e.g. a folder of namespace 0; only for a node whose path has
         * no parent segment.
         */
        public T parent(NodeId parent) {
            if (spec.parentPath != null) {
                throw new IllegalArgumentException(spec.path + " has its parent in its path already");
            }
            spec.parent = Objects.requireNonNull(parent, "parent");
            return self();
        }
    }

    /** Options of a folder or an object. */
    public static final class ObjectOptions extends Options<ObjectOptions> {
        ObjectOptions(Spec spec) {
            super(spec);
        }

        /**
         * Makes the object (or folder) an event notifier (EventNotifier SubscribeToEvents, Part 3, 8.59):
         * clients may monitor its events, which the application reports with
         * {@code OpcUaServer.events().report(nodeId, event)}; they also reach the Server object.
         */
        public ObjectOptions eventNotifier() {
            spec.eventNotifier = 1;
            return this;
        }

        /** The type definition of an object (BaseObjectType by default); ignored for folders. */
        public ObjectOptions typeDefinition(NodeId type) {
            spec.typeDefinition = Objects.requireNonNull(type, "type");
            return this;
        }
    }

    /** Options of a variable: value rank, dimensions, access, and where its value comes from. */
    public static final class VariableOptions extends Options<VariableOptions> {
        private final NodeId dataType;
        private ExpandedNodeId dataTypeByUri;
        private int valueRank = -1;
        private long[] arrayDimensions;
        private boolean readable = true;
        private boolean writable;
        private double minimumSamplingInterval;
        private Variant value = Variant.NULL;
        private Supplier<Variant> supplier;
        private WriteHandler writeHandler;
        private boolean historizing;
        private boolean stepped;
        private boolean historyWritable;

        VariableOptions(Spec spec, NodeId dataType) {
            super(spec);
            this.dataType = dataType;
        }

        /** ValueRank (Part 3, 5.6.2): -1 scalar (the default), 1 one dimension, ... */
        public VariableOptions valueRank(int rank) {
            if (rank < -3) {
                throw new IllegalArgumentException("valueRank must be >= -3, was " + rank);
            }
            valueRank = rank;
            return this;
        }

        /** ArrayDimensions, UInt32 lengths (0 = any). */
        public VariableOptions arrayDimensions(long... dimensions) {
            arrayDimensions = dimensions.clone();
            return this;
        }

        /** Read and write access (readable and not writable by default; a write handler makes it writable). */
        public VariableOptions access(boolean read, boolean write) {
            readable = read;
            writable = write;
            return this;
        }

        /** Only these roles may write the value (Write permission); the other permissions as the namespace's. */
        public VariableOptions writeRoles(WellKnownRole... roles) {
            return roles(Permission.WRITE, roles);
        }

        /** Only these roles may read the value (Read permission); the other permissions as the namespace's. */
        public VariableOptions readRoles(WellKnownRole... roles) {
            return roles(Permission.READ, roles);
        }

        /** Allows writing the value. */
        public VariableOptions writable() {
            writable = true;
            return this;
        }

        public VariableOptions minimumSamplingInterval(double ms) {
            minimumSamplingInterval = ms;
            return this;
        }

        /** The stored initial value. */
        public VariableOptions value(Variant initial) {
            value = Objects.requireNonNull(initial, "initial");
            return this;
        }

        /** Asks {@code source} on every read; a UaException it throws becomes the read's status. */
        public VariableOptions valueSupplier(Supplier<Variant> source) {
            supplier = Objects.requireNonNull(source, "source");
            return this;
        }

        /**
         * Records the variable's values in the server's history store (Part 11): Historizing true and the
         * AccessLevel HistoryRead bit, so that clients read its history with HistoryRead.
         */
        public VariableOptions historizing() {
            historizing = true;
            return this;
        }

        /**
         * Records the variable (see {@link #historizing()}) and lets clients change its history with
         * HistoryUpdate (AccessLevel HistoryWrite bit).
         */
        public VariableOptions historyWritable() {
            historizing = true;
            historyWritable = true;
            return this;
        }

        /**
         * Records the variable (see {@link #historizing()}) as stepped: its value holds until the next one
         * rather than changing along a line between them, as for a state or a setpoint (the Stepped property
         * of its HistoricalDataConfiguration, Part 11, 5.2.2). At-time and processed history reads hold the
         * previous value instead of interpolating. Default: sloped.
         */
        public VariableOptions stepped() {
            historizing = true;
            stepped = true;
            return this;
        }

        /** Sees each written value before it is stored and may veto it; makes the variable writable. */
        public VariableOptions onWrite(WriteHandler handler) {
            writeHandler = Objects.requireNonNull(handler, "handler");
            return this;
        }
    }

    /** Options of a method. */
    public static final class MethodOptions extends Options<MethodOptions> {
        MethodOptions(Spec spec) {
            super(spec);
        }

        /** Only these roles may call the method (Call permission); the other permissions as the namespace's. */
        public MethodOptions callRoles(WellKnownRole... roles) {
            return roles(Permission.CALL, roles);
        }
    }

    /** Declares the nodes; {@link #build()} checks that every parent path is declared. */
    public static final class Builder {
        private final String namespaceUri;
        private final Map<String, Spec> specs = new LinkedHashMap<>();
        private NodeId root = NodeId.ns0(NodeIds.ObjectsFolder);
        private boolean callbacksNonBlocking;
        private NodePermissions defaultPermissions;

        private Builder(String namespaceUri) {
            if (namespaceUri == null || namespaceUri.isEmpty()) {
                throw new IllegalArgumentException("namespaceUri must not be empty");
            }
            this.namespaceUri = namespaceUri;
        }

        /**
         * The permissions of the nodes that have none of their own (the namespace's
         * DefaultRolePermissions, Part 3, 5.2.9); every role may do everything unless set.
         */
        public Builder defaultPermissions(NodePermissions permissions) {
            defaultPermissions = Objects.requireNonNull(permissions, "permissions");
            return this;
        }

        /** The parent of nodes whose path has no parent segment (the Objects folder, i=85, by default). */
        public Builder root(NodeId parent) {
            root = Objects.requireNonNull(parent, "parent");
            return this;
        }

        public Builder folder(String path) {
            return folder(path, o -> { });
        }

        public Builder folder(String path, Consumer<ObjectOptions> options) {
            options.accept(new ObjectOptions(add(Kind.FOLDER, path)));
            return this;
        }

        public Builder object(String path) {
            return object(path, o -> { });
        }

        public Builder object(String path, Consumer<ObjectOptions> options) {
            options.accept(new ObjectOptions(add(Kind.OBJECT, path)));
            return this;
        }

        /**
         * Promises that every value supplier and write handler of this manager returns at once without
         * waiting (it reads an atomic field, say, never a device), so that the manager counts as
         * {@link NodeManager#isNonBlocking() non-blocking} although it has some. A manager without
         * suppliers and write handlers is non-blocking anyway; method handlers do not count, since Call
         * always runs on a worker.
         */
        public Builder nonBlockingCallbacks() {
            callbacksNonBlocking = true;
            return this;
        }

        /** Whether the manager to be built is non-blocking: no supplier or write handler, or they promise to be. */
        private boolean nonBlocking() {
            if (callbacksNonBlocking) {
                return true;
            }
            for (Spec spec : specs.values()) {
                if (spec.variable != null && (spec.variable.supplier != null || spec.variable.writeHandler != null)) {
                    return false;
                }
            }
            return true;
        }

        /** A variable of a built-in data type. */
        public Builder variable(String path, BuiltinType type, Consumer<VariableOptions> options) {
            return variable(path, type.dataTypeId(), options);
        }

        /** A variable of any data type (a structure's value is an ExtensionObject). */
        public Builder variable(String path, NodeId dataType, Consumer<VariableOptions> options) {
            Objects.requireNonNull(dataType, "dataType");
            VariableOptions variable = new VariableOptions(add(Kind.VARIABLE, path), dataType);
            options.accept(variable);
            variable.spec.variable = variable;
            return this;
        }

        /**
         * A variable whose DataType is named by namespace URI ({@code nsu=...}), for a type of another node
         * manager whose namespace index is known only when the server starts (e.g. a
         * {@code RecordDataTypeManager}'s); the namespace must be the server's by then.
         */
        public Builder variable(String path, ExpandedNodeId dataType, Consumer<VariableOptions> options) {
            Objects.requireNonNull(dataType, "dataType");
            if (dataType.namespaceUri() == null) {
                return variable(path, dataType.nodeId(), options);
            }
            VariableOptions variable = new VariableOptions(add(Kind.VARIABLE, path), BuiltinType.Variant.dataTypeId());
            variable.dataTypeByUri = dataType;
            options.accept(variable);
            variable.spec.variable = variable;
            return this;
        }

        /**
         * A method of the object (or folder) its path's parent names.
         *
         * @param inputs the InputArguments, null or empty for none
         * @param outputs the OutputArguments, null or empty for none
         */
        public Builder method(String path, Argument[] inputs, Argument[] outputs, MethodHandler handler) {
            return method(path, inputs, outputs, handler, m -> { });
        }

        /** A method with options, e.g. which roles may call it. */
        public Builder method(String path, Argument[] inputs, Argument[] outputs, MethodHandler handler,
                Consumer<MethodOptions> options) {
            Spec spec = add(Kind.METHOD, path);
            if (spec.parentPath == null) {
                specs.remove(path);
                throw new IllegalArgumentException("a method needs an object in its path: " + path);
            }
            spec.inputs = inputs == null ? NO_ARGUMENTS : inputs.clone();
            spec.outputs = outputs == null ? NO_ARGUMENTS : outputs.clone();
            spec.handler = Objects.requireNonNull(handler, "handler");
            options.accept(new MethodOptions(spec));
            return this;
        }

        private Spec add(Kind kind, String path) {
            if (path == null || path.isEmpty() || path.startsWith(".") || path.endsWith(".") || path.contains("..")) {
                throw new IllegalArgumentException("a path is dot-separated names, was '" + path + "'");
            }
            Spec spec = new Spec(kind, path);
            if (specs.putIfAbsent(path, spec) != null) {
                throw new IllegalArgumentException("a node with the path " + path + " is declared already");
            }
            return spec;
        }

        /**
         * @throws IllegalArgumentException naming the path when a parent path is not declared, or a
         *     method's parent is not a folder or an object
         */
        public InMemoryNodeManager build() {
            for (Spec spec : specs.values()) {
                if (spec.parentPath == null) {
                    continue;
                }
                Spec parent = specs.get(spec.parentPath);
                if (parent == null) {
                    throw new IllegalArgumentException(spec.path + ": no node has the parent path " + spec.parentPath);
                }
                if (spec.kind == Kind.METHOD && parent.kind != Kind.OBJECT && parent.kind != Kind.FOLDER) {
                    throw new IllegalArgumentException(spec.path + ": a method belongs to an object or a folder");
                }
            }
            return new InMemoryNodeManager(this);
        }
    }
}
