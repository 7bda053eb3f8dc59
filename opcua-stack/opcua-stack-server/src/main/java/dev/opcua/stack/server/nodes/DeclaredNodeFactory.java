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
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.history.aggregate.AggregateConfiguration;
import dev.opcua.stack.server.nodes.InMemoryNodeManager.DeclaredMethod;
import dev.opcua.stack.server.nodes.InMemoryNodeManager.WriteHandler;
import dev.opcua.stack.server.nodes.NodeDeclaration.Kind;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.WellKnownRole;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Creates the nodes of an {@link InMemoryNodeManager}'s declarations in its store once the namespace
 * index is known, and tells the manager what to serve: the NodeIds by path, the methods and the write
 * handlers.
 *
 * <p>References (Part 3, 7 and Part 5): a parent folder, or a parent of another namespace,
 * Organizes its child, any other parent HasComponent; methods are always components; folders have
 * the type definition FolderType, objects BaseObjectType unless declared otherwise, variables
 * BaseDataVariableType, the InputArguments / OutputArguments of a method (Part 3, 5.7) are
 * PropertyType properties holding {@link Argument} ExtensionObjects (left out when a method has
 * none), and a historizing variable has a HistoricalDataConfiguration (Part 11, 5.2.2). The server
 * adds the reverse of references into other namespaces afterwards.
 */
final class DeclaredNodeFactory {

    private static final NodeId ORGANIZES = NodeId.ns0(NodeIds.Organizes);
    private static final NodeId HAS_COMPONENT = NodeId.ns0(NodeIds.HasComponent);
    private static final NodeId HAS_PROPERTY = NodeId.ns0(NodeIds.HasProperty);
    private static final NodeId HAS_TYPE_DEFINITION = NodeId.ns0(NodeIds.HasTypeDefinition);
    private static final NodeId FOLDER_TYPE = NodeId.ns0(NodeIds.FolderType);
    private static final NodeId BASE_DATA_VARIABLE_TYPE = NodeId.ns0(NodeIds.BaseDataVariableType);
    private static final NodeId PROPERTY_TYPE = NodeId.ns0(NodeIds.PropertyType);
    private static final NodeId ARGUMENT_TYPE = NodeId.ns0(NodeIds.Argument);
    private static final NodeId HAS_HISTORICAL_CONFIGURATION = NodeId.ns0(NodeIds.HasHistoricalConfiguration);
    private static final NodeId HISTORICAL_DATA_CONFIGURATION_TYPE = NodeId.ns0(NodeIds.HistoricalDataConfigurationType);
    private static final NodeId AGGREGATE_CONFIGURATION_TYPE = NodeId.ns0(NodeIds.AggregateConfigurationType);
    private static final int ACCESS_READ = NodeStoreNodeManager.CURRENT_READ;
    private static final int ACCESS_WRITE = NodeStoreNodeManager.CURRENT_WRITE;

    private final NodeStore store;
    private final int ns;
    private final NamespaceTable namespaces;
    private final Map<String, NodeId> idsByPath;
    private final Map<NodeId, DeclaredMethod> methods;
    private final Map<NodeId, WriteHandler> writeHandlers;
    /**
     * References collected per node and added with one array copy each: a folder with many children
     * would otherwise copy its array once per child.
     */
    private final Map<NodeId, List<UaReference>> references;
    private final DateTime now = DateTime.now();

    /**
     * @param idsByPath filled with the NodeId of every declared path, and of the argument and history
     *     configuration nodes by their paths below it
     * @param methods filled with the methods by NodeId
     * @param writeHandlers filled with the write handlers of the variables by NodeId
     */
    DeclaredNodeFactory(NodeStore store, int ns, NamespaceTable namespaces, int declarationCount,
            Map<String, NodeId> idsByPath, Map<NodeId, DeclaredMethod> methods,
            Map<NodeId, WriteHandler> writeHandlers) {
        this.store = store;
        this.ns = ns;
        this.namespaces = namespaces;
        this.idsByPath = idsByPath;
        this.methods = methods;
        this.writeHandlers = writeHandlers;
        this.references = new HashMap<>(declarationCount * 4);
    }

    /**
     * Adds the nodes of the declarations to the store.
     *
     * @param byPath the same declarations by path, for the parents
     * @param root the parent of the nodes without a parent path or an explicit parent
     */
    void create(List<NodeDeclaration> declarations, Map<String, NodeDeclaration> byPath, NodeId root) {
        for (NodeDeclaration declaration : declarations) {
            idsByPath.put(declaration.path, declaration.nodeId(ns));
        }
        for (NodeDeclaration declaration : declarations) {
            create(declaration, byPath, root);
        }
        for (NodeDeclaration declaration : declarations) {
            applyPermissions(declaration, store.get(idsByPath.get(declaration.path)));
        }
        for (Map.Entry<NodeId, List<UaReference>> entry : references.entrySet()) {
            UaNode node = store.get(entry.getKey());
            if (node != null) {
                node.addReferences(entry.getValue().toArray(new UaReference[0]));
            }
        }
    }

