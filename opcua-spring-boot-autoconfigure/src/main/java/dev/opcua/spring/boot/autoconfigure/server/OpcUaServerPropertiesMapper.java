package dev.opcua.spring.boot.autoconfigure.server;

import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.spring.boot.autoconfigure.ssl.SslBundleCertificates;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.RoleMapper;
import dev.opcua.stack.server.roles.WellKnownRole;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;
import java.time.Duration;
import java.time.Period;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.ContextResource;
import org.springframework.core.io.Resource;
import dev.opcua.stack.server.models.StandardModels;
import dev.opcua.stack.server.nodeset.NodeSetSource;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.util.unit.DataSize;

/**
 * Turns {@link OpcUaServerProperties} into the settings of {@link OpcUaServer.Builder}, checking each
 * value first: a value the server cannot use is an {@link InvalidOpcUaServerPropertyException} naming
 * the key, the value and what is allowed. A rule the stack enforces on its own (its settings records
 * throw {@link IllegalArgumentException}) is reported the same way, with the key the stack's field
 * name corresponds to.
 */
final class OpcUaServerPropertiesMapper {

    static final String PREFIX = "opcua.server";

    /** Offered when {@code security.policies} is not set and a PKI directory provides a certificate. */
    static final List<SecurityPolicy> DEFAULT_SECURE_POLICIES = List.of(SecurityPolicy.Basic256Sha256,
            SecurityPolicy.Aes128_Sha256_RsaOaep, SecurityPolicy.Aes256_Sha256_RsaPss);

    private static final Log log = LogFactory.getLog(OpcUaServerPropertiesMapper.class);
    private static final String POSITIVE_DURATION = "a positive duration, such as 500ms, 30s, 10m or 1h";
    private static final String POSITIVE_SIZE = "a positive size, such as 65535B, 512KB or 2MB";

    private static final PropertyChecks CHECKS = new PropertyChecks(PREFIX, InvalidOpcUaServerPropertyException::new);

    private final OpcUaServerProperties properties;
    private final SslBundles sslBundles;

    OpcUaServerPropertiesMapper(OpcUaServerProperties properties) {
        this(properties, null);
    }

    /** @param sslBundles the application's SSL bundles, for {@code security.certificate.bundle}; may be null */
    OpcUaServerPropertiesMapper(OpcUaServerProperties properties, SslBundles sslBundles) {
        this.properties = properties;
        this.sslBundles = sslBundles;
    }

    /**
     * Applies every property except the identities to {@code builder}.
     *
     * @param pki the PKI directory of the server, or null when none is configured
     */
    void applyTo(OpcUaServer.Builder builder, PkiDirectory pki) {
        OpcUaServerProperties p = properties;
        builder.applicationName(requireText("application-name", p.getApplicationName()))
                .applicationUri(requireText("application-uri", p.getApplicationUri()))
                .productUri(requireText("product-uri", p.getProductUri()))
                .bindAddress(requireText("bind-address", p.getBindAddress()))
                .port(port())
                .path(path())
                .hostnames(hostnames())
                .transportQuotas(transportQuotas())
                .ioThreads(nonNegative("transport.io-threads", p.getTransport().getIoThreads(),
                        "0 (one per processor) or a thread count"))
                .readsPerTurn(positive("transport.reads-per-turn", p.getTransport().getReadsPerTurn()))
                .requestPool(requestPool())
                .sessionSettings(sessionSettings())
                .operationLimits(operationLimits())
                .browseLimits(operationLimits().maxNodesPerBrowse(), maxBrowseContinuationPoints())
                .maxBrowsePathElements(positive("limits.max-browse-path-elements",
                        p.getLimits().getMaxBrowsePathElements()))
                .subscriptionSettings(subscriptionSettings())
                .monitoredItemSettings(monitoredItemSettings())
                .security(endpointSecurity(pki != null));
        nodeSets().forEach(builder::nodeSet);
        ValidationOptions validation = validationOptions();
        builder.certificateValidation(validation);
        OpcUaServerProperties.Certificate certificate = p.getSecurity().getCertificate();
        builder.certificateParameters(certificateKeySize(), certificateValidity());
        ApplicationCertificate loaded = applicationCertificate();
        if (loaded != null) {
            builder.certificate(loaded);
        }
        if (pki != null) {
            builder.pki(pki);
        }
        boolean hasCertificate = loaded != null || pki != null;
        OpcUaServerProperties.Identity identity = p.getIdentity();
        if (!identity.getUsers().isEmpty() && !hasCertificate) {
            throw new InvalidOpcUaServerPropertyException(key("identity.users"), usernames(identity),
                    "passwords are sent encrypted with the server's certificate (Part 4, 7.41.4), and no certificate"
                            + " is configured",
                    "users together with " + key("security.pki-dir") + " (or " + key("security.certificate.pem-certificate")
                            + " / " + key("security.certificate.keystore") + ")");
        }
        if (identity.isX509()) {
            if (pki == null) {
                throw new InvalidOpcUaServerPropertyException(key("identity.x509"), true,
                        "user certificates are checked against the trust list of a PKI directory, and none is configured",
                        "true together with " + key("security.pki-dir") + ", or false");
            }
            builder.userCertificateValidator(new PkiCertificateValidator(pki, validation));
        }
        applyAccess(builder);
        if (certificate.getKeystore() == null && certificate.getPemCertificate() == null && pki == null
                && p.getSecurity().getPolicies() == null) {
            log.warn("OPC UA server offers SecurityPolicy None only: messages and passwords cross the network"
                    + " unprotected. Set opcua.server.security.pki-dir to offer " + DEFAULT_SECURE_POLICIES
                    + " instead, or list the policies in opcua.server.security.policies");
        }
    }

