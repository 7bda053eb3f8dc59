package dev.opcua.stack.server;

import dev.opcua.stack.server.audit.AuditListener;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.history.HistoryRecording;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodeset.NodeSetSource;
import dev.opcua.stack.server.redundancy.RedundancySettings;
import dev.opcua.stack.server.redundancy.ServiceLevelContributor;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.RoleMapper;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.services.ServiceObserver;
import dev.opcua.stack.server.services.history.HistoryReader;
import dev.opcua.stack.server.services.history.HistorySettings;
import dev.opcua.stack.server.services.history.HistoryUpdater;
import dev.opcua.stack.server.services.nodemanagement.NodeManagementSettings;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The configuration of an {@link OpcUaServer} as {@link OpcUaServer.Builder#build()} froze it: every value
 * checked, every list copied, nothing to change afterwards. Read it with {@link OpcUaServer#config()}.
 *
 * <p>The values are those of the builder's methods of the same names; a value the builder leaves unset
 * reads as the default its method documents, or null where it says so (no history store, no certificate,
 * no PKI directory, no replacement validator).
 */
public final class OpcUaServerConfig {

    private final String applicationUri;
    private final String applicationName;
    private final String productUri;
    private final String manufacturerName;
    private final String softwareVersion;
    private final String buildNumber;
    private final String bindAddress;
    private final int port;
    private final String path;
    private final List<String> hostnames;
    private final TransportQuotas transportQuotas;
    private final RequestPoolSettings requestPool;
    private final ServiceObserver serviceObserver;
    private final int ioThreads;
    private final int readsPerTurn;
    private final OperationLimits operationLimits;
    private final int maxBrowseContinuationPoints;
    private final int maxBrowsePathElements;
    private final List<NodeManager> nodeManagers;
    private final List<NodeSetSource> nodeSets;
    private final List<UaCodec<?>> codecs;
    private final SessionSettings sessionSettings;
    private final IdentityValidator identityValidator;
    private final RoleMapper roleMapper;
    private final Map<String, NodePermissions> defaultPermissions;
    private final List<UserTokenPolicy> userTokenPolicies;
    private final Set<UserTokenType> userTokenTypes;
    private final SubscriptionSettings subscriptionSettings;
    private final dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore durableSubscriptionStore;
    private final dev.opcua.stack.server.redundancy.SessionStateStore sessionStateStore;
    private final dev.opcua.stack.server.redundancy.SessionMirrorSettings sessionMirrorSettings;
    private final dev.opcua.stack.server.redundancy.PartnerMonitorSettings partnerMonitor;
    private final MonitoredItemSettings monitoredItemSettings;
    private final List<EndpointSecurity> endpointSecurity;
    private final List<ApplicationCertificate> certificates;
    private final PkiDirectory pki;
    private final boolean pushManagement;
    private final NodeManagementSettings nodeManagement;
    private final int maxTrustListSize;
    private final int certificateKeySize;
    private final Duration certificateValidity;
    private final ValidationOptions validationOptions;
    private final CertificateValidator clientCertificateValidator;
    private final CertificateValidator userCertificateValidator;
    private final HistoryStore historyStore;
    private final HistorySettings historySettings;
    private final HistoryRecording historyRecording;
    private final List<HistoryReader<?>> historyReaders;
    private final List<HistoryUpdater<?>> historyUpdaters;
    private final List<String> reverseConnectClients;
    private final Duration reverseConnectRetryInterval;
    private final int reverseConnectReadyConnections;
    private final boolean auditing;
    private final List<AuditListener> auditListeners;
    private final int auditCapacity;
    private final RedundancySettings redundancy;
    private final List<ServiceLevelContributor> serviceLevelContributors;

    /** A copy of the builder's values; the builder checked each when it was set. */
    OpcUaServerConfig(OpcUaServerBuilder b) {
        applicationUri = b.applicationUri;
        reverseConnectClients = b.reverseConnectClients;
        reverseConnectRetryInterval = b.reverseConnectRetryInterval;
        reverseConnectReadyConnections = b.reverseConnectReadyConnections;
        auditing = b.auditing;
        auditListeners = List.copyOf(b.auditListeners);
        auditCapacity = b.auditCapacity;
        redundancy = b.redundancy.forServer(b.applicationUri);
        serviceLevelContributors = List.copyOf(b.serviceLevelContributors);
        applicationName = b.applicationName;
        productUri = b.productUri;
        manufacturerName = b.manufacturerName;
        softwareVersion = b.softwareVersion;
        buildNumber = b.buildNumber;
        bindAddress = b.bindAddress;
        port = b.port;
        path = b.path;
        hostnames = b.hostnames;
        transportQuotas = b.transportQuotas;
        requestPool = b.requestPool;
        serviceObserver = b.serviceObserver;
        ioThreads = b.ioThreads;
        readsPerTurn = b.readsPerTurn;
        operationLimits = b.operationLimits;
        maxBrowseContinuationPoints = b.maxBrowseContinuationPoints;
        maxBrowsePathElements = b.maxBrowsePathElements;
        nodeManagers = List.copyOf(b.nodeManagers);
        nodeSets = List.copyOf(b.nodeSets);
        codecs = List.copyOf(b.codecs);
        sessionSettings = b.sessionSettings;
        identityValidator = b.identityValidator;
        roleMapper = b.roleMapper;
        defaultPermissions = Collections.unmodifiableMap(new LinkedHashMap<>(b.defaultPermissions));
        userTokenPolicies = b.userTokenPolicies;
        userTokenTypes = b.userTokenTypes;
        subscriptionSettings = b.subscriptionSettings;
        durableSubscriptionStore = b.durableSubscriptionStore;
        sessionStateStore = b.sessionStateStore;
        sessionMirrorSettings = b.sessionMirrorSettings;
        partnerMonitor = b.partnerMonitor;
        monitoredItemSettings = b.monitoredItemSettings;
        endpointSecurity = b.endpointSecurity;
        certificates = List.copyOf(b.certificates.values());
        pki = b.pki;
        pushManagement = b.pushManagement;
        nodeManagement = b.nodeManagement;
        maxTrustListSize = b.maxTrustListSize;
        certificateKeySize = b.certificateKeySize;
        certificateValidity = b.certificateValidity;
        validationOptions = b.validationOptions;
        clientCertificateValidator = b.clientCertificateValidator;
        userCertificateValidator = b.userCertificateValidator;
        historyStore = b.historyStore;
        historySettings = b.historySettings;
        historyRecording = b.historyRecording;
        historyReaders = List.copyOf(b.historyReaders);
        historyUpdaters = List.copyOf(b.historyUpdaters);
    }

    /** Whether one of {@code endpoints} offers a security policy other than None. */
    static boolean secured(List<EndpointSecurity> endpoints) {
        return endpoints.stream().anyMatch(e -> e.policy() != SecurityPolicy.None);
    }

    /** Whether an endpoint offers a security policy other than None, and so needs a certificate. */
    public boolean secured() {
        return secured(endpointSecurity);
    }

    /** The ApplicationUri (Part 4, 7.2): namespace 1, ServerArray, the certificate's URI. */
    public String applicationUri() {
        return applicationUri;
    }

    public String applicationName() {
        return applicationName;
    }

    public String productUri() {
        return productUri;
    }

    /** BuildInfo.ManufacturerName of ServerStatus (Part 5, 12.4). */
    public String manufacturerName() {
        return manufacturerName;
    }

    /** BuildInfo.SoftwareVersion of ServerStatus (Part 5, 12.4). */
    public String softwareVersion() {
        return softwareVersion;
    }

    /** BuildInfo.BuildNumber of ServerStatus (Part 5, 12.4). */
    public String buildNumber() {
        return buildNumber;
    }

    public String bindAddress() {
        return bindAddress;
    }

    /** The configured TCP port, 0 for an ephemeral one ({@link OpcUaServer#port()} is the bound one). */
    public int port() {
        return port;
    }

    /** Path of the endpoint URL, starting with '/'. */
    public String path() {
        return path;
    }

    /** Host names of the endpoint URLs, the first one the default; never empty. */
    public List<String> hostnames() {
        return hostnames;
    }

    public TransportQuotas transportQuotas() {
        return transportQuotas;
    }

    /** The request queue and worker settings. */
    public RequestPoolSettings requestPool() {
        return requestPool;
    }

    public ServiceObserver serviceObserver() {
        return serviceObserver;
    }

    /** Event loop threads of the transport; 0 is one per processor. */
    public int ioThreads() {
        return ioThreads;
    }

    public int readsPerTurn() {
        return readsPerTurn;
    }

    /** The operation limits the services enforce and ServerCapabilities publishes (0 = none). */
    public OperationLimits operationLimits() {
        return operationLimits;
    }

    /** MaxBrowseContinuationPoints, per session. */
    public int maxBrowseContinuationPoints() {
        return maxBrowseContinuationPoints;
    }

    public int maxBrowsePathElements() {
        return maxBrowsePathElements;
    }

    /** The application's node managers, in the order they were added. */
    public List<NodeManager> nodeManagers() {
        return nodeManagers;
    }

    /** The NodeSet2 files imported at start, in order. */
    public List<NodeSetSource> nodeSets() {
        return nodeSets;
    }

    /** The codecs of the structures the application defines. */
    public List<UaCodec<?>> codecs() {
        return codecs;
    }

    public SessionSettings sessionSettings() {
        return sessionSettings;
    }

    public IdentityValidator identityValidator() {
        return identityValidator;
    }

    public RoleMapper roleMapper() {
        return roleMapper;
    }

    /** DefaultRolePermissions by namespace URI (Part 3, 5.2.9), in the order they were set. */
    public Map<String, NodePermissions> defaultPermissions() {
        return defaultPermissions;
    }

    /** The explicit user token policies of every endpoint, or null when they come from {@link #userTokenTypes()}. */
    public List<UserTokenPolicy> userTokenPolicies() {
        return userTokenPolicies;
    }

    /** The kinds of user token the endpoints offer, when {@link #userTokenPolicies()} is null. */
    public Set<UserTokenType> userTokenTypes() {
        return userTokenTypes;
    }

    /** The shared session store of a HotAndMirrored server; null for the other modes. */
    public dev.opcua.stack.server.redundancy.SessionStateStore sessionStateStore() {
        return sessionStateStore;
    }

    /** How a HotAndMirrored server writes its sessions to the {@link #sessionStateStore()}. */
    public dev.opcua.stack.server.redundancy.SessionMirrorSettings sessionMirrorSettings() {
        return sessionMirrorSettings;
    }

    /** How this server watches its redundancy partners. */
    public dev.opcua.stack.server.redundancy.PartnerMonitorSettings partnerMonitor() {
        return partnerMonitor;
    }

    /**
     * Whether this server watches its partners: a Warm, Hot or HotAndMirrored set (a Cold backup does not run)
     * with the monitor enabled.
     */
    public boolean watchesPartners() {
        return partnerMonitor.enabled() && redundancy.mode().nonTransparent()
                && redundancy.mode() != dev.opcua.stack.server.redundancy.RedundancyMode.Cold;
    }

    /** The store of durable subscriptions given to the builder, or null for the default in memory. */
    public dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore durableSubscriptionStore() {
        return durableSubscriptionStore;
    }

    public SubscriptionSettings subscriptionSettings() {
        return subscriptionSettings;
    }

    /** The bounds of monitored items: sampling intervals and queue sizes. */
    public MonitoredItemSettings monitoredItemSettings() {
        return monitoredItemSettings;
    }

    /** The security policy and mode pairs offered as endpoints (Part 4, 7.14). */
    public List<EndpointSecurity> endpointSecurity() {
        return endpointSecurity;
    }

    /**
     * The first application instance certificate given (the RSA one when given), or null when the PKI
     * directory provides them (or None only).
     */
    public ApplicationCertificate certificate() {
        return certificates.isEmpty() ? null : certificates.get(0);
    }

    /** The application instance certificates given, at most one per type; the PKI directory provides the rest. */
    public List<ApplicationCertificate> certificates() {
        return certificates;
    }

    /** The PKI directory (Part 12, F.1 layout), or null. */
    public PkiDirectory pki() {
        return pki;
    }

    /** Whether push certificate management (Part 12, 7.10) is on; it runs only with a {@link #pki()}. */
    public boolean pushManagement() {
        return pushManagement;
    }

    /** Whether and for whom the NodeManagement services (Part 4, 5.7) are offered. */
    public NodeManagementSettings nodeManagement() {
        return nodeManagement;
    }

    /** MaxTrustListSize in bytes (Part 12, 7.10.3); 0 = no limit. */
    public int maxTrustListSize() {
        return maxTrustListSize;
    }

    public int certificateKeySize() {
        return certificateKeySize;
    }

    public Duration certificateValidity() {
        return certificateValidity;
    }

    public ValidationOptions validationOptions() {
        return validationOptions;
    }

    /** The replacement of the PKI validator of client application certificates, or null. */
    public CertificateValidator clientCertificateValidator() {
        return clientCertificateValidator;
    }

    /** The validator of X.509 user identity tokens, or null (X.509 users are refused). */
    public CertificateValidator userCertificateValidator() {
        return userCertificateValidator;
    }

    /** The store of Historical Access (Part 11), or null without one. */
    public HistoryStore historyStore() {
        return historyStore;
    }

    public HistorySettings historySettings() {
        return historySettings;
    }

    public HistoryRecording historyRecording() {
        return historyRecording;
    }

    /** The readers of other kinds of HistoryReadDetails the application added. */
    public List<HistoryReader<?>> historyReaders() {
        return historyReaders;
    }

    /** The updaters of other kinds of HistoryUpdateDetails the application added. */
    public List<HistoryUpdater<?>> historyUpdaters() {
        return historyUpdaters;
    }

    /** The listening sockets of the clients the server dials for reverse connect; empty for none. */
    public List<String> reverseConnectClients() {
        return reverseConnectClients;
    }

    /** The wait before a client is dialled again after a failed or unused connection. */
    public Duration reverseConnectRetryInterval() {
        return reverseConnectRetryInterval;
    }

    /** Connections kept waiting per reverse-connect client. */
    public int reverseConnectReadyConnections() {
        return reverseConnectReadyConnections;
    }

    /** Whether the server audits (Part 4, 6.5), as the Server object's Auditing property says. */
    public boolean auditing() {
        return auditing;
    }

    /** Who sees each audit record; empty for none. */
    public List<AuditListener> auditListeners() {
        return auditListeners;
    }

    /** Audit records that may wait for the audit thread before new ones are dropped. */
    public int auditCapacity() {
        return auditCapacity;
    }

    /**
     * The redundant server set this server belongs to (Part 4, 6.6.2.4), its ServerUri filled in; {@link
     * RedundancySettings#NONE} for a stand-alone server.
     */
    public RedundancySettings redundancy() {
        return redundancy;
    }

    /** The application's health checks that lower the ServiceLevel (Part 4, 6.6.2.4.2). */
    public List<ServiceLevelContributor> serviceLevelContributors() {
        return serviceLevelContributors;
    }
}
