package dev.opcua.stack.server;

import dev.opcua.stack.server.audit.AuditLog;
import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.generic.GenericStructureCodec;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.core.types.structured.BuildInfo;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.alarms.Condition;
import dev.opcua.stack.server.alarms.ConditionManager;
import dev.opcua.stack.server.history.aggregate.AggregateFunction;
import dev.opcua.stack.server.namespace0.AggregateFunctionsFolders;
import dev.opcua.stack.server.namespace0.HistoryCapabilitiesObject;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import dev.opcua.stack.server.namespace0.Namespace0NodeManager;
import dev.opcua.stack.server.namespace0.ServerCapabilitiesObject;
import dev.opcua.stack.server.namespace0.ServerDiagnosticsObject;
import dev.opcua.stack.server.namespace0.ServerObject;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodes.StructureCodecSource;
import dev.opcua.stack.server.nodeset.ImportedModel;
import dev.opcua.stack.server.nodeset.ImportedNodeManager;
import dev.opcua.stack.server.nodeset.InstantiatesTypes;
import dev.opcua.stack.server.nodeset.ModelRegistry;
import dev.opcua.stack.server.nodeset.NodeSetImporter;
import dev.opcua.stack.server.nodeset.NodeSetSource;
import dev.opcua.stack.server.nodeset.TypeInstantiator;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.services.history.HistorySettings;
import dev.opcua.stack.server.services.view.ReferenceTypeTree;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.EventTypeTree;
import dev.opcua.stack.server.subscriptions.events.ModelChanges;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import dev.opcua.stack.server.subscriptions.items.DataChangeBroker;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;

/**
 * The address space of a server as its configuration makes it when the server is built: namespace 0
 * from the standard nodeset with the live Server object (Part 5, 6.3.1), ServerCapabilities with the
 * operation limits (Part 5, 6.3.2), HistoryServerCapabilities and the aggregates with a history store
 * (Part 11, 5.4.2; Part 13, 5.2), ServerDiagnostics (Part 5, 6.3.3); the application's node managers with
 * the DefaultRolePermissions of their namespaces (Part 3, 5.2.9); the event types and notifiers (Part 3,
 * 4.7) and the {@link ConditionManager}s attached to them (Part 9). {@link #start()} imports the NodeSet2
 * files and starts the node managers.
 */
final class ServerAddressSpace {

    private static final NodeId AGGREGATES = NodeId.ns0(NodeIds.Aggregates);
    private static final NodeId SYSTEM_STATUS_CHANGE_EVENT_TYPE = NodeId.ns0(NodeIds.SystemStatusChangeEventType);
    /** A shutdown matters to every client: high, below the 1000 of a failure. */
    private static final int SYSTEM_STATUS_SEVERITY = 800;

    private final OpcUaServerConfig config;
    private final NamespaceTable namespaces;
    private final NodeManagers nodeManagers;
    private final dev.opcua.stack.server.redundancy.AddressSpaceFingerprint fingerprint;
    private final ServerObject serverObject;
    private final ServerDiagnosticsObject serverDiagnostics;
    private volatile ReferenceTypeTree referenceTypes;
    private final ModelRegistry models;
    private final DataChangeBroker dataChanges = new DataChangeBroker();
    private final EventNotifierRegistry eventNotifiers = new EventNotifierRegistry();
    private final EventTypeTree eventTypes;
    private final ModelChanges modelChanges;
    private final Namespace0NodeManager namespace0;
    private final List<ConditionManager> conditionManagers = new ArrayList<>();
    /** The audit trail (Part 4, 6.5); its thread runs while the server does. */
    private final AuditLog audit;

