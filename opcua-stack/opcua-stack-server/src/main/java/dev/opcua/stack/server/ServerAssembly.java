package dev.opcua.stack.server;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.ApplicationCertificates;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.types.structured.DeleteEventDetails;
import dev.opcua.stack.core.types.structured.FindServersRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.ReadAtTimeDetails;
import dev.opcua.stack.core.types.structured.ReadEventDetails;
import dev.opcua.stack.core.types.structured.ReadProcessedDetails;
import dev.opcua.stack.server.alarms.ConditionRefresh;
import dev.opcua.stack.server.audit.AuditLog;
import dev.opcua.stack.server.audit.AuditRecords;
import dev.opcua.stack.server.audit.AuditingCertificateValidator;
import dev.opcua.stack.server.certificates.ApplicationCertificateUpdates;
import dev.opcua.stack.server.certificates.ServerConfigurationObject;
import dev.opcua.stack.server.certificates.TrustListFile;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.history.HistoryRecorder;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.aggregate.AggregateConfiguration;
import dev.opcua.stack.server.history.events.EventHistoryRecorder;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.services.RequestGuard;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.services.attribute.AttributeServices;
import dev.opcua.stack.server.services.history.AtTimeHistoryReader;
import dev.opcua.stack.server.services.history.DataHistoryUpdater;
import dev.opcua.stack.server.services.history.DeleteEventHistoryUpdater;
import dev.opcua.stack.server.services.history.DeleteRawHistoryUpdater;
import dev.opcua.stack.server.services.history.EventHistoryReader;
import dev.opcua.stack.server.services.history.HistoryServices;
import dev.opcua.stack.server.services.history.ProcessedHistoryReader;
import dev.opcua.stack.server.services.history.RawHistoryReader;
import dev.opcua.stack.server.services.history.SteppedLookup;
import dev.opcua.stack.server.services.method.CallServices;
import dev.opcua.stack.server.services.nodemanagement.NodeManagementServices;
import dev.opcua.stack.server.services.view.RegisterNodes;
import dev.opcua.stack.server.services.view.TranslateBrowsePaths;
import dev.opcua.stack.server.services.view.ViewServices;
import dev.opcua.stack.server.redundancy.SessionMirror;
import dev.opcua.stack.server.session.SessionManager;
import dev.opcua.stack.server.session.SessionManagerBuilder;
import dev.opcua.stack.server.subscriptions.GetMonitoredItems;
import dev.opcua.stack.server.subscriptions.SubscriptionManager;
import dev.opcua.stack.server.subscriptions.SubscriptionServices;
import dev.opcua.stack.server.subscriptions.SubscriptionStatistics;
import dev.opcua.stack.server.subscriptions.durable.SetSubscriptionDurable;
import dev.opcua.stack.server.subscriptions.items.ItemCounters;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemContainerFactory;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemServices;
import dev.opcua.stack.server.transport.ReverseConnectSettings;
import dev.opcua.stack.server.transport.ReverseConnectTarget;
import dev.opcua.stack.server.transport.UaTcpServer;
import dev.opcua.stack.server.transport.uasc.ServerChannelSecurity;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one {@link OpcUaServer#start()} wires and starts, and {@link #close()} stops again, in this
 * order: the secure-channel security with the application certificate, the address space
 * ({@link ServerAddressSpace#start()}), monitored items and subscriptions (Part 4, 5.12 and 5.13) with
 * ConditionRefresh on namespace 0 (Part 9, 5.5.7), sessions (Part 4, 5.6), the service sets behind the
 * request pipeline (discovery, attribute, view, method, subscription, monitored item and, with a store,
 * history services of Part 4, 5.4 to 5.13 and Part 11) with the history recorders, the
 * ServerDiagnosticsSummary (Part 5, 12.9) and last the UA TCP transport (Part 6, 7.1). When the
 * transport cannot bind, everything started before it is closed again and the cause thrown.
 */
final class ServerAssembly {

    private final OpcUaServerConfig config;
    private final NodeManagers nodeManagers;
    private final ServerChannelSecurity channelSecurity;
    private final MonitoredItemContainerFactory monitoredItems;
    private final SubscriptionManager subscriptions;
    private final SessionManager sessions;
    /** Keeps sessions in the shared store of a HotAndMirrored set; null in the other modes. */
    private final SessionMirror mirror;
    /** Made after the sessions, whose closing drops its continuation points. */
    private volatile ViewServices viewServices;
    private final TranslateBrowsePaths translateBrowsePaths;
    private final HistoryRecorder historyRecorder;
    private final EventHistoryRecorder eventHistoryRecorder;
    private final ServiceDispatcher dispatcher;
    /** The server's audit trail, started with the assembly and closed after the services. */
    private final AuditLog audit;
    private final UaTcpServer transport;
    private final List<String> endpointUrls;
    /** Replaced with the application certificate; null until the transport is bound. */
    private volatile DiscoveryServices discovery;

    /**
     * Starts every part of a server over {@code addressSpace}.
     *
     * @throws IllegalStateException when binding fails, with the cause
     */
    ServerAssembly(OpcUaServerConfig config, ServerAddressSpace addressSpace) {
        this.config = config;
        this.nodeManagers = addressSpace.nodeManagers();
        this.audit = addressSpace.audit();
        audit.start();
        this.channelSecurity = channelSecurity(config, audit);
        CodecRegistry codecs = addressSpace.start();
        SubscriptionStatistics subscriptionStatistics = new SubscriptionStatistics();
        monitoredItems = new MonitoredItemContainerFactory(nodeManagers, addressSpace.dataChanges(),
                addressSpace.eventNotifiers(), addressSpace.eventTypes(), config.monitoredItemSettings(),
                ItemCounters.of(subscriptionStatistics));
        SubscriptionManager.Builder subscriptionsBuilder = SubscriptionManager.builder()
                .settings(config.subscriptionSettings())
                .statistics(subscriptionStatistics)
                .itemContainerFactory(monitoredItems);
        if (config.durableSubscriptionStore() != null) {
            subscriptionsBuilder.durableStore(config.durableSubscriptionStore());
        }
        subscriptions = subscriptionsBuilder.build();
        ConditionRefresh refresh = new ConditionRefresh(subscriptions, addressSpace.eventNotifiers(),
                addressSpace::conditions);
        addressSpace.namespace0().method(ConditionRefresh.CONDITION_REFRESH, refresh::call);
        addressSpace.namespace0().method(ConditionRefresh.CONDITION_REFRESH_2, refresh::call);
        new SetSubscriptionDurable(subscriptions).register(addressSpace.namespace0());
        new GetMonitoredItems(subscriptions).register(addressSpace.namespace0());
        startPushManagement(addressSpace);
        mirror = config.sessionStateStore() == null ? null : new SessionMirror(config.sessionStateStore(),
                config.redundancy().serverUri(), subscriptions, config.sessionMirrorSettings(), monitoredItems);
        SessionManagerBuilder sessionBuilder = SessionManager.builder()
                .listener((session, deleteSubscriptions) -> {
                    subscriptions.sessionClosed(session, deleteSubscriptions);
                    ViewServices view = viewServices;
                    if (view != null) {
                        view.ownerClosed(session); // its continuation points go with it
                    }
                })
                .settings(config.sessionSettings())
                .identityValidator(config.identityValidator())
                .roleMapper(config.roleMapper())
                .audit(audit)
                .applicationCertificates(channelSecurity.certificates());
        if (config.userCertificateValidator() != null) {
            sessionBuilder.userCertificateValidator(AuditingCertificateValidator.wrap(config.userCertificateValidator(),
                    audit, "System/ActivateSession"));
        }
        if (mirror != null) {
            sessionBuilder.takeover(mirror);
        }
        sessions = sessionBuilder
                .discoveryEndpoints(() -> discovery)
                .maxRequestMessageSize(config.transportQuotas().maxMessageSize())
                .build();
        RequestGuard sessionRequired = (channel, header) -> sessions.resolve(channel, header);
        ServiceDispatcher.Builder services = ServiceDispatcher.builder()
                .encodingLimits(config.transportQuotas().encodingLimits())
                .codecRegistry(codecs)
                .settings(config.requestPool())
                .observer(config.serviceObserver())
                .discoveryOnlyOverNone(channelSecurity.discoveryOnly())
                .registerSync(GetEndpointsRequest.class, (channel, request) -> discovery.getEndpoints(request))
                .registerSync(FindServersRequest.class, (channel, request) -> discovery.findServers(request));
        sessions.registerWith(services);
        SubscriptionServices subscriptionServices = new SubscriptionServices(subscriptions, sessions::resolve,
                codecs, config.transportQuotas().encodingLimits());
        subscriptionServices.registerWith(services);
        services.publishParking(subscriptionServices.publishParking());
        OperationLimits limits = config.operationLimits();
        new MonitoredItemServices(sessions::resolve, subscriptions, limits.maxMonitoredItemsPerCall())
                .registerWith(services);
        new AttributeServices(nodeManagers, sessionRequired, limits.maxNodesPerRead(), limits.maxNodesPerWrite(), audit)
                .registerWith(services);
        viewServices = new ViewServices(nodeManagers, sessionRequired, addressSpace.referenceTypes(),
                config.maxBrowseContinuationPoints(), limits.maxNodesPerBrowse());
        viewServices.registerWith(services);
        translateBrowsePaths = new TranslateBrowsePaths(nodeManagers, sessionRequired, addressSpace.referenceTypes(),
                limits.maxNodesPerTranslateBrowsePathsToNodeIds(), config.maxBrowsePathElements());
        translateBrowsePaths.registerWith(services);
        new RegisterNodes(sessionRequired, limits.maxNodesPerRegisterNodes()).registerWith(services);
        new CallServices(nodeManagers, sessionRequired, limits.maxNodesPerMethodCall(), audit).registerWith(services);
        if (config.nodeManagement().enabled()) {
            new NodeManagementServices(nodeManagers, sessionRequired, addressSpace::referenceTypes,
                    addressSpace.instances(), addressSpace.modelChanges(), addressSpace.models(), config.nodeManagement(),
                    limits.maxNodesPerNodeManagement(), audit).registerWith(services);
        }
        HistoryStore store = config.historyStore();
        if (store != null) {
            historyServices(addressSpace).registerWith(services);
        }
        historyRecorder = store == null ? null : startRecorder(store);
        eventHistoryRecorder = store == null || config.historyRecording().eventNotifiers().isEmpty() ? null
                : startEventRecorder(store, addressSpace);
        subscriptions.restoreDurable(); // Part 4, 6.8: before the transport binds, so a returning client finds them
        dispatcher = services.build();
        addressSpace.serverDiagnostics().setSource(new ServerCounters(sessions, dispatcher));
        try {
            UaTcpServer.Builder transportBuilder = UaTcpServer.builder();
            if (audit.enabled()) {
                transportBuilder.openSecureChannelObserver(audit.openSecureChannelObserver());
            }
            transport = transportBuilder
                    .bindAddress(config.bindAddress())
                    .port(config.port())
                    .ioThreads(config.ioThreads())
                    .readsPerTurn(config.readsPerTurn())
                    .transportQuotas(config.transportQuotas())
                    .codecRegistry(codecs)
                    .endpointPaths(List.of(config.path()))
                    .security(channelSecurity)
                    .requestListener(dispatcher)
                    .build()
                    .start();
        } catch (RuntimeException e) {
            closeBehindTransport();
            throw e;
        }
        List<String> urls = new ArrayList<>();
        for (String host : config.hostnames()) {
            urls.add("opc.tcp://" + host + ":" + transport.port() + config.path());
        }
        endpointUrls = List.copyOf(urls);
        discovery = newDiscovery();
        // GetEndpoints and CreateSession present a replaced certificate from the moment it is in the slot
        channelSecurity.certificates().onReplace(next -> discovery = newDiscovery());
        startReverseConnect(config);
        if (mirror != null) {
            mirror.start(sessions);
        }
    }

    /** The HotAndMirrored session mirror; null in the other modes. */
    SessionMirror mirror() {
        return mirror;
    }

    /**
     * Push certificate management on the ServerConfiguration object (Part 12, 7.10), when configured and the
     * server has a PKI directory and a certificate: changes land in the PKI directory, so they outlive a restart.
     */
    private void startPushManagement(ServerAddressSpace addressSpace) {
        // the DefaultApplicationGroup manages every certificate the server holds, one per type
        if (!config.pushManagement() || config.pki() == null || channelSecurity.certificates().types().isEmpty()) {
            return;
        }
        List<String> capabilities = new ArrayList<>(List.of("DA"));
        if (config.historyStore() != null) {
            capabilities.addAll(List.of("HD", "HE"));
        }
        ApplicationCertificateUpdates updates = new ApplicationCertificateUpdates(channelSecurity.certificates(),
                config.applicationUri(), config.applicationName(), config.pki());
        new ServerConfigurationObject(updates, new TrustListFile(config.pki(), config.maxTrustListSize()),
                config.pki(), capabilities).register(addressSpace.namespace0(), addressSpace.namespace0().store());
    }

    /** Dials the reverse-connect clients, once GetEndpoints can answer; the ReverseHello names the first endpoint. */
    private void startReverseConnect(OpcUaServerConfig config) {
        if (config.reverseConnectClients().isEmpty()) {
            return;
        }
        List<ReverseConnectTarget> targets = new ArrayList<>();
        for (String client : config.reverseConnectClients()) {
            targets.add(new ReverseConnectTarget(client, endpointUrls.get(0)));
        }
        transport.startReverseConnect(new ReverseConnectSettings(config.applicationUri(), targets,
                config.reverseConnectRetryInterval(), config.reverseConnectReadyConnections()));
    }

    /**
     * What the secure channels accept (Part 4, 5.5.2; Part 6, 6.7): the endpoints' policies and modes, the
     * application certificate given or loaded from (created in) the PKI directory, and the validator of
     * client certificates; a server offering None only accepts every client and may have no certificate.
     */
    private static ServerChannelSecurity channelSecurity(OpcUaServerConfig config, AuditLog audit) {
        ApplicationCertificates certificates = certificates(config);
        if (!config.secured()) {
            return new ServerChannelSecurity(config.endpointSecurity(), certificates, CertificateValidator.acceptAll());
        }
        CertificateValidator validator = config.clientCertificateValidator() != null
                ? config.clientCertificateValidator()
                : new PkiCertificateValidator(config.pki(), config.validationOptions());
        return new ServerChannelSecurity(config.endpointSecurity(), certificates,
                AuditingCertificateValidator.wrap(validator, audit, AuditRecords.SYSTEM_OPEN_SECURE_CHANNEL));
    }

    /**
     * The certificates given, and for each certificate type the offered policies need that none was given
     * for, the one loaded from (created in) the PKI directory: the RSA one always when there is a PKI
     * directory (None endpoints use it to secure user tokens), an ECC one per curve offered (Part 12, 7.8.4).
     */
    private static ApplicationCertificates certificates(OpcUaServerConfig config) {
        Map<CertificateType, ApplicationCertificate> byType = new EnumMap<>(CertificateType.class);
        for (ApplicationCertificate given : config.certificates()) {
            byType.put(given.type(), given);
        }
        if (config.pki() != null) {
            Set<CertificateType> needed = EnumSet.of(CertificateType.RSA_SHA256);
            for (EndpointSecurity pair : config.endpointSecurity()) {
                if (pair.policy().certificateType() != null) {
                    needed.add(pair.policy().certificateType());
                }
            }
            for (CertificateType type : needed) {
                byType.computeIfAbsent(type, t -> config.pki().loadOrCreateApplicationCertificate(t,
                        config.applicationUri(), config.applicationName(), config.hostnames(),
                        config.certificateKeySize(), config.certificateValidity()));
            }
        }
        return new ApplicationCertificates(byType.values());
    }

    /**
     * HistoryRead and HistoryUpdate (Part 4, 5.10.3 and 5.10.5) over the configured store: raw reads,
     * insert/replace/update and raw deletes, the readers and updaters added, and at-time, processed and
     * event reads and event deletes over the same store unless the application brought its own.
     */
    private HistoryServices historyServices(ServerAddressSpace addressSpace) {
        HistoryStore store = config.historyStore();
        HistoryServices.Builder history = HistoryServices.builder()
                .nodeManagers(nodeManagers)
                .sessions(sessions::resolve)
                .settings(config.historySettings())
                .reader(new RawHistoryReader(store))
                .updater(new DataHistoryUpdater(store))
                .updater(new DeleteRawHistoryUpdater(store));
        config.historyReaders().forEach(history::reader);
        Set<Class<?>> kinds = new HashSet<>();
        config.historyReaders().forEach(reader -> kinds.add(reader.detailsType()));
        // stepped or sloped as each variable's HistoricalDataConfiguration says (Part 11, 5.2.2)
        SteppedLookup stepped = new SteppedLookup(nodeManagers);
        if (!kinds.contains(ReadAtTimeDetails.class)) {
            history.reader(new AtTimeHistoryReader(store, AggregateConfiguration.DEFAULT, stepped));
        }
        if (!kinds.contains(ReadProcessedDetails.class)) {
            history.reader(new ProcessedHistoryReader(store, AggregateConfiguration.DEFAULT, stepped));
        }
        if (!kinds.contains(ReadEventDetails.class)) {
            history.reader(new EventHistoryReader(store, addressSpace.eventTypes()));
        }
        config.historyUpdaters().forEach(history::updater);
        if (config.historyUpdaters().stream().noneMatch(updater -> updater.detailsType() == DeleteEventDetails.class)) {
            history.updater(new DeleteEventHistoryUpdater(store));
        }
        return history.build();
    }

    /** Records the historizing variables into {@code store} (Part 11, 4.2). */
    private HistoryRecorder startRecorder(HistoryStore store) {
        HistoryRecorder recorder = new HistoryRecorder(store, nodeManagers, config.historyRecording());
        recorder.start();
        return recorder;
    }

    /** Records the events of the configured notifiers into {@code store} (Part 11, 5.2.4). */
    private EventHistoryRecorder startEventRecorder(HistoryStore store, ServerAddressSpace addressSpace) {
        EventHistoryRecorder recorder = new EventHistoryRecorder(store, addressSpace.eventNotifiers(), nodeManagers,
                config.historyRecording());
        recorder.start();
        return recorder;
    }

    /** The discovery services (Part 4, 5.4) over the endpoint URLs, presenting {@code certificate}. */
    private DiscoveryServices newDiscovery() {
        DiscoveryServices.Builder discoveryBuilder = DiscoveryServices.builder()
                .application(config.applicationUri(), config.productUri(), config.applicationName())
                .endpointUrls(endpointUrls)
                .security(channelSecurity.endpoints(), channelSecurity.certificates());
        if (config.userTokenPolicies() != null) {
            discoveryBuilder.userTokenPolicies(config.userTokenPolicies());
        } else {
            discoveryBuilder.userTokenTypes(config.userTokenTypes());
        }
        config.redundancy().partners().forEach(p -> discoveryBuilder.redundantServer(p.serverUri(), p.endpointUrl()));
        return discoveryBuilder.build();
    }

    /**
     * Stops what the constructor started: the transport first, so that no request arrives any more, then
     * the rest ({@link #closeBehindTransport()}). The parts stay readable for their counters.
     */
    void close() {
        transport.close();
        if (mirror != null) { // before the sessions close: they stay stored for a partner to take over
            mirror.close();
        }
        closeBehindTransport();
    }

    /** Stops as a crash would: the mirror writes nothing more, then everything closes. */
    void halt() {
        if (mirror != null) {
            mirror.abandon();
        }
        transport.close();
        closeBehindTransport();
    }

    /**
     * Closes the pipeline, sessions, subscriptions, monitored items and history recorders, the node
     * managers, whose values the others read to the end, and last the audit trail, which delivers what
     * they raised.
     */
    private void closeBehindTransport() {
        if (mirror != null) {
            mirror.abandon();
        }
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
        audit.close();
    }

    AuditLog audit() {
        return audit;
    }

    ServerChannelSecurity channelSecurity() {
        return channelSecurity;
    }

    /** The endpoint URLs, one per host name. */
    List<String> endpointUrls() {
        return endpointUrls;
    }

    DiscoveryServices discovery() {
        return discovery;
    }

    UaTcpServer transport() {
        return transport;
    }

    ServiceDispatcher dispatcher() {
        return dispatcher;
    }

    SessionManager sessions() {
        return sessions;
    }

    SubscriptionManager subscriptions() {
        return subscriptions;
    }

    ViewServices viewServices() {
        return viewServices;
    }

    TranslateBrowsePaths translateBrowsePaths() {
        return translateBrowsePaths;
    }

    /** Null without a history store. */
    HistoryRecorder historyRecorder() {
        return historyRecorder;
    }
}