    /**
     * Builds the server; a rule of the stack's builder that a setting breaks is reported with the
     * properties it concerns.
     */
    static OpcUaServer build(OpcUaServer.Builder builder) {
        try {
            return builder.build();
        } catch (IllegalStateException | IllegalArgumentException e) {
            if (e.getMessage() != null && e.getMessage().startsWith("default permissions for namespace")) {
                throw new InvalidOpcUaServerPropertyException(key("access.namespaces"), null, e.getMessage(),
                        "the URIs of namespaces served by in-memory or annotated node managers, or "
                                + "http://opcfoundation.org/UA/", e);
            }
            throw new InvalidOpcUaServerPropertyException(PREFIX + ".security", null,
                    "the server cannot be built from this configuration: " + e.getMessage(),
                    "a configuration that satisfies the rule in the reason (see docs/CONFIGURATION.md)", e);
        }
    }

    /**
     * The {@code nodesets} as sources the server opens at start; a location that does not exist is
     * reported now, naming its key and location.
     */
    List<NodeSetSource> nodeSets() {
        List<NodeSetSource> sources = new ArrayList<>();
        List<Resource> resources = properties.getNodesets();
        for (int i = 0; i < resources.size(); i++) {
            Resource resource = resources.get(i);
            String model = builtInModel(resource);
            if (model != null) {
                try {
                    sources.add(StandardModels.byName(model));
                } catch (IllegalArgumentException e) {
                    throw new InvalidOpcUaServerPropertyException(key("nodesets[" + i + "]"), model,
                            "no built-in model has this name", String.join(" or ", StandardModels.names().stream()
                                    .map(n -> StandardModels.PREFIX + n).toList()));
                }
                continue;
            }
            if (resource == null || !resource.exists()) {
                throw new InvalidOpcUaServerPropertyException(key("nodesets[" + i + "]"),
                        resource == null ? null : resource.getDescription(), "no NodeSet2 file is at this location",
                        "the location of a NodeSet2 XML file, such as classpath:nodesets/Opc.Ua.Di.NodeSet2.xml or "
                                + "file:/etc/opcua/Opc.Ua.Di.NodeSet2.xml");
            }
            sources.add(new NodeSetSource(resource.getDescription(), resource::getInputStream));
        }
        return sources;
    }

    /**
     * The {@code model:NAME} location of a generated model, or null. Spring has no protocol for it:
     * such a location becomes a resource of the context or class path whose path is the location itself.
     */
    private static String builtInModel(Resource resource) {
        String path = resource instanceof ContextResource context ? context.getPathWithinContext()
                : resource instanceof ClassPathResource classPath ? classPath.getPath() : null;
        if (path != null && path.startsWith("/")) {
            path = path.substring(1);
        }
        return path != null && path.startsWith(StandardModels.PREFIX) ? path : null;
    }

    int port() {
        int port = properties.getPort();
        if (port < 0 || port > 65_535) {
            throw new InvalidOpcUaServerPropertyException(key("port"), port, "not a TCP port",
                    "0 (an ephemeral port) to 65535");
        }
        return port;
    }

    String path() {
        String path = properties.getPath();
        if (path == null || !path.startsWith("/")) {
            throw new InvalidOpcUaServerPropertyException(key("path"), path, "the path of an endpoint URL starts with '/'",
                    "a path starting with '/', such as / or /plant");
        }
        return path;
    }