    /**
     * @throws InvalidSettingException when a namespace given default permissions has no node manager, or
     *         one that keeps no node store; when a namespace that should take NodeManagement changes has a
     *         node manager that does not accept them, or none while no NodeSet is to be imported
     */
    ServerAddressSpace(OpcUaServerConfig config) {
        this.config = config;
        this.namespaces = new NamespaceTable(config.applicationUri());
        this.nodeManagers = new NodeManagers(namespaces);
        NodeStore ns0 = Namespace0Loader.load();
        this.serverObject = new ServerObject(ns0, namespaces, config.applicationUri(),
                new BuildInfo(config.productUri(), config.manufacturerName(), config.applicationName(),
                        config.softwareVersion(), config.buildNumber(), DateTime.now()), config.auditing());
        new ServerCapabilitiesObject(ns0, config.operationLimits(), config.maxBrowseContinuationPoints())
                .publishCapacity(config.sessionSettings(), config.subscriptionSettings(),
                        config.monitoredItemSettings(), config.transportQuotas());
        if (config.historyStore() != null) {
            AggregateFunctionsFolders.advertise(ns0, EnumSet.allOf(AggregateFunction.class));
            HistorySettings history = config.historySettings();
            new HistoryCapabilitiesObject(ns0, history.maxNodesPerHistoryReadData(),
                    history.maxNodesPerHistoryUpdateData(), history.maxContinuationPoints(),
                    history.maxReturnDataValues());
        }
        this.serverDiagnostics = new ServerDiagnosticsObject(ns0);
        this.referenceTypes = ReferenceTypeTree.of(ns0);
        this.models = new ModelRegistry(ns0);
        this.eventTypes = EventTypeTree.of(ns0);
        this.modelChanges = new ModelChanges(eventNotifiers, eventTypes);
        this.audit = config.auditing() ? new AuditLog(config.applicationUri(), eventNotifiers,
                config.auditListeners(), config.auditCapacity()) : AuditLog.disabled();
        this.namespace0 = new Namespace0NodeManager(ns0);
        nodeManagers.register(namespace0);
        config.nodeManagers().forEach(nodeManagers::register);
        this.fingerprint = new dev.opcua.stack.server.redundancy.AddressSpaceFingerprint(namespaces,
                nodeManagers::managers);
        modelChanges.onReport(fingerprint::invalidate);
        if (config.watchesPartners() && nodeManagers.managerOf(NodeId.string(1, "")) == null) {
            nodeManagers.register(new dev.opcua.stack.server.redundancy.FingerprintNodeManager(
                    config.applicationUri(), fingerprint, ns0));
        }
        config.defaultPermissions().forEach(this::applyDefaultPermissions);
        if (config.nodeManagement().enabled()) {
            config.nodeManagement().checkNamespaces(nodeManagers, !config.nodeSets().isEmpty());
        }
        for (NodeManager manager : config.nodeManagers()) {
            if (manager instanceof ConditionManager conditions) {
                conditions.attach(eventNotifiers, nodeManagers);
                conditions.attachAudit(audit);
                conditionManagers.add(conditions);
            }
        }
    }

    /** Sets a namespace's DefaultRolePermissions on the store of the in-memory manager that owns it. */
    private void applyDefaultPermissions(String namespaceUri, NodePermissions permissions) {
        int index = namespaces.indexOf(namespaceUri);
        NodeManager owner = index < 0 ? null : nodeManagers.managerOf(NodeId.string(index, ""));
        if (owner == null) {
            throw new InvalidSettingException("opcUaServer.defaultPermissions", namespaceUri,
                    "must name a namespace a node manager owns; the namespaces are " + List.of(namespaces.toArray()));
        }
        if (!(owner instanceof NodeStoreNodeManager storeManager)) {
            throw new InvalidSettingException("opcUaServer.defaultPermissions", namespaceUri, "must name a namespace"
                    + " whose node manager keeps a node store; " + owner + " checks permissions itself");
        }
        storeManager.store().setDefaultPermissions(permissions);
    }

    /**
     * Imports the NodeSet2 files, starts the node managers, links their reverse references, creates the
     * instances of types they ask for ({@link InstantiatesTypes}) and starts the inputs of the conditions.
     * A failure while instantiating shuts the node managers down again.
     *
     * @return the codecs of the messages, see {@link #importNodeSets()}
     * @throws dev.opcua.stack.server.nodeset.NodeSetException naming file, line and node, or the models
     *     of a failed RequiredModel check
     */
    CodecRegistry start() {
        CodecRegistry codecs = importNodeSets();
        nodeManagers.startup();
        nodeManagers.linkReverseReferences();
        if (!config.nodeSets().isEmpty()) {
            referenceTypes = ReferenceTypeTree.of(nodeStores()); // with the imported reference types
        }
        try {
            for (NodeManager manager : nodeManagers.managers()) {
                if (manager instanceof InstantiatesTypes typed) {
                    typed.instantiateTypes(instances());
                }
            }
        } catch (RuntimeException e) {
            nodeManagers.shutdown(); // they started above; nothing else did yet
            throw e;
        }
        conditionManagers.forEach(ConditionManager::startInputs);
        return codecs;
    }

