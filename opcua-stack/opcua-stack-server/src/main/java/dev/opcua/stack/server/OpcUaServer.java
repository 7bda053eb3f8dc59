package dev.opcua.stack.server;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.server.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.services.ServiceObserver;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.server.transport.uasc.ServerChannelSecurity;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.core.types.structured.BuildInfo;
import dev.opcua.stack.core.types.structured.FindServersRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.DeleteEventDetails;
import dev.opcua.stack.core.types.structured.ReadAtTimeDetails;
import dev.opcua.stack.core.types.structured.ReadEventDetails;
import dev.opcua.stack.core.types.structured.ReadProcessedDetails;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.alarms.Condition;
import dev.opcua.stack.server.alarms.ConditionManager;
import dev.opcua.stack.server.alarms.ConditionRefresh;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.namespace0.AggregateFunctionsFolders;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import dev.opcua.stack.server.namespace0.Namespace0NodeManager;
import dev.opcua.stack.server.namespace0.HistoryCapabilitiesObject;
import dev.opcua.stack.server.namespace0.ServerCapabilitiesObject;
import dev.opcua.stack.server.namespace0.ServerDiagnosticsObject;
import dev.opcua.stack.server.namespace0.ShutdownCountdown;
import dev.opcua.stack.server.namespace0.ServerObject;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.RoleMapper;
import dev.opcua.stack.server.nodeset.ImportedModel;
import dev.opcua.stack.server.nodeset.ImportedNodeManager;
import dev.opcua.stack.server.nodeset.InstantiatesTypes;
import dev.opcua.stack.server.nodeset.ModelRegistry;
import dev.opcua.stack.server.nodes.StructureCodecSource;
import dev.opcua.stack.server.nodeset.NodeSetImporter;
import dev.opcua.stack.server.nodeset.NodeSetSource;
import dev.opcua.stack.server.nodeset.TypeInstantiator;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.generic.GenericStructureCodec;
import java.net.URL;
import java.nio.file.Path;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.services.RequestGuard;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.SessionManager;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.services.attribute.AttributeServices;
import dev.opcua.stack.server.services.method.CallServices;
import dev.opcua.stack.server.services.view.ReferenceTypeTree;
import dev.opcua.stack.server.services.view.RegisterNodes;
import dev.opcua.stack.server.services.view.TranslateBrowsePaths;
import dev.opcua.stack.server.services.view.ViewServices;
import dev.opcua.stack.server.history.HistoryRecorder;
import dev.opcua.stack.server.history.HistoryRecording;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.aggregate.AggregateConfiguration;
import dev.opcua.stack.server.history.aggregate.AggregateFunction;
import dev.opcua.stack.server.history.events.EventHistoryRecorder;
import dev.opcua.stack.server.services.history.AtTimeHistoryReader;
import dev.opcua.stack.server.services.history.DataHistoryUpdater;
import dev.opcua.stack.server.services.history.DeleteEventHistoryUpdater;
import dev.opcua.stack.server.services.history.DeleteRawHistoryUpdater;
import dev.opcua.stack.server.services.history.EventHistoryReader;
import dev.opcua.stack.server.services.history.HistoryReader;
import dev.opcua.stack.server.services.history.ProcessedHistoryReader;
import dev.opcua.stack.server.services.history.SteppedLookup;
import dev.opcua.stack.server.services.history.HistoryServices;
import dev.opcua.stack.server.services.history.HistorySettings;
import dev.opcua.stack.server.services.history.HistoryUpdater;
import dev.opcua.stack.server.services.history.RawHistoryReader;
import dev.opcua.stack.server.subscriptions.SubscriptionManager;
import dev.opcua.stack.server.subscriptions.SubscriptionServices;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.SubscriptionStatistics;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.EventSink;
import dev.opcua.stack.server.subscriptions.events.EventTypeTree;
import dev.opcua.stack.server.subscriptions.events.ModelChanges;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import dev.opcua.stack.server.subscriptions.items.DataChangeBroker;
import dev.opcua.stack.server.subscriptions.items.ItemCounters;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemContainerFactory;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemServices;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;
import dev.opcua.stack.server.transport.UaTcpServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An OPC UA server: UA TCP transport, the request pipeline, discovery, namespace 0 with the live
 * Server object, and the node managers of the application, answering Read, Write, Browse,
 * BrowseNext, TranslateBrowsePathsToNodeIds, RegisterNodes, UnregisterNodes and Call.
 *
 * <p>Built with {@link #builder()}, started with {@link #start()}, stopped with {@link #close()},
 * which owns and closes everything it started. The address-space services need an activated session
 * (Part 4, 5.6). Subscriptions, data-change and event monitored items (Part 4, 5.12 and 5.13) are
 * served with Publish requests parked in their session; node managers and the application report
 * events through {@link #events()}, and an announced shutdown is reported as a
 * SystemStatusChangeEventType event (Part 5, 6.4.30) on the Server object. Registered
 * {@link ConditionManager}s get the event sink and the node managers for their inputs; namespace 0
 * answers ConditionRefresh and ConditionRefresh2 (Part 9, 5.5.7 and 5.5.8) from their conditions.
 */
public final class OpcUaServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OpcUaServer.class);
    private static final NodeId AGGREGATES = NodeId.ns0(NodeIds.Aggregates);
    private static final NodeId SYSTEM_STATUS_CHANGE_EVENT_TYPE = NodeId.ns0(NodeIds.SystemStatusChangeEventType);
    /** A shutdown matters to every client: high, below the 1000 of a failure. */
    private static final int SYSTEM_STATUS_SEVERITY = 800;

    private final Builder config;
    private final NamespaceTable namespaces;
    private final NodeManagers nodeManagers;
    private final ServerObject serverObject;
    private final ServerDiagnosticsObject serverDiagnostics;
    private volatile ReferenceTypeTree referenceTypes;
    private final ModelRegistry models;
    private volatile DiscoveryServices discovery;
    private SessionManager sessions;
    private SubscriptionManager subscriptions;
    private MonitoredItemContainerFactory monitoredItems;
    private final DataChangeBroker dataChanges = new DataChangeBroker();
    private final EventNotifierRegistry eventNotifiers = new EventNotifierRegistry();
    private final EventTypeTree eventTypes;
    private final ModelChanges modelChanges;
    private final Namespace0NodeManager namespace0;
    private final List<ConditionManager> conditionManagers = new ArrayList<>();
    private ServiceDispatcher dispatcher;
    private HistoryRecorder historyRecorder;
    private EventHistoryRecorder eventHistoryRecorder;
    private volatile ViewServices viewServices;
    private volatile TranslateBrowsePaths translateBrowsePaths;
    private UaTcpServer transport;
    private volatile ServerChannelSecurity channelSecurity;
    private volatile Lifecycle lifecycle = Lifecycle.NOT_STARTED;

    private OpcUaServer(Builder config) {
        this.config = config;
        this.namespaces = new NamespaceTable(config.applicationUri);
        this.nodeManagers = new NodeManagers(namespaces);
        NodeStore ns0 = Namespace0Loader.load();
        this.serverObject = new ServerObject(ns0, namespaces, config.applicationUri,
                new BuildInfo(config.productUri, config.manufacturerName, config.applicationName,
                        config.softwareVersion, config.buildNumber, DateTime.now()));
        new ServerCapabilitiesObject(ns0, config.operationLimits, config.maxBrowseContinuationPoints)
                .publishCapacity(config.sessionSettings, config.subscriptionSettings, config.monitoredItemSettings,
                        config.transportQuotas);
        if (config.historyStore != null) {
            AggregateFunctionsFolders.advertise(ns0, EnumSet.allOf(AggregateFunction.class));
            HistorySettings history = config.historySettings;
            new HistoryCapabilitiesObject(ns0, history.maxNodesPerHistoryReadData(),
                    history.maxNodesPerHistoryUpdateData(), history.maxContinuationPoints(),
                    history.maxReturnDataValues());
        }
        this.serverDiagnostics = new ServerDiagnosticsObject(ns0);
        this.referenceTypes = ReferenceTypeTree.of(ns0);
        this.models = new ModelRegistry(ns0);
        this.eventTypes = EventTypeTree.of(ns0);
        this.modelChanges = new ModelChanges(eventNotifiers, eventTypes);
        this.namespace0 = new Namespace0NodeManager(ns0);
        nodeManagers.register(namespace0);
        config.nodeManagers.forEach(nodeManagers::register);
        config.defaultPermissions.forEach(this::applyDefaultPermissions);
        for (NodeManager manager : config.nodeManagers) {
            if (manager instanceof ConditionManager conditions) {
                conditions.attach(eventNotifiers, nodeManagers);
                conditionManagers.add(conditions);
            }
        }
    }

    /** Sets a namespace's DefaultRolePermissions on the store of the in-memory manager that owns it. */
    private void applyDefaultPermissions(String namespaceUri, NodePermissions permissions) {
        int index = namespaces.indexOf(namespaceUri);
        NodeManager owner = index < 0 ? null : nodeManagers.managerOf(NodeId.string(index, ""));
        if (owner == null) {
            throw new IllegalStateException("default permissions for namespace " + namespaceUri
                    + ": no node manager owns it; the namespaces are " + List.of(namespaces.toArray()));
        }
        if (!(owner instanceof NodeStoreNodeManager storeManager)) {
            throw new IllegalStateException("default permissions for namespace " + namespaceUri + ": its node manager "
                    + owner + " keeps no node store and checks permissions itself");
        }
        storeManager.store().setDefaultPermissions(permissions);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Imports the configured NodeSet2 files in order, each into a node manager of its own that owns
     * its models' namespaces, and returns the codecs of the messages: the standard ones plus a
     * generic codec for each structure the models define (Part 6, 5.2.6), those of the node managers
     * that define structures in code ({@link StructureCodecSource}), then the application's.
     *
     * @throws dev.opcua.stack.server.nodeset.NodeSetException naming file, line and node, or the
     *     models of a failed RequiredModel check
     */
    private CodecRegistry importNodeSets() {
        for (NodeSetSource source : config.nodeSets) {
            ImportedModel model = NodeSetImporter.importNodeSet(source, namespaces, this::findNode, models);
            nodeManagers.register(new ImportedNodeManager(model, this::findNode));
        }
        List<dev.opcua.stack.core.encoding.UaCodec<?>> defined = new ArrayList<>();
        for (NodeManager manager : nodeManagers.managers()) {
            if (manager instanceof StructureCodecSource source) {
                defined.addAll(source.codecs(namespaces));
            }
        }
        if (models.layouts().isEmpty() && config.codecs.isEmpty() && defined.isEmpty()) {
            return CodecRegistry.standard();
        }
        CodecRegistry.Builder codecs = CodecRegistry.standard().toBuilder();
        models.layouts().forEach(layout -> codecs.add(new GenericStructureCodec(layout)));
        defined.forEach(codecs::add);
        config.codecs.forEach(codecs::add);
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

    /**
     * Creates Objects of ObjectTypes (imported or standard) with their mandatory children, into the
     * in-memory node manager that owns the new object's namespace. Use it once the server started.
     */
    public TypeInstantiator instances() {
        return new TypeInstantiator(this::findNode,
                id -> nodeManagers.managerOf(id) instanceof NodeStoreNodeManager m ? m.store() : null,
                type -> referenceTypes.matches(type, AGGREGATES, true));
    }

    /** The information models of the address space: namespace 0 and the imported NodeSet2 files. */
    public ModelRegistry models() {
        return models;
    }

    /**
     * Starts the node managers, the request pipeline and the transport.
     *
     * @throws IllegalStateException when binding fails, with the cause
     */
    public synchronized OpcUaServer start() {
        if (transport != null) {
            throw new IllegalStateException("the server was already started");
        }
        ServerChannelSecurity channelSecurity = config.channelSecurity();
        this.channelSecurity = channelSecurity;
        CodecRegistry codecs = importNodeSets();
        nodeManagers.startup();
        nodeManagers.linkReverseReferences();
        if (!config.nodeSets.isEmpty()) {
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
        SubscriptionStatistics subscriptionStatistics = new SubscriptionStatistics();
        monitoredItems = new MonitoredItemContainerFactory(nodeManagers, dataChanges, eventNotifiers, eventTypes,
                config.monitoredItemSettings, ItemCounters.of(subscriptionStatistics));
        subscriptions = SubscriptionManager.builder()
                .settings(config.subscriptionSettings)
                .statistics(subscriptionStatistics)
                .itemContainerFactory(monitoredItems)
                .build();
        ConditionRefresh refresh = new ConditionRefresh(subscriptions, eventNotifiers, this::conditions);
        namespace0.method(ConditionRefresh.CONDITION_REFRESH, refresh::call);
        namespace0.method(ConditionRefresh.CONDITION_REFRESH_2, refresh::call);
        SessionManager.Builder sessionBuilder = SessionManager.builder()
                .listener((session, deleteSubscriptions) -> {
                    subscriptions.sessionClosed(session, deleteSubscriptions);
                    ViewServices view = viewServices;
                    if (view != null) {
                        view.ownerClosed(session); // its continuation points go with it
                    }
                })
                .settings(config.sessionSettings)
                .identityValidator(config.identityValidator)
                .roleMapper(config.roleMapper)
                .applicationCertificates(channelSecurity.certificates());
        if (config.userCertificateValidator != null) {
            sessionBuilder.userCertificateValidator(config.userCertificateValidator);
        }
        sessions = sessionBuilder
                .discoveryEndpoints(() -> discovery)
                .maxRequestMessageSize(config.transportQuotas.maxMessageSize())
                .build();
        RequestGuard sessionRequired = (channel, header) -> sessions.resolve(channel, header);
        ServiceDispatcher.Builder services = ServiceDispatcher.builder()
                .encodingLimits(config.transportQuotas.encodingLimits())
                .codecRegistry(codecs)
                .settings(config.requestPool)
                .observer(config.serviceObserver)
                .discoveryOnlyOverNone(channelSecurity.discoveryOnly())
                .registerSync(GetEndpointsRequest.class, (channel, request) -> discovery.getEndpoints(request))
                .registerSync(FindServersRequest.class, (channel, request) -> discovery.findServers(request));
        sessions.registerWith(services);
        SubscriptionServices subscriptionServices = new SubscriptionServices(subscriptions, sessions::resolve,
                codecs, config.transportQuotas.encodingLimits());
        subscriptionServices.registerWith(services);
        services.publishParking(subscriptionServices.publishParking());
        new MonitoredItemServices(sessions::resolve, subscriptions, config.operationLimits.maxMonitoredItemsPerCall())
                .registerWith(services);
        OperationLimits limits = config.operationLimits;
        new AttributeServices(nodeManagers, sessionRequired, limits.maxNodesPerRead(), limits.maxNodesPerWrite())
                .registerWith(services);
        viewServices = new ViewServices(nodeManagers, sessionRequired, referenceTypes,
                config.maxBrowseContinuationPoints, limits.maxNodesPerBrowse());
        viewServices.registerWith(services);
        translateBrowsePaths = new TranslateBrowsePaths(nodeManagers, sessionRequired, referenceTypes,
                limits.maxNodesPerTranslateBrowsePathsToNodeIds(), config.maxBrowsePathElements);
        translateBrowsePaths.registerWith(services);
        new RegisterNodes(sessionRequired, limits.maxNodesPerRegisterNodes()).registerWith(services);
        new CallServices(nodeManagers, sessionRequired, limits.maxNodesPerMethodCall()).registerWith(services);
        if (config.historyStore != null) {
            historyServices(config).registerWith(services);
            historyRecorder = new HistoryRecorder(config.historyStore, nodeManagers, config.historyRecording);
            historyRecorder.start();
            if (!config.historyRecording.eventNotifiers().isEmpty()) {
                eventHistoryRecorder = new EventHistoryRecorder(config.historyStore, eventNotifiers, nodeManagers,
                        config.historyRecording);
                eventHistoryRecorder.start();
            }
        }
        dispatcher = services.build();
        serverDiagnostics.setSource(new ServerCounters(sessions, dispatcher));
        try {
            transport = UaTcpServer.builder()
                    .bindAddress(config.bindAddress)
                    .port(config.port)
                    .ioThreads(config.ioThreads)
                    .readsPerTurn(config.readsPerTurn)
                    .transportQuotas(config.transportQuotas)
                    .codecRegistry(codecs)
                    .endpointPaths(List.of(config.path))
                    .security(channelSecurity)
                    .requestListener(dispatcher)
                    .build()
                    .start();
        } catch (RuntimeException e) {
            dispatcher.close();
            if (eventHistoryRecorder != null) {
                eventHistoryRecorder.close();
            }
            if (historyRecorder != null) {
                historyRecorder.close();
            }
            sessions.close();
            subscriptions.close();
            monitoredItems.close();
            nodeManagers.shutdown();
            throw e;
        }
        List<String> urls = new ArrayList<>();
        for (String host : config.hostnames) {
            urls.add("opc.tcp://" + host + ":" + transport.port() + config.path);
        }
        discovery = discovery(urls, channelSecurity.certificate());
        // GetEndpoints and CreateSession present a replaced certificate from the moment it is in the slot
        channelSecurity.certificates().onReplace(next -> discovery = discovery(urls, next));
        lifecycle = Lifecycle.RUNNING;
        log.info("OPC UA server {} listening on {}", config.applicationUri, urls);
        return this;
    }

    /**
     * HistoryRead and HistoryUpdate over the configured store: raw reads, insert/replace/update and raw
     * deletes, and the readers and updaters added.
     */
    private HistoryServices historyServices(Builder config) {
        HistoryServices.Builder history = HistoryServices.builder()
                .nodeManagers(nodeManagers)
                .sessions(sessions::resolve)
                .settings(config.historySettings)
                .reader(new RawHistoryReader(config.historyStore))
                .updater(new DataHistoryUpdater(config.historyStore))
                .updater(new DeleteRawHistoryUpdater(config.historyStore));
        config.historyReaders.forEach(history::reader);
        // at-time and processed reads over the same store unless the application brought its own
        Set<Class<?>> kinds = new HashSet<>();
        config.historyReaders.forEach(reader -> kinds.add(reader.detailsType()));
        // stepped or sloped as each variable's HistoricalDataConfiguration says (Part 11, 5.2.2)
        SteppedLookup stepped = new SteppedLookup(nodeManagers);
        if (!kinds.contains(ReadAtTimeDetails.class)) {
            history.reader(new AtTimeHistoryReader(config.historyStore, AggregateConfiguration.DEFAULT, stepped));
        }
        if (!kinds.contains(ReadProcessedDetails.class)) {
            history.reader(new ProcessedHistoryReader(config.historyStore, AggregateConfiguration.DEFAULT, stepped));
        }
        if (!kinds.contains(ReadEventDetails.class)) {
            history.reader(new EventHistoryReader(config.historyStore, eventTypes));
        }
        config.historyUpdaters.forEach(history::updater);
        if (config.historyUpdaters.stream().noneMatch(updater -> updater.detailsType() == DeleteEventDetails.class)) {
            history.updater(new DeleteEventHistoryUpdater(config.historyStore));
        }
        return history.build();
    }

    /** The discovery services over the endpoint URLs, presenting {@code certificate}. */
    private DiscoveryServices discovery(List<String> urls, ApplicationCertificate certificate) {
        DiscoveryServices.Builder discoveryBuilder = DiscoveryServices.builder()
                .application(config.applicationUri, config.productUri, config.applicationName)
                .endpointUrls(urls)
                .security(channelSecurity.endpoints(), certificate);
        if (config.userTokenPolicies != null) {
            discoveryBuilder.userTokenPolicies(config.userTokenPolicies);
        } else {
            discoveryBuilder.userTokenTypes(config.userTokenTypes);
        }
        return discoveryBuilder.build();
    }

    /**
     * Replaces the application instance certificate while the server runs (a renewed certificate): new
     * secure channels, GetEndpoints and CreateSession use it from now on; open channels keep the one they
     * were opened with, and sessions created before still activate (Part 4, 5.6.3 proofs are checked
     * against the previous certificate too).
     *
     * @throws IllegalStateException when the server is not running
     * @throws IllegalArgumentException when the certificate does not carry the server's ApplicationUri
     *         (Part 4, 6.1.3), or the server was started without a certificate (None only)
     */
    public void replaceApplicationCertificate(ApplicationCertificate certificate) {
        ServerChannelSecurity current = channelSecurity;
        if (current == null || lifecycle != Lifecycle.RUNNING) {
            throw new IllegalStateException("the server is not running");
        }
        try {
            PkiCertificateValidator.checkApplicationUri(certificate.certificate(), config.applicationUri);
        } catch (UaException e) {
            throw new IllegalArgumentException("the new application certificate " + certificate
                    + " does not fit this server: " + e.getMessage(), e);
        }
        current.certificates().replace(certificate);
        log.info("OPC UA server {}: application certificate replaced by {}", config.applicationUri, certificate);
    }

    /** Where a server is in its life: built, started, closed. */
    public enum Lifecycle {
        /** Built; {@link #start()} not called or failed. */
        NOT_STARTED,
        /** {@link #start()} succeeded and {@link #close()} has not begun. */
        RUNNING,
        /** {@link #close()} began after a successful start. */
        STOPPED
    }

    /** Where the server is in its life. */
    public Lifecycle lifecycle() {
        return lifecycle;
    }

    /** Whether {@link #start()} succeeded and {@link #close()} has not begun. */
    public boolean isRunning() {
        return lifecycle == Lifecycle.RUNNING;
    }

    /** The endpoints offered (Part 4, 5.4.4 GetEndpoints), each (policy, mode) per host name; empty before {@link #start()}. */
    public List<EndpointDescription> endpoints() {
        DiscoveryServices current = discovery;
        return current == null ? List.of() : current.endpoints();
    }

    /** The server's application instance certificate, or null before {@link #start()} or without one (None only). */
    public ApplicationCertificate applicationCertificate() {
        ServerChannelSecurity current = channelSecurity;
        return current == null ? null : current.certificate();
    }

    /** Live counts of the transport: open sockets and secure channels, bytes received and sent; null before {@link #start()}. */
    public ServerChannelCounters transportStatistics() {
        UaTcpServer current = transport;
        return current == null ? null : current.channelSettings().counters();
    }

    /** The transport limits the server was built with. */
    public TransportQuotas transportQuotas() {
        return config.transportQuotas;
    }

    /** The operation limits the services enforce. */
    public OperationLimits operationLimits() {
        return config.operationLimits;
    }

    /** The bounds of monitored items: sampling intervals and queue sizes. */
    public MonitoredItemSettings monitoredItemSettings() {
        return config.monitoredItemSettings;
    }

    /** The request queue and worker settings. */
    public RequestPoolSettings requestPool() {
        return config.requestPool;
    }

    /** The bound port (useful when configured with port 0). */
    public int port() {
        return transport.port();
    }

    /** The endpoint URL with the first configured host name. */
    public String endpointUrl() {
        return "opc.tcp://" + config.hostnames.get(0) + ":" + port() + config.path;
    }

    public NamespaceTable namespaces() {
        return namespaces;
    }

    public NodeManagers nodeManagers() {
        return nodeManagers;
    }

    /** The ReferenceType hierarchy of namespace 0, as Browse and TranslateBrowsePaths use it. */
    public ReferenceTypeTree referenceTypes() {
        return referenceTypes;
    }

    public ServerObject serverObject() {
        return serverObject;
    }

    /** Server.ServerDiagnostics of namespace 0. */
    public ServerDiagnosticsObject serverDiagnostics() {
        return serverDiagnostics;
    }

    /** The sessions, for their counters; null before {@link #start()}. */
    public SessionManager sessions() {
        return sessions;
    }

    /** The subscriptions, for their statistics; null before {@link #start()}. */
    public SubscriptionManager subscriptions() {
        return subscriptions;
    }

    /**
     * Where node managers that push value changes report them (Part 4, 5.12.1.2: sampling interval 0),
     * instead of being sampled; see {@link dev.opcua.stack.server.subscriptions.items.MonitoringAware}.
     */
    public DataChangeBroker dataChanges() {
        return dataChanges;
    }

    /**
     * Where node managers and the application report events (Part 3, 4.7; Part 4, 5.12.1): on the
     * notifier they belong to, which reaches the event items of that notifier, of the notifiers above
     * it and of the Server object.
     */
    public EventSink events() {
        return eventNotifiers;
    }

    /** The notifier hierarchy, for node managers to link their notifiers (HasNotifier) and skip unobserved events. */
    public EventNotifierRegistry eventNotifiers() {
        return eventNotifiers;
    }

    /**
     * Where node managers whose nodes come and go at run time report it: GeneralModelChangeEventType
     * events on the Server object (Part 3, 9.32), so that clients re-browse.
     */
    public ModelChanges modelChanges() {
        return modelChanges;
    }

    /** Every condition of the {@link ConditionManager}s registered (Part 9), for ConditionRefresh. */
    public List<Condition> conditions() {
        List<Condition> all = new ArrayList<>();
        conditionManagers.forEach(manager -> all.addAll(manager.conditions()));
        return all;
    }

    /** The event types of namespace 0, where node managers register their own event types. */
    public EventTypeTree eventTypes() {
        return eventTypes;
    }

    /**
     * The recorder of historizing variables, where node managers may {@link HistoryRecorder#record record}
     * values; null before {@link #start()} and without a history store.
     */
    public HistoryRecorder historyRecorder() {
        return historyRecorder;
    }

    /** The recorder of the event notifiers' history; null before {@link #start()} and when no notifier is recorded. */
    public EventHistoryRecorder eventHistoryRecorder() {
        return eventHistoryRecorder;
    }

    /** The request pipeline, for its statistics; null before {@link #start()}. */
    public ServiceDispatcher dispatcher() {
        return dispatcher;
    }

    /** Browse and BrowseNext, for their continuation-point count; null before {@link #start()}. */
    public ViewServices viewServices() {
        return viewServices;
    }

    /** TranslateBrowsePathsToNodeIds, for its count of refused paths; null before {@link #start()}. */
    public TranslateBrowsePaths translateBrowsePaths() {
        return translateBrowsePaths;
    }

    /**
     * Announces the shutdown (Part 5, 6.3.1): ServerState Shutdown, SecondsTillShutdown counting down
     * from {@code delay} once a second and ShutdownReason, so that clients can leave in time; then
     * {@link #close()}. Reports a SystemStatusChangeEventType event with SystemState Shutdown on the
     * Server object first (Part 5, 6.4.30). Blocks the caller for the delay; an interrupt cuts the
     * countdown short.
     */
    public void close(Duration delay, String reason) {
        reportSystemStatus(ServerState.Shutdown, reason == null || reason.isEmpty()
                ? "the server is shutting down" : "the server is shutting down: " + reason);
        try (ShutdownCountdown countdown = ShutdownCountdown.start(serverObject, delay, reason)) {
            countdown.finished().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the shutdown countdown failed", e.getCause());
        }
        close();
    }

    /** A SystemStatusChangeEventType event on the Server object; skipped when namespace 0 lacks the type. */
    private void reportSystemStatus(ServerState state, String message) {
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

    /**
     * Sets ServerState to Shutdown (keeping the reason of an announced shutdown), then closes the
     * transport, the pipeline and the node managers.
     */
    @Override
    public synchronized void close() {
        if (lifecycle == Lifecycle.RUNNING) {
            lifecycle = Lifecycle.STOPPED;
        }
        if (serverObject.state() != ServerState.Shutdown) {
            serverObject.setState(ServerState.Shutdown, 0, LocalizedText.of("server stopped"));
        }
        if (transport != null) {
            transport.close();
            dispatcher.close();
            sessions.close();
            subscriptions.close();
            monitoredItems.close();
            if (eventHistoryRecorder != null) {
                eventHistoryRecorder.close();
            }
            if (historyRecorder != null) {
                historyRecorder.close();
            }
            nodeManagers.shutdown();
            transport = null;
            log.info("OPC UA server {} stopped", config.applicationUri);
        }
    }

    /** The configuration of an {@link OpcUaServer}. */
    public static final class Builder {
        private String applicationUri = "urn:dev.opcua:server";
        private String applicationName = "OPC UA server";
        private String productUri = "urn:dev.opcua:stack";
        private String manufacturerName = "dev.opcua";
        private String softwareVersion = "0.1.0-SNAPSHOT";
        private String buildNumber = "0";
        private String bindAddress = "0.0.0.0";
        private int port = 4840;
        private String path = "/";
        private List<String> hostnames = List.of("localhost");
        private TransportQuotas transportQuotas = TransportQuotas.DEFAULT;
        private RequestPoolSettings requestPool = RequestPoolSettings.DEFAULT;
        private ServiceObserver serviceObserver = ServiceObserver.NONE;
        private int ioThreads;
        private int readsPerTurn = 1;
        private OperationLimits operationLimits = OperationLimits.NONE;
        private int maxBrowseContinuationPoints = 10;
        private int maxBrowsePathElements = TranslateBrowsePaths.DEFAULT_MAX_PATH_ELEMENTS;
        private final List<NodeManager> nodeManagers = new ArrayList<>();
        private final List<NodeSetSource> nodeSets = new ArrayList<>();
        private final List<dev.opcua.stack.core.encoding.UaCodec<?>> codecs = new ArrayList<>();
        private SessionSettings sessionSettings = SessionSettings.DEFAULT;
        private IdentityValidator identityValidator = IdentityValidator.anonymousOnly();
        private RoleMapper roleMapper = RoleMapper.wellKnown();
        private final java.util.Map<String, NodePermissions> defaultPermissions = new java.util.LinkedHashMap<>();
        /** Explicit token policies of every endpoint, or null for policies generated from the token types. */
        private List<UserTokenPolicy> userTokenPolicies;
        private Set<UserTokenType> userTokenTypes = Set.of(UserTokenType.Anonymous);
        private SubscriptionSettings subscriptionSettings = SubscriptionSettings.DEFAULT;
        private MonitoredItemSettings monitoredItemSettings = MonitoredItemSettings.DEFAULT;
        private List<EndpointSecurity> endpointSecurity = List.of(EndpointSecurity.NONE);
        private ApplicationCertificate certificate;
        private PkiDirectory pki;
        private int certificateKeySize = CertificateBuilder.DEFAULT_KEY_SIZE;
        private Duration certificateValidity = CertificateBuilder.DEFAULT_VALIDITY;
        private ValidationOptions validationOptions = ValidationOptions.defaults();
        private CertificateValidator clientCertificateValidator;
        private CertificateValidator userCertificateValidator;
        private HistoryStore historyStore;
        private HistorySettings historySettings = HistorySettings.DEFAULT;
        private HistoryRecording historyRecording = HistoryRecording.DEFAULT;
        private final List<HistoryReader<?>> historyReaders = new ArrayList<>();
        private final List<HistoryUpdater<?>> historyUpdaters = new ArrayList<>();

        private Builder() {
        }

        /**
         * Offers Historical Access (Part 11) over {@code store}: HistoryRead with raw reads and the readers
         * added with {@link #historyReader}, HistoryUpdate of values (insert, replace, update, delete) and the
         * updaters added with {@link #historyUpdater}, and the recording of {@link #historyRecording}; without a store HistoryRead and HistoryUpdate answer
         * BadServiceUnsupported. The caller owns the store and closes it after the server.
         */
        public Builder history(HistoryStore store, HistorySettings settings) {
            historyStore = Objects.requireNonNull(store, "store");
            historySettings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /**
         * What is recorded into the {@link #history} store and how long it is kept: by default the variables
         * declared historizing, sampled each second, everything kept, no events; {@link
         * HistoryRecording#withEventNotifiers} adds the events of notifiers (read with ReadEventDetails).
         */
        public Builder historyRecording(HistoryRecording value) {
            historyRecording = Objects.requireNonNull(value, "historyRecording");
            return this;
        }

        /** A reader of another kind of HistoryReadDetails (at-time, processed, events), used with {@link #history}. */
        public Builder historyReader(HistoryReader<?> reader) {
            historyReaders.add(Objects.requireNonNull(reader, "reader"));
            return this;
        }

        /** An updater of another kind of HistoryUpdateDetails, used with {@link #history}. */
        public Builder historyUpdater(HistoryUpdater<?> updater) {
            historyUpdaters.add(Objects.requireNonNull(updater, "updater"));
            return this;
        }

        public Builder applicationUri(String value) {
            applicationUri = Objects.requireNonNull(value, "applicationUri");
            return this;
        }

        public Builder applicationName(String value) {
            applicationName = Objects.requireNonNull(value, "applicationName");
            return this;
        }

        public Builder productUri(String value) {
            productUri = Objects.requireNonNull(value, "productUri");
            return this;
        }

        public Builder buildInfo(String manufacturerName, String softwareVersion, String buildNumber) {
            this.manufacturerName = manufacturerName;
            this.softwareVersion = softwareVersion;
            this.buildNumber = buildNumber;
            return this;
        }

        public Builder bindAddress(String value) {
            bindAddress = Objects.requireNonNull(value, "bindAddress");
            return this;
        }

        /** TCP port, 0 for an ephemeral one. */
        public Builder port(int value) {
            if (value < 0 || value > 65_535) {
                throw new IllegalArgumentException("port must be 0..65535, was " + value);
            }
            port = value;
            return this;
        }

        /** Path of the endpoint URL, starting with '/'. */
        public Builder path(String value) {
            if (value == null || !value.startsWith("/")) {
                throw new IllegalArgumentException("path must start with '/', was " + value);
            }
            path = value;
            return this;
        }

        /** Host names of the endpoint URLs, the first one the default. */
        public Builder hostnames(List<String> values) {
            if (values == null || values.isEmpty()) {
                throw new IllegalArgumentException("hostnames must name at least one host");
            }
            hostnames = List.copyOf(values);
            return this;
        }

        public Builder transportQuotas(TransportQuotas value) {
            transportQuotas = Objects.requireNonNull(value, "transportQuotas");
            return this;
        }

        /** Worker threads (MinRequestThreadCount / MaxRequestThreadCount) and MaxQueuedRequestCount. */
        public Builder requests(int minThreads, int maxThreads, int maxQueued) {
            if (minThreads < 1 || maxThreads < minThreads || maxQueued < 1) {
                throw new IllegalArgumentException("need 1 <= minThreads <= maxThreads and maxQueued >= 1, was "
                        + minThreads + ", " + maxThreads + ", " + maxQueued);
            }
            RequestPoolSettings p = requestPool;
            requestPool = new RequestPoolSettings(minThreads, maxThreads, maxQueued, p.maxPriorityQueued(),
                    p.workerKeepAlive(), p.maxRequestAge(), p.virtualThreads(), p.shutdownTimeout(),
                    p.inlineWhenIdle(), p.maxRunningPerSession(), p.maxRequestsPerRead());
            return this;
        }

        /**
         * Every limit of the request pipeline: threads, queue, priority lane, request age, virtual threads,
         * and whether small Reads and Writes may run on their event loop when no request waits.
         */
        public Builder requestPool(RequestPoolSettings value) {
            requestPool = Objects.requireNonNull(value, "requestPool");
            return this;
        }

        /** Who watches every service call (metrics, tracing); default {@link ServiceObserver#NONE}. */
        public Builder serviceObserver(ServiceObserver value) {
            serviceObserver = Objects.requireNonNull(value, "serviceObserver");
            return this;
        }

        /** Event loop threads of the transport; 0, the default, is one per processor. */
        public Builder ioThreads(int value) {
            if (value < 0) {
                throw new IllegalArgumentException("ioThreads must be 0 (one per processor) or more, was " + value);
            }
            ioThreads = value;
            return this;
        }

        /**
         * Socket reads per connection per turn of its event loop; default 1, so that a flooding client
         * cannot hold a loop from the other connections on it ({@link UaTcpServer.Builder#readsPerTurn}).
         */
        public Builder readsPerTurn(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("readsPerTurn must be at least 1, was " + value);
            }
            readsPerTurn = value;
            return this;
        }

        /** Operation limits of Read and Write (0 = none). */
        public Builder operationLimits(int maxNodesPerRead, int maxNodesPerWrite) {
            OperationLimits l = operationLimits;
            operationLimits = new OperationLimits(maxNodesPerRead, maxNodesPerWrite, l.maxNodesPerBrowse(),
                    l.maxNodesPerMethodCall(), l.maxNodesPerTranslateBrowsePathsToNodeIds(),
                    l.maxNodesPerRegisterNodes(), l.maxMonitoredItemsPerCall());
            return this;
        }

        /**
         * All operation limits (0 = none), enforced by the services and published under
         * Server.ServerCapabilities.OperationLimits.
         */
        public Builder operationLimits(OperationLimits value) {
            operationLimits = Objects.requireNonNull(value, "operationLimits");
            return this;
        }

        /**
         * Most elements of one RelativePath in TranslateBrowsePathsToNodeIds; a longer path is answered
         * BadQueryTooComplex (Part 4, 5.9.4.4). Default 64.
         */
        public Builder maxBrowsePathElements(int value) {
            if (value < 1) {
                throw new IllegalArgumentException("maxBrowsePathElements must be at least 1, was " + value);
            }
            maxBrowsePathElements = value;
            return this;
        }

        /** Operation limit of Browse (0 = none) and MaxBrowseContinuationPoints (per session). */
        public Builder browseLimits(int maxNodesPerBrowse, int maxBrowseContinuationPoints) {
            if (maxNodesPerBrowse < 0 || maxBrowseContinuationPoints < 1) {
                throw new IllegalArgumentException("need maxNodesPerBrowse >= 0 and maxBrowseContinuationPoints >= 1, was "
                        + maxNodesPerBrowse + " and " + maxBrowseContinuationPoints);
            }
            OperationLimits l = operationLimits;
            operationLimits = new OperationLimits(l.maxNodesPerRead(), l.maxNodesPerWrite(), maxNodesPerBrowse,
                    l.maxNodesPerMethodCall(), l.maxNodesPerTranslateBrowsePathsToNodeIds(),
                    l.maxNodesPerRegisterNodes(), l.maxMonitoredItemsPerCall());
            this.maxBrowseContinuationPoints = maxBrowseContinuationPoints;
            return this;
        }

        public Builder sessionSettings(SessionSettings value) {
            sessionSettings = Objects.requireNonNull(value, "sessionSettings");
            return this;
        }

        /**
         * Who may activate a session and the user token policies the endpoints offer for it
         * (anonymous only by default).
         */
        public Builder identities(IdentityValidator validator, List<UserTokenPolicy> policies) {
            if (policies == null || policies.isEmpty()) {
                throw new IllegalArgumentException("the endpoints need at least one user token policy");
            }
            identityValidator = Objects.requireNonNull(validator, "validator");
            userTokenPolicies = List.copyOf(policies);
            return this;
        }

        /**
         * The security policy and mode pairs offered as endpoints (Part 4, 7.14), SecurityPolicy None
         * only by default. Every pair other than None needs an application certificate: {@link
         * #certificate} or {@link #pki}. Deprecated policies are offered only when listed here.
         */
        public Builder security(List<EndpointSecurity> values) {
            if (values == null || values.isEmpty()) {
                throw new IllegalArgumentException("at least one security policy and mode is required");
            }
            endpointSecurity = List.copyOf(values);
            return this;
        }

        /** The application instance certificate and key; otherwise the PKI directory provides one. */
        public Builder certificate(ApplicationCertificate value) {
            certificate = Objects.requireNonNull(value, "certificate");
            return this;
        }

        /**
         * The PKI directory (Part 12, F.1 layout: own/, trusted/, issuers/, rejected/): the application
         * certificate is loaded from own/ or created there on first start, and client certificates are
         * validated against its trust lists, reread when they change.
         */
        public Builder pki(PkiDirectory value) {
            pki = Objects.requireNonNull(value, "pki");
            return this;
        }

        /** Key size and validity of a certificate created on first start; default 2048 bits, 5 years. */
        public Builder certificateParameters(int keySize, Duration validity) {
            if (keySize < 2048 || keySize > 8192 || keySize % 1024 != 0) {
                throw new IllegalArgumentException("keySize must be 2048, 3072, 4096 ... 8192 bits, was " + keySize);
            }
            if (validity == null || validity.isNegative() || validity.isZero()) {
                throw new IllegalArgumentException("validity must be positive, was " + validity);
            }
            certificateKeySize = keySize;
            certificateValidity = validity;
            return this;
        }

        /** Minimum key size, SHA-1 rejection and auto-accept of the PKI validator of client certificates. */
        public Builder certificateValidation(ValidationOptions value) {
            validationOptions = Objects.requireNonNull(value, "validationOptions");
            return this;
        }

        /** Replaces the PKI validator of client application certificates. */
        public Builder clientCertificateValidator(CertificateValidator value) {
            clientCertificateValidator = Objects.requireNonNull(value, "clientCertificateValidator");
            return this;
        }

        /** Validates the certificates of X.509 user identity tokens; without one, X.509 users are refused. */
        public Builder userCertificateValidator(CertificateValidator value) {
            userCertificateValidator = Objects.requireNonNull(value, "userCertificateValidator");
            return this;
        }

        /**
         * Who may activate a session, and the kinds of user token the endpoints offer; each endpoint
         * gets one token policy per kind, secured by its own policy (a None endpoint's user names and
         * certificates by the strongest policy offered), see {@link DiscoveryServices#userTokenPolicy}.
         */
        public Builder identityTypes(IdentityValidator validator, Set<UserTokenType> types) {
            if (types == null || types.isEmpty()) {
                throw new IllegalArgumentException("the endpoints need at least one user token type");
            }
            identityValidator = Objects.requireNonNull(validator, "validator");
            userTokenTypes = Set.copyOf(types);
            userTokenPolicies = null;
            return this;
        }

        /** Publishing intervals, keep-alive and lifetime counts, limits of subscriptions and publish requests. */
        public Builder subscriptionSettings(SubscriptionSettings value) {
            subscriptionSettings = Objects.requireNonNull(value, "subscriptionSettings");
            return this;
        }

        /** Sampling interval bounds and queue sizes of monitored items. */
        public Builder monitoredItemSettings(MonitoredItemSettings value) {
            monitoredItemSettings = Objects.requireNonNull(value, "monitoredItemSettings");
            return this;
        }

        /**
         * Which roles each user has (Part 3, 4.9); by default {@link RoleMapper#wellKnown()}:
         * Anonymous for anonymous users, AuthenticatedUser for the others.
         */
        public Builder roleMapper(RoleMapper value) {
            roleMapper = Objects.requireNonNull(value, "roleMapper");
            return this;
        }

        /**
         * The DefaultRolePermissions of a namespace (Part 3, 5.2.9): the permissions of its nodes that
         * have none of their own. The namespace must be owned by an in-memory node manager (an
         * {@link dev.opcua.stack.server.nodes.InMemoryNodeManager}, the annotation model's, namespace
         * 0); the server refuses to start otherwise.
         */
        public Builder defaultPermissions(String namespaceUri, NodePermissions permissions) {
            defaultPermissions.put(Objects.requireNonNull(namespaceUri, "namespaceUri"),
                    Objects.requireNonNull(permissions, "permissions"));
            return this;
        }

        /**
         * Adds a NodeSet2 file (a companion specification, Part 6, Annex F) to import at start, after
         * those added before it: a file's RequiredModels must be namespace 0 or loaded earlier.
         */
        public Builder nodeSet(NodeSetSource source) {
            nodeSets.add(Objects.requireNonNull(source, "source"));
            return this;
        }

        public Builder nodeSet(Path file) {
            return nodeSet(NodeSetSource.of(file));
        }

        public Builder nodeSet(URL url) {
            return nodeSet(NodeSetSource.of(url));
        }

        /** A nodeset read from a stream opened once at start; {@code name} appears in error messages. */
        public Builder nodeSet(String name, NodeSetSource.Opener opener) {
            return nodeSet(new NodeSetSource(name, opener));
        }

        /**
         * Adds the codec of a structure the application defines (a {@link GenericStructureCodec} of a
         * {@link dev.opcua.stack.core.encoding.generic.StructureLayout}, or a hand-written one), so that its
         * values are encoded when read and decoded when written; its DataType and encoding nodes belong in
         * the application's node manager.
         */
        public Builder codec(dev.opcua.stack.core.encoding.UaCodec<?> codec) {
            codecs.add(Objects.requireNonNull(codec, "codec"));
            return this;
        }

        /** Adds a node manager of the application. */
        public Builder nodeManager(NodeManager manager) {
            nodeManagers.add(Objects.requireNonNull(manager, "manager"));
            return this;
        }

        public OpcUaServer build() {
            boolean secured = endpointSecurity.stream().anyMatch(e -> e.policy() != SecurityPolicy.None);
            if (secured && certificate == null && pki == null) {
                throw new IllegalStateException("security policies " + endpointSecurity
                        + " need an application certificate: configure certificate(...) or pki(...)");
            }
            if (secured && clientCertificateValidator == null && pki == null) {
                throw new IllegalStateException("security policies " + endpointSecurity
                        + " need a client certificate validator: configure pki(...) or clientCertificateValidator(...)");
            }
            return new OpcUaServer(this);
        }

        /** The application certificate: given, or loaded from (created in) the PKI directory; null for None only. */
        ApplicationCertificate applicationCertificate() {
            if (certificate == null && pki != null) {
                certificate = pki.loadOrCreateApplicationCertificate(applicationUri, applicationName, hostnames,
                        certificateKeySize, certificateValidity);
            }
            return certificate;
        }

        /** What the secure channels accept, resolved at start. */
        ServerChannelSecurity channelSecurity() {
            boolean secured = endpointSecurity.stream().anyMatch(e -> e.policy() != SecurityPolicy.None);
            if (!secured) {
                return new ServerChannelSecurity(endpointSecurity, applicationCertificate(),
                        CertificateValidator.acceptAll());
            }
            CertificateValidator validator = clientCertificateValidator != null ? clientCertificateValidator
                    : new PkiCertificateValidator(pki, validationOptions);
            return new ServerChannelSecurity(endpointSecurity, applicationCertificate(), validator);
        }
    }
}