    List<String> hostnames() {
        List<String> hostnames = properties.getHostnames();
        if (hostnames == null || hostnames.isEmpty()) {
            throw new InvalidOpcUaServerPropertyException(key("hostnames"), hostnames, "no host name is given",
                    "one or more host names or addresses, such as [localhost] or [line1.acme.local]");
        }
        for (int i = 0; i < hostnames.size(); i++) {
            requireText("hostnames[" + i + "]", hostnames.get(i));
        }
        return hostnames;
    }

    Duration shutdownDelay() {
        Duration delay = properties.getShutdownDelay();
        if (delay == null || delay.isNegative()) {
            throw new InvalidOpcUaServerPropertyException(key("shutdown-delay"), delay, "a delay cannot be negative",
                    "0s (close at once) or a positive duration, such as 5s");
        }
        return delay;
    }

    TransportQuotas transportQuotas() {
        OpcUaServerProperties.Transport t = properties.getTransport();
        int maxBufferSize = bytes("transport.max-buffer-size", t.getMaxBufferSize());
        if (maxBufferSize < TransportQuotas.MIN_BUFFER_SIZE) {
            throw new InvalidOpcUaServerPropertyException(key("transport.max-buffer-size"), t.getMaxBufferSize(),
                    "smaller than the smallest chunk of UA secure conversation (Part 6, 7.1.2.3)",
                    "8192B or more");
        }
        int maxMessageSize = bytes("transport.max-message-size", t.getMaxMessageSize());
        if (maxMessageSize < maxBufferSize) {
            throw new InvalidOpcUaServerPropertyException(key("transport.max-message-size"), t.getMaxMessageSize(),
                    "a message must be able to fill one chunk of max-buffer-size (" + maxBufferSize + " bytes)",
                    maxBufferSize + "B or more");
        }
        int maxChunkCount = nonNegative("transport.max-chunk-count", t.getMaxChunkCount(),
                "0 (derived from the sizes) or a positive count");
        int maxConnections = positive("limits.max-channels", properties.getLimits().getMaxChannels());
        Field[] fields = {
                new Field("operationTimeout", "transport.operation-timeout", t.getOperationTimeout()),
                new Field("maxStringLength", "transport.max-string-length", t.getMaxStringLength()),
                new Field("maxByteStringLength", "transport.max-byte-string-length", t.getMaxByteStringLength()),
                new Field("maxArrayLength", "transport.max-array-length", t.getMaxArrayLength()),
                new Field("maxEncodingNestingLevels", "transport.max-encoding-nesting-levels",
                        t.getMaxEncodingNestingLevels()),
                new Field("channelLifetime", "transport.channel-lifetime", t.getChannelLifetime()),
                new Field("helloTimeout", "transport.hello-timeout", t.getHelloTimeout()),
                new Field("securityTokenLifetime", "transport.security-token-lifetime", t.getSecurityTokenLifetime()),
                new Field("messageReceiveTimeout", "transport.message-receive-timeout", t.getMessageReceiveTimeout()),
                new Field("writeBufferHighWaterMark", "transport.write-buffer-high-water-mark",
                        t.getWriteBufferHighWaterMark()),
                new Field("writeStallTimeout", "transport.write-stall-timeout", t.getWriteStallTimeout()),
                new Field("writeBufferLimit", "transport.write-buffer-limit", t.getWriteBufferLimit())};
        positiveDuration("transport.operation-timeout", t.getOperationTimeout());
        positiveDuration("transport.channel-lifetime", t.getChannelLifetime());
        positiveDuration("transport.hello-timeout", t.getHelloTimeout());
        positiveDuration("transport.security-token-lifetime", t.getSecurityTokenLifetime());
        positiveDuration("transport.message-receive-timeout", t.getMessageReceiveTimeout());
        positiveDuration("transport.write-stall-timeout", t.getWriteStallTimeout());
        int writeBufferHighWaterMark = bytes("transport.write-buffer-high-water-mark",
                t.getWriteBufferHighWaterMark());
        int writeBufferLimit = bytes("transport.write-buffer-limit", t.getWriteBufferLimit());
        positive("transport.max-string-length", t.getMaxStringLength());
        positive("transport.max-array-length", t.getMaxArrayLength());
        positive("transport.max-encoding-nesting-levels", t.getMaxEncodingNestingLevels());
        int maxByteStringLength = bytes("transport.max-byte-string-length", t.getMaxByteStringLength());
        return stackRule(() -> TransportQuotas.builder()
                .operationTimeout(t.getOperationTimeout())
                .maxMessageSize(maxMessageSize)
                .maxBufferSize(maxBufferSize)
                .maxChunkCount(maxChunkCount)
                .maxStringLength(t.getMaxStringLength())
                .maxByteStringLength(maxByteStringLength)
                .maxArrayLength(t.getMaxArrayLength())
                .maxEncodingNestingLevels(t.getMaxEncodingNestingLevels())
                .channelLifetime(t.getChannelLifetime())
                .helloTimeout(t.getHelloTimeout())
                .securityTokenLifetime(t.getSecurityTokenLifetime())
                .maxConnections(maxConnections)
                .messageReceiveTimeout(t.getMessageReceiveTimeout())
                .writeBufferHighWaterMark(writeBufferHighWaterMark)
                .writeStallTimeout(t.getWriteStallTimeout())
                .writeBufferLimit(writeBufferLimit)
                .build(), fields);
    }