    /**
     * Imports the configured NodeSet2 files in order, each into a node manager of its own that owns
     * its models' namespaces, and returns the codecs of the messages: the standard ones plus a
     * generic codec for each structure the models define (Part 6, 5.2.6), those of the node managers
     * that define structures in code ({@link StructureCodecSource}), then the application's.
     */
    private CodecRegistry importNodeSets() {
        for (NodeSetSource source : config.nodeSets()) {
            ImportedModel model = NodeSetImporter.importNodeSet(source, namespaces, this::findNode, models);
            nodeManagers.register(new ImportedNodeManager(model, this::findNode));
        }
        List<UaCodec<?>> defined = new ArrayList<>();
        for (NodeManager manager : nodeManagers.managers()) {
            if (manager instanceof StructureCodecSource source) {
                defined.addAll(source.codecs(namespaces));
            }
        }
        if (models.layouts().isEmpty() && config.codecs().isEmpty() && defined.isEmpty()) {
            return CodecRegistry.standard();
        }
        CodecRegistry.Builder codecs = CodecRegistry.standard().toBuilder();
        models.layouts().forEach(layout -> codecs.add(new GenericStructureCodec(layout)));
        defined.forEach(codecs::add);
        config.codecs().forEach(codecs::add);
        return codecs.build();
    }

    /** A node of any in-memory node manager, or null. */
    private UaNode findNode(NodeId nodeId) {
        return nodeManagers.managerOf(nodeId) instanceof NodeStoreNodeManager manager
                ? manager.store().get(nodeId) : null;
    }

    private List<NodeStore> nodeStores() {
        List<NodeStore> stores = new ArrayList<>();
        for (NodeManager manager : nodeManagers.managers()) {
            if (manager instanceof NodeStoreNodeManager m) {
                stores.add(m.store());
            }
        }
        return stores;
    }

    /** Creates Objects of ObjectTypes with their mandatory children in the in-memory manager of their namespace. */
    TypeInstantiator instances() {
        return new TypeInstantiator(this::findNode,
                id -> nodeManagers.managerOf(id) instanceof NodeStoreNodeManager m ? m.store() : null,
                type -> referenceTypes.matches(type, AGGREGATES, true));
    }

    /** Every condition of the {@link ConditionManager}s registered (Part 9), for ConditionRefresh. */
    List<Condition> conditions() {
        List<Condition> all = new ArrayList<>();
        conditionManagers.forEach(manager -> all.addAll(manager.conditions()));
        return all;
    }

    /**
     * A SystemStatusChangeEventType event (Part 5, 6.4.30) on the Server object; skipped when namespace 0
     * lacks the type.
     */
    void reportSystemStatus(ServerState state, String message) {
        if (!eventTypes.isKnown(SYSTEM_STATUS_CHANGE_EVENT_TYPE)) {
            return;
        }
        eventNotifiers.report(EventNotifierRegistry.SERVER_OBJECT, UaEvent.builder(SYSTEM_STATUS_CHANGE_EVENT_TYPE)
                .sourceNode(EventNotifierRegistry.SERVER_OBJECT)
                .sourceName("Server")
                .message(message)
                .severity(SYSTEM_STATUS_SEVERITY)
                .field("SystemState", Variant.ofInt32(state.value()))
                .build());
    }

    NamespaceTable namespaces() {
        return namespaces;
    }

    NodeManagers nodeManagers() {
        return nodeManagers;
    }

    /** The ReferenceType hierarchy: namespace 0's, with the imported reference types once started. */
    ReferenceTypeTree referenceTypes() {
        return referenceTypes;
    }

    ModelRegistry models() {
        return models;
    }

    AuditLog audit() {
        return audit;
    }

    /** The nodes of namespace 0, for the objects that bring standard nodes to life (ServerRedundancy). */
    NodeStore namespace0Store() {
        return namespace0.store();
    }

    ServerObject serverObject() {
        return serverObject;
    }

    ServerDiagnosticsObject serverDiagnostics() {
        return serverDiagnostics;
    }

    Namespace0NodeManager namespace0() {
        return namespace0;
    }

    DataChangeBroker dataChanges() {
        return dataChanges;
    }

    EventNotifierRegistry eventNotifiers() {
        return eventNotifiers;
    }

    EventTypeTree eventTypes() {
        return eventTypes;
    }

    ModelChanges modelChanges() {
        return modelChanges;
    }

    /** The fingerprint of the address space a redundant set shares, recomputed after model changes. */
    dev.opcua.stack.server.redundancy.AddressSpaceFingerprint fingerprint() {
        return fingerprint;
    }
}
