package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.server.nodes.InMemoryNodeManager.MethodHandler;
import dev.opcua.stack.server.nodes.InMemoryNodeManager.WriteHandler;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.WellKnownRole;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * One node declared with an {@link InMemoryNodeManagerBuilder}, as its options left it: the data that
 * {@link DeclaredNodeFactory} turns into nodes once the namespace index is known.
 */
final class NodeDeclaration {

    enum Kind { FOLDER, OBJECT, VARIABLE, METHOD }

    final Kind kind;
    final String path;
    /** The path without its last segment; null for a node below the root or an explicit parent. */
    final String parentPath;
    final String browseName;
    /** A String or a Long; null for the path as string identifier. */
    Object identifier;
    String displayName;
    String description;
    /** A parent of another namespace; only for a node without a parent path. */
    NodeId parent;
    NodeId typeDefinition = NodeId.ns0(NodeIds.BaseObjectType);
    short eventNotifier;
    /** Set once a variable's options have been applied. */
    Variable variable;
    Argument[] inputs;
    Argument[] outputs;
    MethodHandler handler;
    NodePermissions permissions;
    final Map<Permission, List<WellKnownRole>> onlyRoles = new EnumMap<>(Permission.class);

    NodeDeclaration(Kind kind, String path) {
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

    /** Whether reading or writing the node may call application code that could block. */
    boolean hasCallbacks() {
        return variable != null && (variable.supplier != null || variable.writeHandler != null);
    }

    /** What a variable declares besides the attributes every node has. */
    static final class Variable {
        final NodeId dataType;
        /** A DataType named by namespace URI, resolved at start; {@link #dataType} is then Variant. */
        ExpandedNodeId dataTypeByUri;
        int valueRank = -1;
        long[] arrayDimensions;
        boolean readable = true;
        boolean writable;
        double minimumSamplingInterval;
        Variant value = Variant.NULL;
        Supplier<Variant> supplier;
        WriteHandler writeHandler;
        boolean historizing;
        boolean stepped;
        boolean historyWritable;

        Variable(NodeId dataType) {
            this.dataType = dataType;
        }
    }
}