    RequestPoolSettings requestPool() {
        OpcUaServerProperties.Requests r = properties.getRequests();
        nonNegative("requests.min-threads", r.getMinThreads(), "0 or more, at most max-threads");
        positive("requests.max-threads", r.getMaxThreads());
        if (r.getMaxThreads() < r.getMinThreads()) {
            throw new InvalidOpcUaServerPropertyException(key("requests.max-threads"), r.getMaxThreads(),
                    "below " + key("requests.min-threads") + " (" + r.getMinThreads() + ")",
                    "a count of " + r.getMinThreads() + " or more, or a lower min-threads");
        }
        positive("requests.max-queued", r.getMaxQueued());
        nonNegative("requests.max-priority-queued", r.getMaxPriorityQueued(), "0 or more");
        positiveDuration("requests.max-request-age", r.getMaxRequestAge());
        positiveDuration("requests.worker-keep-alive", r.getWorkerKeepAlive());
        nonNegative("requests.max-running-per-session", r.getMaxRunningPerSession(), "0 (no bound) or more");
        nonNegative("requests.max-per-read", r.getMaxPerRead(), "0 (no bound) or more");
        return stackRule(() -> new RequestPoolSettings(r.getMinThreads(), r.getMaxThreads(), r.getMaxQueued(),
                        r.getMaxPriorityQueued(), r.getWorkerKeepAlive(), r.getMaxRequestAge(), r.isVirtualThreads(),
                        RequestPoolSettings.DEFAULT.shutdownTimeout(), r.isInlineWhenIdle(),
                        r.getMaxRunningPerSession(), r.getMaxPerRead()),
                new Field("minThreads", "requests.min-threads", r.getMinThreads()),
                new Field("maxThreads", "requests.max-threads", r.getMaxThreads()),
                new Field("maxQueued", "requests.max-queued", r.getMaxQueued()),
                new Field("maxPriorityQueued", "requests.max-priority-queued", r.getMaxPriorityQueued()),
                new Field("workerKeepAlive", "requests.worker-keep-alive", r.getWorkerKeepAlive()),
                new Field("maxRequestAge", "requests.max-request-age", r.getMaxRequestAge()),
                new Field("maxRunningPerSession", "requests.max-running-per-session", r.getMaxRunningPerSession()),
                new Field("maxRequestsPerRead", "requests.max-per-read", r.getMaxPerRead()));
    }

    SessionSettings sessionSettings() {
        OpcUaServerProperties.Limits l = properties.getLimits();
        positive("limits.max-sessions", l.getMaxSessions());
        positiveDuration("limits.min-session-timeout", l.getMinSessionTimeout());
        positiveDuration("limits.max-session-timeout", l.getMaxSessionTimeout());
        if (l.getMaxSessionTimeout().compareTo(l.getMinSessionTimeout()) < 0) {
            throw new InvalidOpcUaServerPropertyException(key("limits.max-session-timeout"), l.getMaxSessionTimeout(),
                    "below " + key("limits.min-session-timeout") + " (" + l.getMinSessionTimeout() + ")",
                    "a duration of at least min-session-timeout");
        }
        nonNegative("limits.max-failed-authentication-attempts", l.getMaxFailedAuthenticationAttempts(),
                "0 (no lock-out) or more");
        positiveDuration("limits.failed-authentication-lockout", l.getFailedAuthenticationLockout());
        return stackRule(() -> new SessionSettings(l.getMaxSessions(), l.getMinSessionTimeout(),
                        l.getMaxSessionTimeout(), l.getMaxFailedAuthenticationAttempts(),
                        l.getFailedAuthenticationLockout()),
                new Field("maxSessions", "limits.max-sessions", l.getMaxSessions()),
                new Field("minSessionTimeout", "limits.min-session-timeout", l.getMinSessionTimeout()),
                new Field("maxSessionTimeout", "limits.max-session-timeout", l.getMaxSessionTimeout()));
    }

