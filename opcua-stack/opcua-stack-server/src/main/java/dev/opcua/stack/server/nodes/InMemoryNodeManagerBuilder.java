package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.server.nodes.InMemoryNodeManager.MethodHandler;
import dev.opcua.stack.server.nodes.NodeDeclaration.Kind;
import dev.opcua.stack.server.roles.NodePermissions;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Declares the folders, objects, variables and methods (Part 3, 5.5 to 5.7) of one namespace of an
 * {@link InMemoryNodeManager}; made by {@link InMemoryNodeManager#builder(String)}.
 *
 * <p>Nodes are named by a dotted path ("Line1.Speed"): the last segment is the BrowseName, the
 * rest names the parent, and the path is the string identifier of the NodeId unless an explicit
 * identifier is given. A node without a parent path hangs below the {@link #root root} (the Objects
 * folder by default) or below an explicit parent of another namespace. {@link #build()} checks
 * that every parent path is declared.
 */
public final class InMemoryNodeManagerBuilder {

    private static final Argument[] NO_ARGUMENTS = {};

    private final String namespaceUri;
    private final Map<String, NodeDeclaration> declarations = new LinkedHashMap<>();
    private NodeId root = NodeId.ns0(NodeIds.ObjectsFolder);
    private boolean callbacksNonBlocking;
    private NodePermissions defaultPermissions;

    InMemoryNodeManagerBuilder(String namespaceUri) {
        if (namespaceUri == null || namespaceUri.isEmpty()) {
            throw new IllegalArgumentException("namespaceUri must not be empty");
        }
        this.namespaceUri = namespaceUri;
    }

    /**
     * The permissions of the nodes that have none of their own (the namespace's
     * DefaultRolePermissions, Part 3, 5.2.9); every role may do everything unless set.
     */
    public InMemoryNodeManagerBuilder defaultPermissions(NodePermissions permissions) {
        defaultPermissions = Objects.requireNonNull(permissions, "permissions");
        return this;
    }

    /** The parent of nodes whose path has no parent segment (the Objects folder, i=85, by default). */
    public InMemoryNodeManagerBuilder root(NodeId parent) {
        root = Objects.requireNonNull(parent, "parent");
        return this;
    }

    public InMemoryNodeManagerBuilder folder(String path) {
        return folder(path, o -> { });
    }

    public InMemoryNodeManagerBuilder folder(String path, Consumer<ObjectOptions> options) {
        options.accept(new ObjectOptions(add(Kind.FOLDER, path)));
        return this;
    }

    public InMemoryNodeManagerBuilder object(String path) {
        return object(path, o -> { });
    }

    public InMemoryNodeManagerBuilder object(String path, Consumer<ObjectOptions> options) {
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
    public InMemoryNodeManagerBuilder nonBlockingCallbacks() {
        callbacksNonBlocking = true;
        return this;
    }

    /** Whether the manager to be built is non-blocking: no supplier or write handler, or they promise to be. */
    private boolean nonBlocking() {
        if (callbacksNonBlocking) {
            return true;
        }
        for (NodeDeclaration declaration : declarations.values()) {
            if (declaration.hasCallbacks()) {
                return false;
            }
        }
        return true;
    }

    /** A variable of a built-in data type. */
    public InMemoryNodeManagerBuilder variable(String path, BuiltinType type, Consumer<VariableOptions> options) {
        return variable(path, type.dataTypeId(), options);
    }

    /** A variable of any data type (a structure's value is an ExtensionObject). */
    public InMemoryNodeManagerBuilder variable(String path, NodeId dataType, Consumer<VariableOptions> options) {
        Objects.requireNonNull(dataType, "dataType");
        return variable(add(Kind.VARIABLE, path), new NodeDeclaration.Variable(dataType), options);
    }

    /**
     * A variable whose DataType is named by namespace URI ({@code nsu=...}), for a type of another node
     * manager whose namespace index is known only when the server starts (e.g. a
     * {@code RecordDataTypeManager}'s); the namespace must be the server's by then.
     */
    public InMemoryNodeManagerBuilder variable(String path, ExpandedNodeId dataType,
            Consumer<VariableOptions> options) {
        Objects.requireNonNull(dataType, "dataType");
        if (dataType.namespaceUri() == null) {
            return variable(path, dataType.nodeId(), options);
        }
        NodeDeclaration.Variable variable = new NodeDeclaration.Variable(BuiltinType.Variant.dataTypeId());
        variable.dataTypeByUri = dataType;
        return variable(add(Kind.VARIABLE, path), variable, options);
    }

    private InMemoryNodeManagerBuilder variable(NodeDeclaration declaration, NodeDeclaration.Variable variable,
            Consumer<VariableOptions> options) {
        options.accept(new VariableOptions(declaration, variable));
        declaration.variable = variable;
        return this;
    }

    /**
     * A method of the object (or folder) its path's parent names.
     *
     * @param inputs the InputArguments, null or empty for none
     * @param outputs the OutputArguments, null or empty for none
     */
    public InMemoryNodeManagerBuilder method(String path, Argument[] inputs, Argument[] outputs,
            MethodHandler handler) {
        return method(path, inputs, outputs, handler, m -> { });
    }

    /** A method with options, e.g. which roles may call it. */
    public InMemoryNodeManagerBuilder method(String path, Argument[] inputs, Argument[] outputs,
            MethodHandler handler, Consumer<MethodOptions> options) {
        NodeDeclaration declaration = add(Kind.METHOD, path);
        if (declaration.parentPath == null) {
            declarations.remove(path);
            throw new IllegalArgumentException("a method needs an object in its path: " + path);
        }
        declaration.inputs = inputs == null ? NO_ARGUMENTS : inputs.clone();
        declaration.outputs = outputs == null ? NO_ARGUMENTS : outputs.clone();
        declaration.handler = Objects.requireNonNull(handler, "handler");
        options.accept(new MethodOptions(declaration));
        return this;
    }

    private NodeDeclaration add(Kind kind, String path) {
        if (path == null || path.isEmpty() || path.startsWith(".") || path.endsWith(".") || path.contains("..")) {
            throw new IllegalArgumentException("a path is dot-separated names, was '" + path + "'");
        }
        NodeDeclaration declaration = new NodeDeclaration(kind, path);
        if (declarations.putIfAbsent(path, declaration) != null) {
            throw new IllegalArgumentException("a node with the path " + path + " is declared already");
        }
        return declaration;
    }

    /**
     * @throws IllegalArgumentException naming the path when a parent path is not declared, or a
     *     method's parent is not a folder or an object
     */
    public InMemoryNodeManager build() {
        for (NodeDeclaration declaration : declarations.values()) {
            if (declaration.parentPath == null) {
                continue;
            }
            NodeDeclaration parent = declarations.get(declaration.parentPath);
            if (parent == null) {
                throw new IllegalArgumentException(declaration.path + ": no node has the parent path "
                        + declaration.parentPath);
            }
            if (declaration.kind == Kind.METHOD && parent.kind != Kind.OBJECT && parent.kind != Kind.FOLDER) {
                throw new IllegalArgumentException(declaration.path + ": a method belongs to an object or a folder");
            }
        }
        return new InMemoryNodeManager(namespaceUri, root, declarations, nonBlocking(), defaultPermissions);
    }
}
