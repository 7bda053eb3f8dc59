package dev.opcua.stack.server;

import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.generic.GenericStructureCodec;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.audit.AuditListener;
import dev.opcua.stack.server.audit.AuditLog;
import dev.opcua.stack.server.discovery.DiscoveryServices;
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
import dev.opcua.stack.server.services.view.TranslateBrowsePaths;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;
import dev.opcua.stack.server.transport.ReverseConnectSettings;
import dev.opcua.stack.server.transport.ReverseConnectTarget;
import dev.opcua.stack.server.transport.UaTcpServer;
import java.net.URL;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The settings of {@link OpcUaServer.Builder}, each checked as it is set; {@link #build()} checks how they
 * fit together and freezes them into an {@link OpcUaServerConfig}, so that a server never sees a builder.
 * Package-private: applications hold the builder as {@code OpcUaServer.Builder}, the one subclass.
 */
abstract sealed class OpcUaServerBuilder permits OpcUaServer.Builder {

    String applicationUri = "urn:dev.opcua:server";
    String applicationName = "OPC UA server";
    String productUri = "urn:dev.opcua:stack";
    String manufacturerName = "dev.opcua";
    String softwareVersion = "0.1.0-SNAPSHOT";
    String buildNumber = "0";
    String bindAddress = "0.0.0.0";
    int port = 4840;
    String path = "/";
    List<String> hostnames = List.of("localhost");
    TransportQuotas transportQuotas = TransportQuotas.DEFAULT;
    RequestPoolSettings requestPool = RequestPoolSettings.DEFAULT;
    ServiceObserver serviceObserver = ServiceObserver.NONE;
    int ioThreads;
    int readsPerTurn = 1;
    OperationLimits operationLimits = OperationLimits.NONE;
    int maxBrowseContinuationPoints = 10;
    int maxBrowsePathElements = TranslateBrowsePaths.DEFAULT_MAX_PATH_ELEMENTS;
    final List<NodeManager> nodeManagers = new ArrayList<>();
    final List<NodeSetSource> nodeSets = new ArrayList<>();
    final List<UaCodec<?>> codecs = new ArrayList<>();
    SessionSettings sessionSettings = SessionSettings.DEFAULT;
    IdentityValidator identityValidator = IdentityValidator.anonymousOnly();
    RoleMapper roleMapper = RoleMapper.wellKnown();
    final Map<String, NodePermissions> defaultPermissions = new LinkedHashMap<>();
    /** Explicit token policies of every endpoint, or null for policies generated from the token types. */
    List<UserTokenPolicy> userTokenPolicies;
    Set<UserTokenType> userTokenTypes = Set.of(UserTokenType.Anonymous);
    SubscriptionSettings subscriptionSettings = SubscriptionSettings.DEFAULT;
    dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore durableSubscriptionStore;
    dev.opcua.stack.server.redundancy.SessionStateStore sessionStateStore;
    dev.opcua.stack.server.redundancy.PartnerMonitorSettings partnerMonitor =
            dev.opcua.stack.server.redundancy.PartnerMonitorSettings.DEFAULT;
    dev.opcua.stack.server.redundancy.SessionMirrorSettings sessionMirrorSettings =
            dev.opcua.stack.server.redundancy.SessionMirrorSettings.DEFAULT;
    MonitoredItemSettings monitoredItemSettings = MonitoredItemSettings.DEFAULT;
    List<EndpointSecurity> endpointSecurity = List.of(EndpointSecurity.NONE);
    final Map<CertificateType, ApplicationCertificate> certificates = new EnumMap<>(CertificateType.class);
    /** The default MaxTrustListSize: 1 MiB, the default MaxByteStringLength of a Write. */
    static final int DEFAULT_MAX_TRUST_LIST_SIZE = 1 << 20;
    PkiDirectory pki;
    boolean pushManagement = true;
    NodeManagementSettings nodeManagement = NodeManagementSettings.DISABLED;
    int maxTrustListSize = DEFAULT_MAX_TRUST_LIST_SIZE;
    int certificateKeySize = CertificateBuilder.DEFAULT_KEY_SIZE;
    Duration certificateValidity = Duration.ofDays(CertificateBuilder.DEFAULT_VALIDITY_DAYS);
    ValidationOptions validationOptions = ValidationOptions.defaults();
    CertificateValidator clientCertificateValidator;
    CertificateValidator userCertificateValidator;
    HistoryStore historyStore;
    HistorySettings historySettings = HistorySettings.DEFAULT;
    HistoryRecording historyRecording = HistoryRecording.DEFAULT;
    final List<HistoryReader<?>> historyReaders = new ArrayList<>();
    final List<HistoryUpdater<?>> historyUpdaters = new ArrayList<>();
    List<String> reverseConnectClients = List.of();
    Duration reverseConnectRetryInterval = ReverseConnectSettings.DEFAULT_RETRY_INTERVAL;
    int reverseConnectReadyConnections = 1;
    boolean auditing;
    final List<AuditListener> auditListeners = new ArrayList<>();
    int auditCapacity = AuditLog.DEFAULT_CAPACITY;
    RedundancySettings redundancy = RedundancySettings.NONE;
    final List<ServiceLevelContributor> serviceLevelContributors = new ArrayList<>();

    OpcUaServerBuilder() {
    }

    /**
     * Offers Historical Access (Part 11) over {@code store}: HistoryRead with raw reads and the readers
     * added with {@link #historyReader}, HistoryUpdate of values (insert, replace, update, delete) and the
     * updaters added with {@link #historyUpdater}, and the recording of {@link #historyRecording}; without a store HistoryRead and HistoryUpdate answer
     * BadServiceUnsupported. The caller owns the store and closes it after the server.
     */
    public OpcUaServer.Builder history(HistoryStore store, HistorySettings settings) {
        historyStore = Objects.requireNonNull(store, "store");
        historySettings = Objects.requireNonNull(settings, "settings");
        return self();
    }

    /**
     * What is recorded into the {@link #history} store and how long it is kept: by default the variables
     * declared historizing, sampled each second, everything kept, no events; {@link
     * HistoryRecording#withEventNotifiers} adds the events of notifiers (read with ReadEventDetails).
     */
    public OpcUaServer.Builder historyRecording(HistoryRecording value) {
        historyRecording = Objects.requireNonNull(value, "historyRecording");
        return self();
    }

    /** A reader of another kind of HistoryReadDetails (at-time, processed, events), used with {@link #history}. */
    public OpcUaServer.Builder historyReader(HistoryReader<?> reader) {
        historyReaders.add(Objects.requireNonNull(reader, "reader"));
        return self();
    }

    /** An updater of another kind of HistoryUpdateDetails, used with {@link #history}. */
    public OpcUaServer.Builder historyUpdater(HistoryUpdater<?> updater) {
        historyUpdaters.add(Objects.requireNonNull(updater, "updater"));
        return self();
    }

    /**
     * Reverse connect (Part 6, 7.1.3): the server dials each client's listening socket, {@code opc.tcp://host:port},
     * sends a ReverseHello with its ApplicationUri and first endpoint URL, and serves the client over that
     * connection; {@code readyConnections} connections wait per client, a failed or unused one is dialled again
     * after {@code retryInterval}. None by default.
     *
     * @throws dev.opcua.stack.core.config.InvalidSettingException naming {@code reverseConnect.clientUrl},
     *         {@code reverseConnect.retryInterval} or {@code reverseConnect.readyConnections}
     */
    public OpcUaServer.Builder reverseConnect(List<String> clientUrls, Duration retryInterval, int readyConnections) {
        List<ReverseConnectTarget> checked = new ArrayList<>();
        for (String url : clientUrls) {
            checked.add(new ReverseConnectTarget(url, "")); // the endpoint is known once the server is bound
        }
        new ReverseConnectSettings("", checked, retryInterval, readyConnections);
        reverseConnectClients = List.copyOf(clientUrls);
        reverseConnectRetryInterval = retryInterval;
        reverseConnectReadyConnections = readyConnections;
        return self();
    }

    /**
     * Makes this server one of a non-transparent redundant server set (Part 4, 6.6.2.4; Part 5, 6.3.9): the
     * Server object's ServerRedundancy publishes the mode (RedundancySupport), ServerUriArray (this server and the
     * partners) and RedundantServerArray, and clients fail over by ServiceLevel. {@link RedundancySettings#NONE}
     * by default. {@link #build()} checks the settings against the ApplicationUri: a partner with this server's
     * own ServerUri (a pair configured with itself) is refused.
     */
    public OpcUaServer.Builder redundancy(RedundancySettings value) {
        redundancy = Objects.requireNonNull(value, "redundancy");
        return self();
    }

    /**
     * Adds a health check that lowers the ServiceLevel (Part 4, 6.6.2.4.2) while the application's data sources
     * are down; see {@link ServiceLevelContributor}. More may be added at run time with {@code
     * server.serviceLevel().addContributor(...)}.
     */
    public OpcUaServer.Builder serviceLevelContributor(ServiceLevelContributor contributor) {
        serviceLevelContributors.add(Objects.requireNonNull(contributor, "contributor"));
        return self();
    }

    public OpcUaServer.Builder applicationUri(String value) {
        applicationUri = Objects.requireNonNull(value, "applicationUri");
        return self();
    }

    public OpcUaServer.Builder applicationName(String value) {
        applicationName = Objects.requireNonNull(value, "applicationName");
        return self();
    }

    public OpcUaServer.Builder productUri(String value) {
        productUri = Objects.requireNonNull(value, "productUri");
        return self();
    }

    public OpcUaServer.Builder buildInfo(String manufacturerName, String softwareVersion, String buildNumber) {
        this.manufacturerName = manufacturerName;
        this.softwareVersion = softwareVersion;
        this.buildNumber = buildNumber;
        return self();
    }

    public OpcUaServer.Builder bindAddress(String value) {
        bindAddress = Objects.requireNonNull(value, "bindAddress");
        return self();
    }

    /** TCP port, 0 for an ephemeral one. */
    public OpcUaServer.Builder port(int value) {
        if (value < 0 || value > 65_535) {
            throw new InvalidSettingException("opcUaServer.port", value, "must be 0..65535");
        }
        port = value;
        return self();
    }

    /** Path of the endpoint URL, starting with '/'. */
    public OpcUaServer.Builder path(String value) {
        if (value == null || !value.startsWith("/")) {
            throw new InvalidSettingException("opcUaServer.path", value, "must start with '/'");
        }
        path = value;
        return self();
    }

    /** Host names of the endpoint URLs, the first one the default. */
    public OpcUaServer.Builder hostnames(List<String> values) {
        if (values == null || values.isEmpty()) {
            throw new InvalidSettingException("opcUaServer.hostnames", values, "must name at least one host");
        }
        hostnames = List.copyOf(values);
        return self();
    }

    public OpcUaServer.Builder transportQuotas(TransportQuotas value) {
        transportQuotas = Objects.requireNonNull(value, "transportQuotas");
        return self();
    }

    /** Worker threads (MinRequestThreadCount / MaxRequestThreadCount) and MaxQueuedRequestCount. */
    public OpcUaServer.Builder requests(int minThreads, int maxThreads, int maxQueued) {
        if (minThreads < 1 || maxThreads < minThreads || maxQueued < 1) {
            throw new InvalidSettingException("opcUaServer.requests", List.of(minThreads, maxThreads, maxQueued),
                    "need 1 <= minThreads <= maxThreads and maxQueued >= 1");
        }
        RequestPoolSettings p = requestPool;
        requestPool = new RequestPoolSettings(minThreads, maxThreads, maxQueued, p.maxPriorityQueued(),
                p.workerKeepAlive(), p.maxRequestAge(), p.virtualThreads(), p.shutdownTimeout(),
                p.inlineWhenIdle(), p.maxRunningPerSession(), p.maxRequestsPerRead());
        return self();
    }

    /**
     * Every limit of the request pipeline: threads, queue, priority lane, request age, virtual threads,
     * and whether small Reads and Writes may run on their event loop when no request waits.
     */
    public OpcUaServer.Builder requestPool(RequestPoolSettings value) {
        requestPool = Objects.requireNonNull(value, "requestPool");
        return self();
    }

    /**
     * Whether the server audits (Part 4, 6.5; the Server object's Auditing, Part 5, 6.3.1): OpenSecureChannel,
     * CreateSession, ActivateSession, Cancel, every written value, every method called, every NodeManagement
     * request, refused certificates and the condition methods raise AuditEventType events on the Server object and reach the {@link
     * #auditListener audit listeners}. Off by default; off, it costs one boolean check per audited call.
     */
    public OpcUaServer.Builder auditing(boolean value) {
        auditing = value;
        return self();
    }

    /** Sees every audit record after its event was raised (with {@link #auditing} on), on the audit thread. */
    public OpcUaServer.Builder auditListener(AuditListener listener) {
        auditListeners.add(Objects.requireNonNull(listener, "listener"));
        return self();
    }

    /**
     * Audit records that may wait for the audit thread (default {@value AuditLog#DEFAULT_CAPACITY}); beyond
     * that, under a flood of audited requests, records are dropped and counted.
     *
     * @throws InvalidSettingException naming {@code opcUaServer.auditCapacity} when below 1
     */
    public OpcUaServer.Builder auditCapacity(int value) {
        if (value < 1) {
            throw new InvalidSettingException("opcUaServer.auditCapacity", value, "must be at least 1");
        }
        auditCapacity = value;
        return self();
    }

    /** Who watches every service call (metrics, tracing); default {@link ServiceObserver#NONE}. */
    public OpcUaServer.Builder serviceObserver(ServiceObserver value) {
        serviceObserver = Objects.requireNonNull(value, "serviceObserver");
        return self();
    }

    /** Event loop threads of the transport; 0, the default, is one per processor. */
    public OpcUaServer.Builder ioThreads(int value) {
        if (value < 0) {
            throw new InvalidSettingException("opcUaServer.ioThreads", value,
                    "must be 0 (one per processor) or more");
        }
        ioThreads = value;
        return self();
    }

    /**
     * Socket reads per connection per turn of its event loop; default 1, so that a flooding client
     * cannot hold a loop from the other connections on it ({@link UaTcpServer.Builder#readsPerTurn}).
     */
    public OpcUaServer.Builder readsPerTurn(int value) {
        if (value < 1) {
            throw new InvalidSettingException("opcUaServer.readsPerTurn", value, "must be at least 1");
        }
        readsPerTurn = value;
        return self();
    }

    /** Operation limits of Read and Write (0 = none). */
    public OpcUaServer.Builder operationLimits(int maxNodesPerRead, int maxNodesPerWrite) {
        OperationLimits l = operationLimits;
        operationLimits = new OperationLimits(maxNodesPerRead, maxNodesPerWrite, l.maxNodesPerBrowse(),
                l.maxNodesPerMethodCall(), l.maxNodesPerTranslateBrowsePathsToNodeIds(),
                l.maxNodesPerRegisterNodes(), l.maxMonitoredItemsPerCall(), l.maxNodesPerNodeManagement());
        return self();
    }

    /**
     * All operation limits (0 = none), enforced by the services and published under
     * Server.ServerCapabilities.OperationLimits.
     */
    public OpcUaServer.Builder operationLimits(OperationLimits value) {
        operationLimits = Objects.requireNonNull(value, "operationLimits");
        return self();
    }

    /**
     * Most elements of one RelativePath in TranslateBrowsePathsToNodeIds; a longer path is answered
     * BadQueryTooComplex (Part 4, 5.9.4.4). Default 64.
     */
    public OpcUaServer.Builder maxBrowsePathElements(int value) {
        if (value < 1) {
            throw new InvalidSettingException("opcUaServer.maxBrowsePathElements", value, "must be at least 1");
        }
        maxBrowsePathElements = value;
        return self();
    }

    /** Operation limit of Browse (0 = none) and MaxBrowseContinuationPoints (per session). */
    public OpcUaServer.Builder browseLimits(int maxNodesPerBrowse, int maxBrowseContinuationPoints) {
        if (maxNodesPerBrowse < 0 || maxBrowseContinuationPoints < 1) {
            throw maxNodesPerBrowse < 0
                    ? new InvalidSettingException("opcUaServer.maxNodesPerBrowse", maxNodesPerBrowse,
                            "must be 0 (no limit) or more")
                    : new InvalidSettingException("opcUaServer.maxBrowseContinuationPoints",
                            maxBrowseContinuationPoints, "must be at least 1");
        }
        OperationLimits l = operationLimits;
        operationLimits = new OperationLimits(l.maxNodesPerRead(), l.maxNodesPerWrite(), maxNodesPerBrowse,
                l.maxNodesPerMethodCall(), l.maxNodesPerTranslateBrowsePathsToNodeIds(),
                l.maxNodesPerRegisterNodes(), l.maxMonitoredItemsPerCall(), l.maxNodesPerNodeManagement());
        this.maxBrowseContinuationPoints = maxBrowseContinuationPoints;
        return self();
    }

    public OpcUaServer.Builder sessionSettings(SessionSettings value) {
        sessionSettings = Objects.requireNonNull(value, "sessionSettings");
        return self();
    }

    /**
     * Who may activate a session and the user token policies the endpoints offer for it
     * (anonymous only by default).
     */
    public OpcUaServer.Builder identities(IdentityValidator validator, List<UserTokenPolicy> policies) {
        if (policies == null || policies.isEmpty()) {
            throw new InvalidSettingException("opcUaServer.userTokenPolicies", policies,
                    "must list at least one user token policy for the endpoints");
        }
        identityValidator = Objects.requireNonNull(validator, "validator");
        userTokenPolicies = List.copyOf(policies);
        return self();
    }

    /**
     * The security policy and mode pairs offered as endpoints (Part 4, 7.14), SecurityPolicy None
     * only by default. Every pair other than None needs an application certificate: {@link
     * #certificate} or {@link #pki}. Deprecated policies are offered only when listed here.
     */
    public OpcUaServer.Builder security(List<EndpointSecurity> values) {
        if (values == null || values.isEmpty()) {
            throw new InvalidSettingException("opcUaServer.security", values,
                    "must list at least one security policy and mode");
        }
        endpointSecurity = List.copyOf(values);
        return self();
    }

    /**
     * An application instance certificate and key; otherwise the PKI directory provides one. Call once per
     * certificate type (an RSA one for the RSA policies, one per ECC curve offered, Part 12, 7.8.4); a
     * second certificate of the same type replaces the first.
     */
    public OpcUaServer.Builder certificate(ApplicationCertificate value) {
        Objects.requireNonNull(value, "certificate");
        certificates.put(value.type(), value);
        return self();
    }

    /**
     * The PKI directory (Part 12, F.1 layout: own/, trusted/, issuers/, rejected/): the application
     * certificate is loaded from own/ or created there on first start, and client certificates are
     * validated against its trust lists, reread when they change.
     */
    public OpcUaServer.Builder pki(PkiDirectory value) {
        pki = Objects.requireNonNull(value, "pki");
        return self();
    }

    /**
     * Whether the ServerConfiguration object answers push certificate management (Part 12, 7.10:
     * UpdateCertificate, CreateSigningRequest, ApplyChanges, GetRejectedList, the TrustList file) for sessions
     * with the SecurityAdmin role on SignAndEncrypt channels; default true. It needs {@link #pki}; without one
     * the methods stay unimplemented (BadNotImplemented).
     */
    public OpcUaServer.Builder pushManagement(boolean value) {
        pushManagement = value;
        return self();
    }

    /**
     * Whether and for which roles the NodeManagement services (AddNodes, AddReferences, DeleteNodes,
     * DeleteReferences, Part 4, 5.7) change the address space; default off (BadServiceUnsupported).
     */
    public OpcUaServer.Builder nodeManagement(NodeManagementSettings value) {
        nodeManagement = Objects.requireNonNull(value, "nodeManagement");
        return self();
    }

    /** MaxTrustListSize (Part 12, 7.10.3): the largest TrustList file accepted, in bytes; 0 = no limit; default 1 MiB. */
    public OpcUaServer.Builder maxTrustListSize(int value) {
        if (value < 0) {
            throw new InvalidSettingException("opcUaServer.maxTrustListSize", value, "must be >= 0 (0 = no limit)");
        }
        maxTrustListSize = value;
        return self();
    }

    /** Key size and validity of a certificate created on first start; default 2048 bits, 5 years. */
    public OpcUaServer.Builder certificateParameters(int keySize, Duration validity) {
        if (keySize < 2048 || keySize > 8192 || keySize % 1024 != 0) {
            throw new InvalidSettingException("opcUaServer.certificateKeySize", keySize,
                    "must be 2048, 3072, 4096 ... 8192 bits");
        }
        if (validity == null || validity.isNegative() || validity.isZero()) {
            throw new InvalidSettingException("opcUaServer.certificateValidity", validity, "must be positive");
        }
        certificateKeySize = keySize;
        certificateValidity = validity;
        return self();
    }

    /** Minimum key size, SHA-1 rejection and auto-accept of the PKI validator of client certificates. */
    public OpcUaServer.Builder certificateValidation(ValidationOptions value) {
        validationOptions = Objects.requireNonNull(value, "validationOptions");
        return self();
    }

    /** Replaces the PKI validator of client application certificates. */
    public OpcUaServer.Builder clientCertificateValidator(CertificateValidator value) {
        clientCertificateValidator = Objects.requireNonNull(value, "clientCertificateValidator");
        return self();
    }

    /** Validates the certificates of X.509 user identity tokens; without one, X.509 users are refused. */
    public OpcUaServer.Builder userCertificateValidator(CertificateValidator value) {
        userCertificateValidator = Objects.requireNonNull(value, "userCertificateValidator");
        return self();
    }

    /**
     * Who may activate a session, and the kinds of user token the endpoints offer; each endpoint
     * gets one token policy per kind, secured by its own policy (a None endpoint's user names and
     * certificates by the strongest policy offered), see {@link DiscoveryServices#userTokenPolicy}.
     */
    public OpcUaServer.Builder identityTypes(IdentityValidator validator, Set<UserTokenType> types) {
        if (types == null || types.isEmpty()) {
            throw new InvalidSettingException("opcUaServer.userTokenTypes", types,
                    "must list at least one user token type for the endpoints");
        }
        identityValidator = Objects.requireNonNull(validator, "validator");
        userTokenTypes = Set.copyOf(types);
        userTokenPolicies = null;
        return self();
    }

    /** Publishing intervals, keep-alive and lifetime counts, limits of subscriptions and publish requests. */
    public OpcUaServer.Builder subscriptionSettings(SubscriptionSettings value) {
        subscriptionSettings = Objects.requireNonNull(value, "subscriptionSettings");
        return self();
    }

    /**
     * Where durable subscriptions (Part 4, 6.8) are saved while they change and when the server closes, and
     * restored from when it starts; default one in memory, for the life of this server only. The caller owns
     * the store: it closes it after the server. Give a file store (opcua-stack-history-embedded's
     * {@code MVStoreDurableSubscriptionStore}) for subscriptions that survive a restart of the process.
     */
    public OpcUaServer.Builder durableSubscriptionStore(
            dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore value) {
        durableSubscriptionStore = Objects.requireNonNull(value, "durableSubscriptionStore");
        return self();
    }

    /**
     * Where a HotAndMirrored server keeps its sessions and subscriptions for its partners and finds theirs
     * (Part 4, 6.6.2.4.5): required with {@link dev.opcua.stack.server.redundancy.RedundancyMode#HotAndMirrored},
     * shared by every server of the set (opcua-stack-history-jdbc's {@code JdbcSessionStateStore} in PostgreSQL;
     * {@code InMemorySessionStateStore} for servers of one JVM). The caller owns the store and closes it after the
     * server.
     */
    public OpcUaServer.Builder sessionStateStore(dev.opcua.stack.server.redundancy.SessionStateStore value) {
        sessionStateStore = Objects.requireNonNull(value, "sessionStateStore");
        return self();
    }

    /**
     * How a server of a Warm, Hot or HotAndMirrored set watches its partners and fills RedundantServerArray
     * ({@link dev.opcua.stack.server.redundancy.PartnerMonitor}); default enabled, every 2 s.
     */
    public OpcUaServer.Builder partnerMonitor(dev.opcua.stack.server.redundancy.PartnerMonitorSettings value) {
        partnerMonitor = Objects.requireNonNull(value, "partnerMonitor");
        return self();
    }

    /** How often and in what batches a HotAndMirrored server writes its sessions; default every 100 ms. */
    public OpcUaServer.Builder sessionMirrorSettings(dev.opcua.stack.server.redundancy.SessionMirrorSettings value) {
        sessionMirrorSettings = Objects.requireNonNull(value, "sessionMirrorSettings");
        return self();
    }

    /** Sampling interval bounds and queue sizes of monitored items. */
    public OpcUaServer.Builder monitoredItemSettings(MonitoredItemSettings value) {
        monitoredItemSettings = Objects.requireNonNull(value, "monitoredItemSettings");
        return self();
    }

    /**
     * Which roles each user has (Part 3, 4.9); by default {@link RoleMapper#wellKnown()}:
     * Anonymous for anonymous users, AuthenticatedUser for the others.
     */
    public OpcUaServer.Builder roleMapper(RoleMapper value) {
        roleMapper = Objects.requireNonNull(value, "roleMapper");
        return self();
    }

    /**
     * The DefaultRolePermissions of a namespace (Part 3, 5.2.9): the permissions of its nodes that
     * have none of their own. The namespace must be owned by an in-memory node manager (an
     * {@link dev.opcua.stack.server.nodes.InMemoryNodeManager}, the annotation model's, namespace
     * 0); the server refuses to start otherwise.
     */
    public OpcUaServer.Builder defaultPermissions(String namespaceUri, NodePermissions permissions) {
        defaultPermissions.put(Objects.requireNonNull(namespaceUri, "namespaceUri"),
                Objects.requireNonNull(permissions, "permissions"));
        return self();
    }

    /**
     * Adds a NodeSet2 file (a companion specification, Part 6, Annex F) to import at start, after
     * those added before it: a file's RequiredModels must be namespace 0 or loaded earlier.
     */
    public OpcUaServer.Builder nodeSet(NodeSetSource source) {
        nodeSets.add(Objects.requireNonNull(source, "source"));
        return self();
    }

    public OpcUaServer.Builder nodeSet(Path file) {
        return nodeSet(NodeSetSource.of(file));
    }

    public OpcUaServer.Builder nodeSet(URL url) {
        return nodeSet(NodeSetSource.of(url));
    }

    /** A nodeset read from a stream opened once at start; {@code name} appears in error messages. */
    public OpcUaServer.Builder nodeSet(String name, NodeSetSource.Opener opener) {
        return nodeSet(new NodeSetSource(name, opener));
    }

    /**
     * Adds the codec of a structure the application defines (a {@link GenericStructureCodec} of a
     * {@link dev.opcua.stack.core.encoding.generic.StructureLayout}, or a hand-written one), so that its
     * values are encoded when read and decoded when written; its DataType and encoding nodes belong in
     * the application's node manager.
     */
    public OpcUaServer.Builder codec(UaCodec<?> codec) {
        codecs.add(Objects.requireNonNull(codec, "codec"));
        return self();
    }

    /** Adds a node manager of the application. */
    public OpcUaServer.Builder nodeManager(NodeManager manager) {
        nodeManagers.add(Objects.requireNonNull(manager, "manager"));
        return self();
    }

    /**
     * Checks that the settings fit together and builds the server over a frozen copy of them: namespace 0
     * and the node managers are assembled now, the rest at {@link OpcUaServer#start()}.
     *
     * @throws InvalidSettingException when a security policy other than None lacks an application
     *         certificate or a validator of client certificates, or a namespace given default permissions
     *         has no in-memory node manager, or the redundancy settings name this server as its own partner
     */
    public OpcUaServer build() {
        if (secured() && certificates.isEmpty() && pki == null) {
            throw new InvalidSettingException("opcUaServer.security", endpointSecurity,
                    "needs an application certificate for policies other than None: configure certificate(...)"
                            + " or pki(...)");
        }
        if (pki == null) {
            for (EndpointSecurity pair : endpointSecurity) {
                CertificateType type = pair.policy().certificateType();
                if (type != null && !certificates.containsKey(type)) {
                    throw new InvalidSettingException("opcUaServer.security", endpointSecurity, pair.policy()
                            + " needs an application certificate of type " + type + ": give one with certificate(...)"
                            + " or configure pki(...) to have it created");
                }
            }
        }
        if (secured() && clientCertificateValidator == null && pki == null) {
            throw new InvalidSettingException("opcUaServer.security", endpointSecurity,
                    "needs a client certificate validator for policies other than None: configure pki(...) or"
                            + " clientCertificateValidator(...)");
        }
        redundancy.forServer(applicationUri);
        dev.opcua.stack.server.redundancy.SelfPartnerCheck.check(redundancy, port, bindAddress, hostnames);
        boolean mirrored = redundancy.mode() == dev.opcua.stack.server.redundancy.RedundancyMode.HotAndMirrored;
        if (mirrored && sessionStateStore == null) {
            throw new InvalidSettingException("opcUaServer.sessionStateStore", null, "is required with redundancy"
                    + " mode HotAndMirrored: the partner takes sessions over from this shared store; configure"
                    + " sessionStateStore(...) or choose Hot");
        }
        if (!mirrored && sessionStateStore != null) {
            throw new InvalidSettingException("opcUaServer.sessionStateStore", sessionStateStore, "is used only"
                    + " with redundancy mode HotAndMirrored, the mode is " + redundancy.mode());
        }
        return new OpcUaServer(new OpcUaServerConfig(this));
    }

    /** Whether an endpoint offers a security policy other than None. */
    boolean secured() {
        return OpcUaServerConfig.secured(endpointSecurity);
    }

    private OpcUaServer.Builder self() {
        return (OpcUaServer.Builder) this;
    }
}