    int maxBrowseContinuationPoints() {
        return positive("limits.max-browse-continuation-points",
                properties.getLimits().getMaxBrowseContinuationPoints());
    }

    OperationLimits operationLimits() {
        OpcUaServerProperties.Operation o = properties.getLimits().getOperation();
        String allowed = "0 (no limit) or a positive count";
        return new OperationLimits(
                nonNegative("limits.operation.max-nodes-per-read", o.getMaxNodesPerRead(), allowed),
                nonNegative("limits.operation.max-nodes-per-write", o.getMaxNodesPerWrite(), allowed),
                nonNegative("limits.operation.max-nodes-per-browse", o.getMaxNodesPerBrowse(), allowed),
                nonNegative("limits.operation.max-nodes-per-method-call", o.getMaxNodesPerMethodCall(), allowed),
                nonNegative("limits.operation.max-nodes-per-translate-browse-paths",
                        o.getMaxNodesPerTranslateBrowsePaths(), allowed),
                nonNegative("limits.operation.max-nodes-per-register-nodes", o.getMaxNodesPerRegisterNodes(), allowed),
                nonNegative("limits.operation.max-monitored-items-per-call", o.getMaxMonitoredItemsPerCall(), allowed));
    }

    SubscriptionSettings subscriptionSettings() {
        OpcUaServerProperties.Subscriptions s = properties.getSubscriptions();
        positiveDuration("subscriptions.min-publishing-interval", s.getMinPublishingInterval());
        positiveDuration("subscriptions.max-publishing-interval", s.getMaxPublishingInterval());
        String unlimited = "0 (no limit) or a positive count";
        nonNegative("subscriptions.max-monitored-items", s.getMaxMonitoredItems(), unlimited);
        nonNegative("subscriptions.max-monitored-items-per-subscription", s.getMaxMonitoredItemsPerSubscription(),
                unlimited);
        nonNegative("subscriptions.max-retransmission-queue-size", s.getMaxRetransmissionQueueSize(),
                "0 (no Republish) or a positive count");
        return stackRule(() -> SubscriptionSettings.builder()
                        .minPublishingInterval(s.getMinPublishingInterval())
                        .maxPublishingInterval(s.getMaxPublishingInterval())
                        .minKeepAliveCount(s.getMinKeepAliveCount())
                        .maxKeepAliveCount(s.getMaxKeepAliveCount())
                        .maxLifetimeCount(s.getMaxLifetimeCount())
                        .maxSubscriptions(s.getMaxSubscriptions())
                        .maxSubscriptionsPerSession(s.getMaxSubscriptionsPerSession())
                        .maxPublishRequestsPerSession(s.getMaxPublishRequestsPerSession())
                        .maxNotificationsPerPublish(s.getMaxNotificationsPerPublish())
                        .maxRetransmissionQueueSize(s.getMaxRetransmissionQueueSize())
                        .maxMonitoredItems(s.getMaxMonitoredItems())
                        .maxMonitoredItemsPerSubscription(s.getMaxMonitoredItemsPerSubscription())
                        .build(),
                new Field("minPublishingInterval", "subscriptions.min-publishing-interval", s.getMinPublishingInterval()),
                new Field("maxPublishingInterval", "subscriptions.max-publishing-interval", s.getMaxPublishingInterval()),
                new Field("minKeepAliveCount", "subscriptions.min-keep-alive-count", s.getMinKeepAliveCount()),
                new Field("maxKeepAliveCount", "subscriptions.max-keep-alive-count", s.getMaxKeepAliveCount()),
                new Field("maxLifetimeCount", "subscriptions.max-lifetime-count", s.getMaxLifetimeCount()),
                new Field("maxSubscriptions", "subscriptions.max-subscriptions", s.getMaxSubscriptions()),
                new Field("maxSubscriptionsPerSession", "subscriptions.max-subscriptions-per-session",
                        s.getMaxSubscriptionsPerSession()),
                new Field("maxPublishRequestsPerSession", "subscriptions.max-publish-requests-per-session",
                        s.getMaxPublishRequestsPerSession()),
                new Field("maxNotificationsPerPublish", "subscriptions.max-notifications-per-publish",
                        s.getMaxNotificationsPerPublish()));
    }

