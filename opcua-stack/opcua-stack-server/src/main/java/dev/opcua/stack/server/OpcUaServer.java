package dev.opcua.stack.server;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.ServerStatusDataType;
import dev.opcua.stack.server.alarms.ConditionManager;
import dev.opcua.stack.server.history.HistoryRecorder;
import dev.opcua.stack.server.namespace0.ServerObject;
import dev.opcua.stack.server.namespace0.ShutdownCountdown;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodeset.ModelRegistry;
import dev.opcua.stack.server.nodeset.NodeSetExporter;
import dev.opcua.stack.server.nodeset.TypeInstantiator;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.redundancy.ClientPartnerReader;
import dev.opcua.stack.server.redundancy.PartnerMonitor;
import dev.opcua.stack.server.redundancy.RedundancyObject;
import dev.opcua.stack.server.redundancy.RedundancyPartner;
import dev.opcua.stack.server.redundancy.ServiceLevelCalculator;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.server.redundancy.ServiceLevelStatus;
import dev.opcua.stack.server.redundancy.SessionMirror;
import dev.opcua.stack.server.requests.RequestStatistics;
import dev.opcua.stack.server.services.view.ReferenceTypeTree;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.EventSink;
import dev.opcua.stack.server.subscriptions.events.EventTypeTree;
import dev.opcua.stack.server.subscriptions.events.ModelChanges;
import dev.opcua.stack.server.subscriptions.items.DataChangeBroker;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An OPC UA server: UA TCP transport, the request pipeline, discovery, namespace 0 with the live
 * Server object, and the node managers of the application, answering Read, Write, Browse,
 * BrowseNext, TranslateBrowsePathsToNodeIds, RegisterNodes, UnregisterNodes and Call.
 *
 * <p>Built with {@link #builder()}, whose {@link Builder#build() build()} freezes the settings into an
 * {@link OpcUaServerConfig} and assembles namespace 0 and the node managers; started with {@link #start()},
 * which wires sessions, subscriptions, service sets, history and transport; stopped with {@link #close()},
 * which closes everything the start opened. The address-space services need an activated session
 * (Part 4, 5.6). Subscriptions, data-change and event monitored items (Part 4, 5.12 and 5.13) are
 * served with Publish requests parked in their session; node managers and the application report
 * events through {@link #events()}, and an announced shutdown is reported as a
 * SystemStatusChangeEventType event (Part 5, 6.4.30) on the Server object. Registered
 * {@link ConditionManager}s get the event sink and the node managers for their inputs; namespace 0
 * answers ConditionRefresh and ConditionRefresh2 (Part 9, 5.5.7 and 5.5.8) from their conditions.
 * What the server does while it runs is read from {@link #statistics()}.
 */
public final class OpcUaServer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OpcUaServer.class);

    private final OpcUaServerConfig config;
    private final ServerAddressSpace addressSpace;
    private final ServerStatistics statistics;
    private final ServiceLevelCalculator serviceLevel;
    private final RedundancyObject redundancy;
    /** The parts of the last start, kept after close for their counters; null before the first start. */
    private volatile ServerAssembly started;
    private volatile Lifecycle lifecycle = Lifecycle.NOT_STARTED;
    /** Watches the partners of a Warm/Hot/HotAndMirrored set while running; null otherwise. */
    private volatile PartnerMonitor partnerMonitor;

    /**
     * @throws IllegalStateException when a namespace given default permissions has no in-memory node manager
     */
    OpcUaServer(OpcUaServerConfig config) {
        this.config = config;
        this.addressSpace = new ServerAddressSpace(config);
        this.statistics = new ServerStatisticsView(() -> started);
        ServerObject serverObject = addressSpace.serverObject();
        this.serviceLevel = new ServiceLevelCalculator(serverObject::state, this::requestQueueFill,
                config.serviceLevelContributors());
        serverObject.serviceLevelSource(serviceLevel::level);
        if (config.sessionStateStore() != null) { // HotAndMirrored: a store that fails lowers the level
            serviceLevel.addContributor(() -> {
                SessionMirror mirror = sessionMirror();
                return mirror == null ? ServiceLevelStatus.healthy() : mirror.assess();
            });
        }
        this.redundancy = new RedundancyObject(config.redundancy(), config.applicationUri(), serverObject::state,
                serviceLevel);
        redundancy.register(addressSpace.namespace0Store());
        if (config.watchesPartners()) { // a partner serving another address space lowers the level
            serviceLevel.addContributor(() -> {
                PartnerMonitor monitor = partnerMonitor;
                return monitor == null ? ServiceLevelStatus.healthy() : monitor.assess();
            });
        }
    }

    /** The ordinary request queue's fill, queued / MaxQueuedRequestCount; 0 before start. */
    private double requestQueueFill() {
        RequestStatistics requests = statistics.requests();
        if (requests == null || requests.queueCapacity() <= 0) {
            return 0;
        }
        return (double) requests.queued() / requests.queueCapacity();
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The configuration of an {@link OpcUaServer}: each setting is checked when it is set, and
     * {@link #build()} checks that they fit together, freezes them into an {@link OpcUaServerConfig} and
     * builds the server.
     */
    public static final class Builder extends OpcUaServerBuilder {
        Builder() {
        }
    }

    /**
     * Starts the node managers, the request pipeline and the transport.
     *
     * @throws IllegalStateException when the server runs already, or binding fails, with the cause
     */
    public synchronized OpcUaServer start() {
        if (lifecycle == Lifecycle.RUNNING) {
            throw new IllegalStateException("the server was already started");
        }
        ServerAssembly assembly = new ServerAssembly(config, addressSpace);
        started = assembly;
        lifecycle = Lifecycle.RUNNING;
        addressSpace.serverObject().setEstimatedReturnTime(null); // back: no return to wait for
        if (config.watchesPartners()) {
            partnerMonitor = startPartnerMonitor();
        }
        log.info("OPC UA server {} listening on {}", config.applicationUri(), assembly.endpointUrls());
        return this;
    }

    private PartnerMonitor startPartnerMonitor() {
        NamespaceTable namespaces = addressSpace.nodeManagers().namespaces();
        List<RedundancyPartner> partners = config.redundancy().partners();
        PartnerMonitor monitor = new PartnerMonitor(redundancy, config.partnerMonitor(), namespaces::toArray,
                addressSpace.fingerprint()::value, partner -> new ClientPartnerReader(partner,
                        config.applicationUri(), partners.indexOf(partner), config.partnerMonitor()));
        monitor.start();
        return monitor;
    }

    /**
     * Takes the server into maintenance while it runs (Part 4, 6.6.2.4.2): ServiceLevel 0 (the operator's
     * override, see {@link ServiceLevelCalculator#set}), so that redundancy-aware clients move to a partner and a
     * readiness probe on the ServiceLevel fails, and Server.EstimatedReturnTime (Part 5, 6.3.1) set to when it is
     * expected back. {@link #endMaintenance()} undoes both.
     *
     * @param expectedReturn when the server expects to serve again; null for "not known"
     */
    public void startMaintenance(String reason, java.time.Instant expectedReturn) {
        serviceLevel.set(ServiceLevelStatus.MAINTENANCE, reason == null || reason.isBlank() ? "maintenance" : reason);
        addressSpace.serverObject().setEstimatedReturnTime(expectedReturn);
        log.info("OPC UA server {} in maintenance ({}), expected back {}", config.applicationUri(), reason,
                expectedReturn == null ? "at an unknown time" : expectedReturn);
    }

    /** Ends {@link #startMaintenance}: the ServiceLevel override is cleared and EstimatedReturnTime is null again. */
    public void endMaintenance() {
        serviceLevel.clear();
        addressSpace.serverObject().setEstimatedReturnTime(null);
        log.info("OPC UA server {} back from maintenance", config.applicationUri());
    }

    /** Server.EstimatedReturnTime now (Part 5, 6.3.1); null when no return is planned. */
    public java.time.Instant estimatedReturnTime() {
        DateTime value = addressSpace.serverObject().estimatedReturnTime();
        return value.equals(DateTime.MIN_VALUE) ? null : value.toInstant();
    }

    /**
     * The monitor of this server's redundancy partners (RedundantServerArray, the address-space check), while it
     * runs in a Warm, Hot or HotAndMirrored set with the monitor enabled; else null.
     */
    public PartnerMonitor partnerMonitor() {
        return partnerMonitor;
    }

    private void closePartnerMonitor() {
        PartnerMonitor monitor = partnerMonitor;
        partnerMonitor = null;
        if (monitor != null) {
            monitor.close();
        }
    }

    /**
     * Replaces the application instance certificate while the server runs (a renewed certificate): new
     * secure channels, GetEndpoints and CreateSession use it from now on; open channels keep the one they
     * were opened with, and sessions created before still activate (Part 4, 5.6.3 proofs are checked
     * against the previous certificate too).
     *
     * @throws IllegalStateException when the server is not running
     * @throws IllegalArgumentException when the certificate does not carry the server's ApplicationUri
     *         (Part 4, 6.1.3), or the server holds no certificate of its type (an ECC curve no policy offers,
     *         or None only)
     */
    public void replaceApplicationCertificate(ApplicationCertificate certificate) {
        ServerAssembly current = started;
        if (current == null || lifecycle != Lifecycle.RUNNING) {
            throw new IllegalStateException("the server is not running");
        }
        try {
            PkiCertificateValidator.checkApplicationUri(certificate.certificate(), config.applicationUri());
        } catch (UaException e) {
            throw new IllegalArgumentException("the new application certificate " + certificate
                    + " does not fit this server: " + e.getMessage(), e);
        }
        current.channelSecurity().certificates().replace(certificate);
        log.info("OPC UA server {}: application certificate replaced by {}", config.applicationUri(), certificate);
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

    /** The configuration the server was built with. */
    public OpcUaServerConfig config() {
        return config;
    }

    /**
     * The counters of the running server (requests, sessions, transport, subscriptions, history), for
     * metrics and health; always the same object, which reads the counters when asked.
     */
    public ServerStatistics statistics() {
        return statistics;
    }

    /**
     * ServerStatus as clients read it (Part 5, 12.10): ServerState, StartTime, BuildInfo, and
     * SecondsTillShutdown and ShutdownReason during an announced shutdown.
     */
    public ServerStatusDataType serverStatus() {
        return addressSpace.serverObject().status();
    }

    /**
     * The ServiceLevel (Part 5, 6.3.1; Part 4, 6.6.2.4.2) as clients read it from Server.ServiceLevel: computed on
     * every read from ServerState, the request queue and the {@link Builder#serviceLevelContributor health checks};
     * {@link ServiceLevelCalculator#set set}, {@link ServiceLevelCalculator#degrade degrade} and {@link
     * ServiceLevelCalculator#clear clear} an operator's override here.
     */
    public ServiceLevelCalculator serviceLevel() {
        return serviceLevel;
    }

    /**
     * The Server object's ServerRedundancy (Part 5, 6.3.7 and 6.3.9): the redundant set, ServerUriArray, and
     * RedundantServerArray, where the {@link #partnerMonitor() partner monitor} reports what it sees of the partners.
     */
    public RedundancyObject redundancy() {
        return redundancy;
    }

    /**
     * What keeps this HotAndMirrored server's sessions in the shared store and takes a partner's over, with its
     * counters; null in the other modes and before {@link #start()}.
     */
    public SessionMirror sessionMirror() {
        ServerAssembly current = started;
        return current == null ? null : current.mirror();
    }

    /** The endpoints offered (Part 4, 5.4.4 GetEndpoints), each (policy, mode) per host name; empty before {@link #start()}. */
    public List<EndpointDescription> endpoints() {
        ServerAssembly current = started;
        return current == null ? List.of() : current.discovery().endpoints();
    }

    /**
     * The server's primary application instance certificate (the RSA one), or null before {@link #start()}
     * or without one (None only).
     */
    public ApplicationCertificate applicationCertificate() {
        ServerAssembly current = started;
        return current == null ? null : current.channelSecurity().certificate();
    }

    /** The server's application instance certificate of a type, or null before {@link #start()} or without one. */
    public ApplicationCertificate applicationCertificate(CertificateType type) {
        ServerAssembly current = started;
        return current == null ? null : current.channelSecurity().certificates().get(type);
    }

    /**
     * The bound port (useful when configured with port 0).
     *
     * @throws IllegalStateException before {@link #start()}
     */
    public int port() {
        ServerAssembly current = started;
        if (current == null) {
            throw new IllegalStateException("the server is not started");
        }
        return current.transport().port();
    }

    /** The endpoint URL with the first configured host name. */
    public String endpointUrl() {
        return "opc.tcp://" + config.hostnames().get(0) + ":" + port() + config.path();
    }

    /** The Server's NamespaceArray (Part 5, 6.3.1): namespace 0, the ApplicationUri, then the node managers' namespaces. */
    public NamespaceTable namespaces() {
        return addressSpace.namespaces();
    }

    /** The node managers of every namespace, as the services reach them. */
    public NodeManagers nodeManagers() {
        return addressSpace.nodeManagers();
    }

    /** The ReferenceType hierarchy of namespace 0, as Browse and TranslateBrowsePaths use it. */
    public ReferenceTypeTree referenceTypes() {
        return addressSpace.referenceTypes();
    }

    /** The information models of the address space: namespace 0 and the imported NodeSet2 files. */
    public ModelRegistry models() {
        return addressSpace.models();
    }

    /**
     * Writes the nodes of a namespace as a NodeSet2 document (Part 6, Annex F), see {@link NodeSetExporter}.
     *
     * @throws dev.opcua.stack.server.nodeset.NamespaceNotExportableException when the server has no such
     *     namespace or no in-memory node manager holds it
     */
    public void exportNodeSet(String namespaceUri, OutputStream out) throws IOException {
        new NodeSetExporter(addressSpace.nodeManagers(), addressSpace.models()).export(namespaceUri, out);
    }

    /**
     * Creates Objects of ObjectTypes (imported or standard) with their mandatory children, into the
     * in-memory node manager that owns the new object's namespace. Use it once the server started.
     */
    public TypeInstantiator instances() {
        return addressSpace.instances();
    }

    /**
     * Where node managers that push value changes report them (Part 4, 5.12.1.2: sampling interval 0),
     * instead of being sampled; see {@link dev.opcua.stack.server.subscriptions.items.MonitoringAware}.
     */
    public DataChangeBroker dataChanges() {
        return addressSpace.dataChanges();
    }

    /**
     * Where node managers and the application report events (Part 3, 4.7; Part 4, 5.12.1): on the
     * notifier they belong to, which reaches the event items of that notifier, of the notifiers above
     * it and of the Server object.
     */
    public EventSink events() {
        return addressSpace.eventNotifiers();
    }

    /** The notifier hierarchy, for node managers to link their notifiers (HasNotifier) and skip unobserved events. */
    public EventNotifierRegistry eventNotifiers() {
        return addressSpace.eventNotifiers();
    }

    /**
     * Where node managers whose nodes come and go at run time report it: GeneralModelChangeEventType
     * events on the Server object (Part 3, 9.32), so that clients re-browse.
     */
    public ModelChanges modelChanges() {
        return addressSpace.modelChanges();
    }

    /** The event types of namespace 0, where node managers register their own event types. */
    public EventTypeTree eventTypes() {
        return addressSpace.eventTypes();
    }

    /**
     * The recorder of historizing variables, where node managers may {@link HistoryRecorder#record record}
     * values; null before {@link #start()} and without a history store.
     */
    public HistoryRecorder historyRecorder() {
        ServerAssembly current = started;
        return current == null ? null : current.historyRecorder();
    }

    /**
     * Announces the shutdown (Part 5, 6.3.1): ServerState Shutdown, SecondsTillShutdown counting down
     * from {@code delay} once a second and ShutdownReason, so that clients can leave in time; then
     * {@link #close()}. Reports a SystemStatusChangeEventType event with SystemState Shutdown on the
     * Server object first (Part 5, 6.4.30). Blocks the caller for the delay; an interrupt cuts the
     * countdown short.
     */
    public void close(Duration delay, String reason) {
        close(delay, reason, null);
    }

    /**
     * {@link #close(Duration, String)} with a planned return: Server.EstimatedReturnTime (Part 5, 6.3.1) shows
     * {@code expectedReturn} during the countdown, so that clients know when to come back (a restart, an
     * upgrade).
     *
     * @param expectedReturn when the server is expected to run again; null for "not known"
     */
    public void close(Duration delay, String reason, java.time.Instant expectedReturn) {
        addressSpace.serverObject().setEstimatedReturnTime(expectedReturn);
        addressSpace.reportSystemStatus(ServerState.Shutdown, reason == null || reason.isEmpty()
                ? "the server is shutting down" : "the server is shutting down: " + reason);
        try (ShutdownCountdown countdown = ShutdownCountdown.start(addressSpace.serverObject(), delay, reason)) {
            countdown.finished().get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException e) {
            throw new IllegalStateException("the shutdown countdown failed", e.getCause());
        }
        close();
    }

    /**
     * Stops serving as a crash would, for failover tests: the session mirror writes nothing more (the shared store
     * keeps the last state written, for a partner to take over), then the transport and everything behind it
     * close without telling clients.
     */
    public synchronized void halt() {
        if (lifecycle != Lifecycle.RUNNING) {
            return;
        }
        lifecycle = Lifecycle.STOPPED;
        closePartnerMonitor();
        started.halt();
        log.info("OPC UA server {} halted", config.applicationUri());
    }

    /**
     * Sets ServerState to Shutdown (keeping the reason of an announced shutdown), then closes the
     * transport, the pipeline and the node managers.
     */
    @Override
    public synchronized void close() {
        boolean running = lifecycle == Lifecycle.RUNNING;
        if (running) {
            lifecycle = Lifecycle.STOPPED;
        }
        ServerObject serverObject = addressSpace.serverObject();
        if (serverObject.state() != ServerState.Shutdown) {
            serverObject.setState(ServerState.Shutdown, 0, LocalizedText.of("server stopped"));
        }
        if (running) {
            closePartnerMonitor();
            started.close();
            log.info("OPC UA server {} stopped", config.applicationUri());
        }
    }
}
