package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.ObjectTypeNode;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A node manager for one namespace whose folders, objects, variables and methods are declared with
 * an {@link InMemoryNodeManagerBuilder} ({@link #builder(String)}) and live in memory; it serves Read,
 * Write, Browse and Call over its {@link NodeStore}.
 *
 * <p>Since the namespace index is known only once the manager is registered, the declared nodes are
 * created in {@link #startup} (by the rules of {@link DeclaredNodeFactory}: Organizes below folders
 * and other namespaces, HasComponent below objects, the standard type definitions, method arguments
 * as properties); the server adds the reverse of references into other namespaces afterwards.
 *
 * <p>Variables store a value, or ask a supplier on every read; a write handler sees a written
 * value after the access and type checks and before it is stored, and vetoes it by throwing a
 * {@link UaException} (e.g. BadOutOfRange). A manager with neither, or whose builder was told
 * {@link InMemoryNodeManagerBuilder#nonBlockingCallbacks()}, is {@link NodeManager#isNonBlocking()
 * non-blocking}.
 *
 * <p>Call (Part 4, 5.12.2): an unknown object is BadNodeIdUnknown, a node that is not an Object
 * BadNodeIdInvalid, a method that is not a component of the object (or not of this manager)
 * BadMethodInvalid; too few inputs BadArgumentsMissing, too many BadTooManyArguments, inputs that
 * do not fit the declared DataType and ValueRank BadInvalidArgument with BadTypeMismatch for each
 * of them; a handler's UaException gives its status, any other exception BadInternalError, as do
 * outputs that do not match the declared count. A method the session's roles may not Call is
 * BadUserAccessDenied.
 *
 * <p>Roles (Part 3, 4.9): {@link InMemoryNodeManagerBuilder#defaultPermissions} sets the namespace
 * default, {@link NodeOptions#permissions} and {@link NodeOptions#roles} (with their shorthands
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

    /** The standard BrowseName of every HistoricalDataConfiguration instance (Part 11, 5.2.2, Table 6). */
    public static final String HA_CONFIGURATION = "HA Configuration";

    private final String namespaceUri;
    private final NodeId root;
    private final List<NodeDeclaration> declarations;
    private final Map<String, NodeDeclaration> declarationsByPath;
    /** Filled once in startup, before the server takes requests; read only afterwards. */
    private final Map<String, NodeId> idsByPath = new HashMap<>();
    private final Map<NodeId, DeclaredMethod> methods = new HashMap<>();
    /** Filled in startup, and by {@link #onWrite} for nodes made at start by others (type instances). */
    private final Map<NodeId, WriteHandler> writeHandlers = new ConcurrentHashMap<>();
    private volatile int namespaceIndex = -1;

    InMemoryNodeManager(String namespaceUri, NodeId root, Map<String, NodeDeclaration> declarations,
            boolean nonBlocking, NodePermissions defaultPermissions) {
        super(List.of(namespaceUri), new NodeStore(declarations.size() * 2), nonBlocking);
        this.namespaceUri = namespaceUri;
        this.root = root;
        this.declarations = List.copyOf(declarations.values());
        this.declarationsByPath = new HashMap<>(declarations);
        if (defaultPermissions != null) {
            store().setDefaultPermissions(defaultPermissions);
        }
    }

    /** A builder of the nodes of the namespace {@code namespaceUri}. */
    public static InMemoryNodeManagerBuilder builder(String namespaceUri) {
        return new InMemoryNodeManagerBuilder(namespaceUri);
    }

    public String namespaceUri() {
        return namespaceUri;
    }

    /** Its nodes may be added and deleted through the NodeManagement services (Part 4, 5.7). */
    @Override
    public boolean acceptsNodeManagement() {
        return true;
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
        new DeclaredNodeFactory(store(), ns, namespaces, declarations.size(), idsByPath, methods, writeHandlers)
                .create(declarations, declarationsByPath, root);
        namespaceIndex = ns;
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
        DeclaredMethod method = methods.get(operation.methodId());
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

    /** A method of this manager: the object it belongs to, its arguments and its code. */
    record DeclaredMethod(NodeId owner, Argument[] inputs, Argument[] outputs, MethodHandler handler) {
    }
}