    MonitoredItemSettings monitoredItemSettings() {
        OpcUaServerProperties.Subscriptions s = properties.getSubscriptions();
        positiveDuration("subscriptions.min-sampling-interval", s.getMinSamplingInterval());
        positiveDuration("subscriptions.max-sampling-interval", s.getMaxSamplingInterval());
        if (s.getMaxSamplingInterval().compareTo(s.getMinSamplingInterval()) < 0) {
            throw new InvalidOpcUaServerPropertyException(key("subscriptions.max-sampling-interval"),
                    s.getMaxSamplingInterval(), "below " + key("subscriptions.min-sampling-interval") + " ("
                            + s.getMinSamplingInterval() + ")", "a duration of at least min-sampling-interval");
        }
        positive("subscriptions.max-notification-queue-size", s.getMaxNotificationQueueSize());
        positive("subscriptions.min-event-queue-size", s.getMinEventQueueSize());
        if (s.getDefaultEventQueueSize() < s.getMinEventQueueSize()) {
            throw new InvalidOpcUaServerPropertyException(key("subscriptions.default-event-queue-size"),
                    s.getDefaultEventQueueSize(), "below min-event-queue-size (" + s.getMinEventQueueSize() + ")",
                    "min-event-queue-size <= default-event-queue-size <= max-event-queue-size");
        }
        if (s.getMaxEventQueueSize() < s.getDefaultEventQueueSize()) {
            throw new InvalidOpcUaServerPropertyException(key("subscriptions.max-event-queue-size"),
                    s.getMaxEventQueueSize(), "below default-event-queue-size (" + s.getDefaultEventQueueSize() + ")",
                    "min-event-queue-size <= default-event-queue-size <= max-event-queue-size");
        }
        return new MonitoredItemSettings(millis(s.getMinSamplingInterval()), millis(s.getMaxSamplingInterval()),
                s.getMaxNotificationQueueSize(), s.getMinEventQueueSize(), s.getDefaultEventQueueSize(),
                s.getMaxEventQueueSize());
    }

    /** The security policy and mode pairs offered; see {@link OpcUaServerProperties.Security#getPolicies()}. */
    List<EndpointSecurity> endpointSecurity(boolean pkiAvailable) {
        OpcUaServerProperties.Security security = properties.getSecurity();
        List<SecurityPolicy> policies = policies(security.getPolicies(), pkiAvailable);
        List<MessageSecurityMode> modes = modes(security.getModes());
        boolean secured = policies.stream().anyMatch(policy -> policy != SecurityPolicy.None);
        if (secured && modes.isEmpty()) {
            throw new InvalidOpcUaServerPropertyException(key("security.modes"), security.getModes(),
                    "policies other than None need at least one mode", "Sign, SignAndEncrypt");
        }
        if (secured && !pkiAvailable) {
            throw new InvalidOpcUaServerPropertyException(key("security.policies"), security.getPolicies(),
                    "policies other than None need a PKI directory: the application certificate and the trust list of"
                            + " client certificates",
                    "[None], or these policies together with " + key("security.pki-dir"));
        }
        List<EndpointSecurity> pairs = new ArrayList<>();
        for (SecurityPolicy policy : policies) {
            if (policy == SecurityPolicy.None) {
                pairs.add(EndpointSecurity.NONE);
            } else {
                modes.forEach(mode -> pairs.add(new EndpointSecurity(policy, mode)));
            }
        }
        return List.copyOf(pairs);
    }

    private static List<SecurityPolicy> policies(List<String> names, boolean pkiAvailable) {
        if (names == null) {
            return pkiAvailable ? DEFAULT_SECURE_POLICIES : List.of(SecurityPolicy.None);
        }
        String allowed = Arrays.stream(SecurityPolicy.values()).map(Enum::name).collect(Collectors.joining(", "))
                + " (or their URIs, http://opcfoundation.org/UA/SecurityPolicy#...)";
        if (names.isEmpty()) {
            throw new InvalidOpcUaServerPropertyException(key("security.policies"), names,
                    "no security policy is listed", "one or more of " + allowed);
        }
        Set<SecurityPolicy> policies = new LinkedHashSet<>();
        for (int i = 0; i < names.size(); i++) {
            String name = names.get(i);
            SecurityPolicy policy = name == null ? null : SecurityPolicy.fromNameOrUri(name.trim());
            if (policy == null) {
                throw new InvalidOpcUaServerPropertyException(key("security.policies[" + i + "]"), name,
                        "not a security policy of this server", allowed);
            }
            policies.add(policy);
        }
        return List.copyOf(policies);
    }