    private void create(NodeDeclaration declaration, Map<String, NodeDeclaration> byPath, NodeId root) {
        NodeId id = idsByPath.get(declaration.path);
        NodeId parent = declaration.parent != null ? declaration.parent
                : declaration.parentPath == null ? root : idsByPath.get(declaration.parentPath);
        boolean organized = declaration.parent != null || declaration.parentPath == null
                || byPath.get(declaration.parentPath).kind == Kind.FOLDER;
        NodeId referenceType = declaration.kind != Kind.METHOD && organized ? ORGANIZES : HAS_COMPONENT;
        linkParent(parent, referenceType, id, declaration.parent == null && declaration.parentPath != null);
        QualifiedName browseName = QualifiedName.of(ns, declaration.browseName);
        LocalizedText description = declaration.description == null ? null
                : LocalizedText.of(declaration.description);
        LocalizedText displayName = LocalizedText.of(declaration.displayName == null ? declaration.browseName
                : declaration.displayName);
        switch (declaration.kind) {
            case FOLDER, OBJECT -> {
                store.add(new ObjectNode(id, browseName, displayName, description, 0, 0, declaration.eventNotifier));
                typeDefinition(id, declaration.kind == Kind.FOLDER ? FOLDER_TYPE : declaration.typeDefinition);
            }
            case VARIABLE -> {
                NodeDeclaration.Variable variable = declaration.variable;
                store.add(createVariable(id, browseName, displayName, description, variable,
                        dataType(declaration)));
                typeDefinition(id, BASE_DATA_VARIABLE_TYPE);
                if (variable.historizing) {
                    addHistoricalConfiguration(declaration.path, id, variable.stepped);
                }
            }
            case METHOD -> {
                store.add(new MethodNode(id, browseName, displayName, description, 0, 0, true, true));
                addArguments(declaration.path, id, "InputArguments", declaration.inputs);
                addArguments(declaration.path, id, "OutputArguments", declaration.outputs);
                methods.put(id, new DeclaredMethod(parent, declaration.inputs, declaration.outputs,
                        declaration.handler));
            }
        }
    }

    /**
     * Gives a node its own permission table when its options asked for one: the given table, or the
     * namespace default, narrowed by the roles named per permission. Done at startup, once the server
     * set the namespace default.
     */
    private void applyPermissions(NodeDeclaration declaration, UaNode node) {
        if (node == null || declaration.permissions == null && declaration.onlyRoles.isEmpty()) {
            return;
        }
        NodePermissions permissions = declaration.permissions != null ? declaration.permissions
                : store.defaultPermissions();
        for (Map.Entry<Permission, List<WellKnownRole>> only : declaration.onlyRoles.entrySet()) {
            permissions = permissions.withOnly(only.getKey(), only.getValue());
        }
        store.setPermissions(node, permissions);
    }

    /** Adds parent -> child (only when the parent is a node of this manager) and child -> parent. */
    private void linkParent(NodeId parent, NodeId type, NodeId child, boolean parentIsLocal) {
        if (parentIsLocal) {
            referencesOf(parent).add(UaReference.forward(type, child));
        }
        referencesOf(child).add(UaReference.inverse(type, parent));
    }

    private void typeDefinition(NodeId node, NodeId type) {
        referencesOf(node).add(UaReference.forward(HAS_TYPE_DEFINITION, type));
    }

    private List<UaReference> referencesOf(NodeId node) {
        return references.computeIfAbsent(node, k -> new ArrayList<>());
    }

    /** The variable's DataType; one named by namespace URI gets the server's index for it. */
    private NodeId dataType(NodeDeclaration declaration) {
        ExpandedNodeId byUri = declaration.variable.dataTypeByUri;
        if (byUri == null) {
            return declaration.variable.dataType;
        }
        int index = namespaces.indexOf(byUri.namespaceUri());
        if (index < 0) {
            throw new IllegalStateException(declaration.path + ": its DataType " + byUri + " is in a namespace "
                    + "the server does not have");
        }
        return byUri.nodeId().withNamespaceIndex(index);
    }