    private static List<MessageSecurityMode> modes(List<String> names) {
        String allowed = "Sign, SignAndEncrypt (the None mode comes with policy None in " + key("security.policies")
                + ")";
        List<MessageSecurityMode> modes = new ArrayList<>();
        List<String> given = names == null ? List.of() : names;
        for (int i = 0; i < given.size(); i++) {
            String name = given.get(i) == null ? "" : given.get(i).trim();
            MessageSecurityMode mode;
            if (name.equalsIgnoreCase("Sign")) {
                mode = MessageSecurityMode.Sign;
            } else if (name.equalsIgnoreCase("SignAndEncrypt")) {
                mode = MessageSecurityMode.SignAndEncrypt;
            } else {
                throw new InvalidOpcUaServerPropertyException(key("security.modes[" + i + "]"), given.get(i),
                        "not a message security mode for secured policies", allowed);
            }
            if (!modes.contains(mode)) {
                modes.add(mode);
            }
        }
        return modes;
    }

    ValidationOptions validationOptions() {
        OpcUaServerProperties.Security security = properties.getSecurity();
        nonNegative("security.min-key-size", security.getMinKeySize(), "0 or a key size in bits, such as 2048");
        if (security.isAutoAcceptUntrusted()) {
            log.warn("opcua.server.security.auto-accept-untrusted is true: the OPC UA server accepts client"
                    + " certificates that nobody trusted. Use it for development only");
        }
        return ValidationOptions.builder()
                .minKeyBits(security.getMinKeySize())
                .rejectSha1Signed(security.isRejectSha1Signed())
                .autoAcceptUntrusted(security.isAutoAcceptUntrusted())
                .build();
    }

    int certificateKeySize() {
        int keySize = properties.getSecurity().getCertificate().getKeySize();
        if (keySize < 2048 || keySize > 8192 || keySize % 1024 != 0) {
            throw new InvalidOpcUaServerPropertyException(key("security.certificate.key-size"), keySize,
                    "not an RSA key size the certificate builder creates", "2048, 3072, 4096, 5120, 6144, 7168 or 8192");
        }
        return keySize;
    }

    Duration certificateValidity() {
        Period validity = properties.getSecurity().getCertificate().getValidity();
        if (validity == null || validity.isNegative() || validity.isZero()) {
            throw new InvalidOpcUaServerPropertyException(key("security.certificate.validity"), validity,
                    "a certificate must be valid for some time", "a positive period, such as 5y, 365d or P2Y6M");
        }
        // a period in years or months is as long as it is from now on, leap days included
        ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
        return Duration.between(now, now.plus(validity));
    }

    /** The certificate of the SSL bundle, of pem-certificate / pem-private-key or of the key store; null when none is set. */
    ApplicationCertificate applicationCertificate() {
        OpcUaServerProperties.Certificate c = properties.getSecurity().getCertificate();
        if (c.getBundle() != null) {
            boolean filesSet = c.getPemCertificate() != null || c.getPemPrivateKey() != null || c.getKeystore() != null;
            return SslBundleCertificates.load(CHECKS, "security.certificate", c.getBundle(), filesSet, sslBundles);
        }
        return CHECKS.certificate("security.certificate", c.getPemCertificate(), c.getPemPrivateKey(),
                c.getPemPrivateKeyPassword(), c.getKeystore(), c.getKeystorePassword(), c.getAlias());
    }

    /** {@code access.namespaces}: the DefaultRolePermissions of each namespace listed. */
    void applyAccess(OpcUaServer.Builder builder) {
        List<OpcUaServerProperties.NamespaceAccess> namespaces = properties.getAccess().getNamespaces();
        for (int i = 0; i < namespaces.size(); i++) {
            OpcUaServerProperties.NamespaceAccess namespace = namespaces.get(i);
            String prefix = "access.namespaces[" + i + "]";
            String uri = requireText(prefix + ".uri", namespace.getUri());
            NodePermissions.Builder permissions = NodePermissions.builder();
            for (Map.Entry<String, List<String>> grant : namespace.getPermissions().entrySet()) {
                String roleKey = prefix + ".permissions." + grant.getKey();
                WellKnownRole role = parse(roleKey, grant.getKey(), WellKnownRole::parse, "a well-known role: "
                        + Arrays.stream(WellKnownRole.values()).map(WellKnownRole::browseName).toList());
                List<String> names = grant.getValue() == null ? List.of() : grant.getValue();
                for (int j = 0; j < names.size(); j++) {
                    permissions.grant(role, parse(roleKey + "[" + j + "]", names.get(j), Permission::parse,
                            "a permission: " + Arrays.stream(Permission.values()).map(Permission::specName).toList()));
                }
            }
            builder.defaultPermissions(uri, permissions.build());
        }
    }

    /**
     * The {@link RoleMapper} of {@code identity.users[].roles}: Anonymous and AuthenticatedUser as
     * the specification grants them, and each user's configured roles.
     */
    RoleMapper roleMapper() {
        List<OpcUaServerProperties.User> users = properties.getIdentity().getUsers();
        Map<String, Set<WellKnownRole>> roles = new HashMap<>();
        for (int i = 0; i < users.size(); i++) {
            OpcUaServerProperties.User user = users.get(i);
            Set<WellKnownRole> granted = EnumSet.noneOf(WellKnownRole.class);
            List<String> names = user.getRoles() == null ? List.of() : user.getRoles();
            for (int j = 0; j < names.size(); j++) {
                granted.add(parse("identity.users[" + i + "].roles[" + j + "]", names.get(j), WellKnownRole::parse,
                        "a well-known role: " + Arrays.stream(WellKnownRole.values())
                                .map(WellKnownRole::browseName).toList()));
            }
            if (user.getUsername() != null) {
                roles.put(user.getUsername(), granted);
            }
        }
        return RoleMapper.byUserName(roles);
    }

    /** @param allowed "a well-known role: [...]", whose part before ':' names what the value is not */
    private static <T> T parse(String suffix, String value, java.util.function.Function<String, T> parser,
            String allowed) {
        try {
            return parser.apply(value);
        } catch (IllegalArgumentException e) {
            throw new InvalidOpcUaServerPropertyException(key(suffix), value,
                    "it is not " + allowed.substring(0, allowed.indexOf(':')), allowed);
        }
    }

    private static String usernames(OpcUaServerProperties.Identity identity) {
        return identity.getUsers().stream().map(OpcUaServerProperties.User::getUsername)
                .collect(Collectors.joining(", ", "[", "]"));
    }

    static String key(String suffix) {
        return PREFIX + "." + suffix;
    }

    private static String requireText(String suffix, String value) {
        if (value == null || value.isBlank()) {
            throw new InvalidOpcUaServerPropertyException(key(suffix), value, "it is empty", "a non-empty text");
        }
        return value;
    }

    private static int positive(String suffix, int value) {
        if (value < 1) {
            throw new InvalidOpcUaServerPropertyException(key(suffix), value, "it must be positive",
                    "a count of 1 or more");
        }
        return value;
    }

    private static int nonNegative(String suffix, int value, String allowed) {
        if (value < 0) {
            throw new InvalidOpcUaServerPropertyException(key(suffix), value, "it must not be negative", allowed);
        }
        return value;
    }

    private static void positiveDuration(String suffix, Duration value) {
        if (value == null || value.isNegative() || value.isZero()) {
            throw new InvalidOpcUaServerPropertyException(key(suffix), value, "it must be positive", POSITIVE_DURATION);
        }
    }

    private static int bytes(String suffix, DataSize size) {
        if (size == null || size.isNegative() || size.toBytes() == 0 || size.toBytes() > Integer.MAX_VALUE) {
            throw new InvalidOpcUaServerPropertyException(key(suffix), size,
                    size == null || size.toBytes() <= 0 ? "it must be positive" : "larger than 2GB - 1",
                    POSITIVE_SIZE + ", below 2GB");
        }
        return (int) size.toBytes();
    }

    private static double millis(Duration duration) {
        return duration.toNanos() / 1e6;
    }

    /** A property and the name the stack's settings give the same value, to name it in the stack's errors. */
    record Field(String stackName, String suffix, Object value) {
    }

    /**
     * Runs a stack constructor; its {@link IllegalArgumentException} (naming its own field) becomes an
     * {@link InvalidOpcUaServerPropertyException} naming the first property the message mentions.
     */
    static <T> T stackRule(Supplier<T> build, Field... fields) {
        try {
            return build.get();
        } catch (IllegalArgumentException | NullPointerException e) {
            String message = String.valueOf(e.getMessage());
            Field named = null;
            int first = Integer.MAX_VALUE;
            for (Field field : fields) {
                Matcher m = Pattern.compile("\\b" + Pattern.quote(field.stackName()) + "\\b").matcher(message);
                if (m.find() && m.start() < first) {
                    first = m.start();
                    named = field;
                }
            }
            String key = named != null ? key(named.suffix()) : PREFIX;
            Object value = named != null ? named.value() : null;
            throw new InvalidOpcUaServerPropertyException(key, value, "the stack refuses it: " + message,
                    "a value that satisfies the rule in the reason (see docs/CONFIGURATION.md)", e);
        }
    }
}