    private VariableNode createVariable(NodeId id, QualifiedName browseName, LocalizedText displayName,
            LocalizedText description, NodeDeclaration.Variable variable, NodeId dataType) {
        short access = (short) ((variable.readable ? ACCESS_READ : 0)
                | (variable.writable || variable.writeHandler != null ? ACCESS_WRITE : 0));
        VariableNode node = new VariableNode(id, browseName, displayName, description, 0, 0,
                DataValue.of(variable.value, StatusCode.GOOD, now, null),
                new ValueAttributes(dataType, variable.valueRank, variable.arrayDimensions), access, access,
                variable.minimumSamplingInterval, false, access);
        if (variable.historizing) {
            node.setHistoryAccess(true, variable.historyWritable);
        }
        Supplier<Variant> supplier = variable.supplier;
        if (supplier != null) {
            node.setValueSource(() -> supplied(supplier));
        }
        if (variable.writeHandler != null) {
            writeHandlers.put(id, variable.writeHandler);
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
    private void addHistoricalConfiguration(String path, NodeId variable, boolean stepped) {
        String name = InMemoryNodeManager.HA_CONFIGURATION;
        NodeId config = childId(variable, name);
        store.add(new ObjectNode(config, QualifiedName.of(0, name), LocalizedText.of(name), null, 0, 0, (short) 0));
        idsByPath.putIfAbsent(path + "." + name, config);
        linkParent(variable, HAS_HISTORICAL_CONFIGURATION, config, true);
        typeDefinition(config, HISTORICAL_DATA_CONFIGURATION_TYPE);
        addProperty(config, "Stepped", BuiltinType.Boolean, Variant.ofBoolean(stepped));
        NodeId aggregates = childId(config, "AggregateConfiguration");
        store.add(new ObjectNode(aggregates, QualifiedName.of(0, "AggregateConfiguration"),
                LocalizedText.of("AggregateConfiguration"), null, 0, 0, (short) 0));
        linkParent(config, HAS_COMPONENT, aggregates, true);
        typeDefinition(aggregates, AGGREGATE_CONFIGURATION_TYPE);
        AggregateConfiguration defaults = AggregateConfiguration.DEFAULT;
        addProperty(aggregates, "TreatUncertainAsBad", BuiltinType.Boolean,
                Variant.ofBoolean(defaults.treatUncertainAsBad()));
        addProperty(aggregates, "PercentDataBad", BuiltinType.Byte, Variant.ofByte(defaults.percentDataBad()));
        addProperty(aggregates, "PercentDataGood", BuiltinType.Byte, Variant.ofByte(defaults.percentDataGood()));
        addProperty(aggregates, "UseSlopedExtrapolation", BuiltinType.Boolean,
                Variant.ofBoolean(defaults.useSlopedExtrapolation()));
    }

    /** The id of a child of {@code parent} named {@code name}: "parent.name" in the parent's namespace. */
    private static NodeId childId(NodeId parent, String name) {
        return parent.idType() == IdType.String
                ? NodeId.string(parent.namespaceIndex(), parent.stringId() + "." + name)
                : NodeId.string(parent.namespaceIndex(), parent + "." + name);
    }

    /** A read-only scalar property of namespace 0's BrowseName {@code name}. */
    private void addProperty(NodeId owner, String name, BuiltinType type, Variant value) {
        NodeId id = childId(owner, name);
        store.add(new VariableNode(id, QualifiedName.of(0, name), LocalizedText.of(name), null, 0, 0,
                DataValue.of(value, StatusCode.GOOD, now, null),
                ValueAttributes.scalar(NodeId.ns0(type.typeId())), (short) ACCESS_READ, (short) ACCESS_READ, 0,
                false, ACCESS_READ));
        linkParent(owner, HAS_PROPERTY, id, true);
        typeDefinition(id, PROPERTY_TYPE);
    }

    /** The property is found by the path "method path.InputArguments" too. */
    private void addArguments(String path, NodeId method, String name, Argument[] arguments) {
        if (arguments.length == 0) {
            return;
        }
        NodeId id = childId(method, name);
        ExtensionObject[] values = new ExtensionObject[arguments.length];
        for (int i = 0; i < arguments.length; i++) {
            values[i] = ExtensionObject.of(arguments[i]);
        }
        store.add(new VariableNode(id, QualifiedName.of(0, name), LocalizedText.of(name), null, 0, 0,
                DataValue.of(Variant.ofArray(BuiltinType.ExtensionObject, values), StatusCode.GOOD, now, null),
                new ValueAttributes(ARGUMENT_TYPE, 1, new long[] {arguments.length}), (short) ACCESS_READ,
                (short) ACCESS_READ, 0, false, ACCESS_READ));
        idsByPath.putIfAbsent(path + "." + name, id);
        linkParent(method, HAS_PROPERTY, id, true);
        typeDefinition(id, PROPERTY_TYPE);
    }
}
