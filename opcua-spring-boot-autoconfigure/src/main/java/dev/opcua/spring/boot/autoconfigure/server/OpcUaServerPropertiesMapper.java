package dev.opcua.spring.boot.autoconfigure.server;

import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.spring.boot.autoconfigure.diagnostics.StackErrors;
import dev.opcua.spring.boot.autoconfigure.ssl.SslBundleCertificates;
import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.redundancy.RedundancyPartner;
import dev.opcua.stack.server.redundancy.RedundancySettings;
import dev.opcua.stack.server.models.StandardModels;
import dev.opcua.stack.server.nodeset.NodeSetSource;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.RoleMapper;
import dev.opcua.stack.server.roles.WellKnownRole;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.services.nodemanagement.NodeManagementSettings;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.io.ContextResource;
import org.springframework.core.io.Resource;

/**
 * Turns {@link OpcUaServerProperties} into the settings of {@link OpcUaServer.Builder}. Ranges of single
 * values are Bean Validation constraints on the properties, checked when they are bound; this class
 * checks what joins several properties or reads files, and reports what the stack refuses through
 * {@link StackErrors}: an {@code InvalidSettingException} against the key that {@link OpcUaServerSettingKeys}
 * gives its setting, any other error against no key.
 */
final class OpcUaServerPropertiesMapper {

    static final String PREFIX = "opcua.server";

    /** Offered when {@code security.policies} is not set and a PKI directory provides a certificate. */
    static final List<SecurityPolicy> DEFAULT_SECURE_POLICIES = List.of(SecurityPolicy.Basic256Sha256,
            SecurityPolicy.Aes128_Sha256_RsaOaep, SecurityPolicy.Aes256_Sha256_RsaPss);

    private static final Log log = LogFactory.getLog(OpcUaServerPropertiesMapper.class);

    private static final PropertyChecks CHECKS = new PropertyChecks(PREFIX, InvalidOpcUaServerPropertyException::new);

    private final OpcUaServerProperties properties;
    private final SslBundles sslBundles;
    private final StackErrors stack;

    OpcUaServerPropertiesMapper(OpcUaServerProperties properties) {
        this(properties, null);
    }

    /** @param sslBundles the application's SSL bundles, for {@code security.certificate.bundle}; may be null */
    OpcUaServerPropertiesMapper(OpcUaServerProperties properties, SslBundles sslBundles) {
        this.properties = properties;
        this.sslBundles = sslBundles;
        this.stack = new StackErrors(CHECKS, OpcUaServerSettingKeys.KEYS, properties);
    }

    /**
     * Applies every property except the identities to {@code builder}.
     *
     * @param pki the PKI directory of the server, or null when none is configured
     */
    void applyTo(OpcUaServer.Builder builder, PkiDirectory pki) {
        OpcUaServerProperties p = properties;
        OpcUaServerProperties.Transport t = p.getTransport();
        OperationLimits operationLimits = operationLimits();
        builder.auditing(p.isAuditing());
        stack.call(() -> builder.applicationName(p.getApplicationName())
                .applicationUri(p.getApplicationUri())
                .productUri(p.getProductUri())
                .bindAddress(p.getBindAddress())
                .port(p.getPort())
                .path(p.getPath())
                .hostnames(p.getHostnames())
                .transportQuotas(transportQuotas())
                .ioThreads(t.getIoThreads())
                .readsPerTurn(t.getReadsPerTurn())
                .requestPool(requestPool())
                .sessionSettings(sessionSettings())
                .operationLimits(operationLimits)
                .browseLimits(operationLimits.maxNodesPerBrowse(), p.getLimits().getMaxBrowseContinuationPoints())
                .maxBrowsePathElements(p.getLimits().getMaxBrowsePathElements())
                .subscriptionSettings(subscriptionSettings())
                .monitoredItemSettings(monitoredItemSettings())
                .security(endpointSecurity(pki != null))
                .certificateParameters(p.getSecurity().getCertificate().getKeySize(), certificateValidity()));
        OpcUaServerProperties.ReverseConnect reverse = p.getReverseConnect();
        if (!reverse.getClients().isEmpty()) {
            stack.call(() -> builder.reverseConnect(reverse.getClients(), reverse.getRetryInterval(),
                    reverse.getReadyConnections()));
        }
        builder.redundancy(redundancySettings());
        OpcUaServerProperties.PartnerMonitor monitor = p.getRedundancy().getPartnerMonitor();
        builder.partnerMonitor(stack.call(() -> new dev.opcua.stack.server.redundancy.PartnerMonitorSettings(
                monitor.isEnabled(), monitor.getInterval(), monitor.getRequestTimeout())));
        if (p.getRedundancy().getMode() == dev.opcua.stack.server.redundancy.RedundancyMode.HotAndMirrored) {
            stack.call(() -> builder.sessionMirrorSettings(dev.opcua.stack.server.redundancy.SessionMirrorSettings
                    .DEFAULT.withInterval(p.getRedundancy().getStateStore().getMirrorInterval())
                    .withStandbyWindow(p.getRedundancy().getStateStore().getStandbyWindow())));
        }
        nodeSets().forEach(builder::nodeSet);
        ValidationOptions validation = validationOptions();
        builder.certificateValidation(validation);
        OpcUaServerProperties.Certificate certificate = p.getSecurity().getCertificate();
        ApplicationCertificate loaded = applicationCertificate();
        if (loaded != null) {
            builder.certificate(loaded);
        }
        if (pki != null) {
            builder.pki(pki);
        }
        OpcUaServerProperties.PushManagement push = p.getSecurity().getPushManagement();
        stack.call(() -> builder.pushManagement(push.isEnabled())
                .maxTrustListSize((int) push.getMaxTrustListSize().toBytes()));
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
        builder.nodeManagement(nodeManagement());
        if (certificate.getKeystore() == null && certificate.getPemCertificate() == null && pki == null
                && p.getSecurity().getPolicies() == null) {
            log.warn("OPC UA server offers SecurityPolicy None only: messages and passwords cross the network"
                    + " unprotected. Set opcua.server.security.pki-dir to offer " + DEFAULT_SECURE_POLICIES
                    + " instead, or list the policies in opcua.server.security.policies");
        }
    }

    /**
     * Builds the server; a rule of the stack's builder that the configuration breaks is reported against
     * the property of the setting it names, or against no property.
     */
    OpcUaServer build(OpcUaServer.Builder builder) {
        return stack.call(builder::build);
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
     * The {@code model:NAME} location of a generated model, or null. In an application,
     * {@link BuiltInModelProtocolResolver} makes it a {@link BuiltInModelResource}; in a context without the
     * resolver (a test's context runner) it becomes a resource of the context or class path whose path is the
     * location itself.
     */
    private static String builtInModel(Resource resource) {
        if (resource instanceof BuiltInModelResource model) {
            return model.location();
        }
        String path = resource instanceof ContextResource context ? context.getPathWithinContext()
                : resource instanceof ClassPathResource classPath ? classPath.getPath() : null;
        if (path != null && path.startsWith("/")) {
            path = path.substring(1);
        }
        return path != null && path.startsWith(StandardModels.PREFIX) ? path : null;
    }

    TransportQuotas transportQuotas() {
        OpcUaServerProperties.Transport t = properties.getTransport();
        return stack.call(() -> t.applyTo(TransportQuotas.builder(), CHECKS)
                .operationTimeout(t.getOperationTimeout())
                .channelLifetime(t.getChannelLifetime())
                .helloTimeout(t.getHelloTimeout())
                .maxConnections(properties.getLimits().getMaxChannels())
                .messageReceiveTimeout(t.getMessageReceiveTimeout())
                .writeBufferHighWaterMark(CHECKS.bytes("transport.write-buffer-high-water-mark",
                        t.getWriteBufferHighWaterMark()))
                .writeStallTimeout(t.getWriteStallTimeout())
                .writeBufferLimit(CHECKS.bytes("transport.write-buffer-limit", t.getWriteBufferLimit()))
                .build());
    }

    RequestPoolSettings requestPool() {
        OpcUaServerProperties.Requests r = properties.getRequests();
        return stack.call(() -> new RequestPoolSettings(r.getMinThreads(), r.getMaxThreads(), r.getMaxQueued(),
                r.getMaxPriorityQueued(), r.getWorkerKeepAlive(), r.getMaxRequestAge(), r.isVirtualThreads(),
                RequestPoolSettings.DEFAULT.shutdownTimeout(), r.isInlineWhenIdle(), r.getMaxRunningPerSession(),
                r.getMaxPerRead()));
    }

    SessionSettings sessionSettings() {
        OpcUaServerProperties.Limits l = properties.getLimits();
        return stack.call(() -> new SessionSettings(l.getMaxSessions(), l.getMinSessionTimeout(),
                l.getMaxSessionTimeout(), l.getMaxFailedAuthenticationAttempts(), l.getFailedAuthenticationLockout()));
    }

    OperationLimits operationLimits() {
        OpcUaServerProperties.Operation o = properties.getLimits().getOperation();
        return stack.call(() -> new OperationLimits(o.getMaxNodesPerRead(), o.getMaxNodesPerWrite(),
                o.getMaxNodesPerBrowse(), o.getMaxNodesPerMethodCall(), o.getMaxNodesPerTranslateBrowsePaths(),
                o.getMaxNodesPerRegisterNodes(), o.getMaxMonitoredItemsPerCall(), o.getMaxNodesPerNodeManagement()));
    }

    SubscriptionSettings subscriptionSettings() {
        OpcUaServerProperties.Subscriptions s = properties.getSubscriptions();
        return stack.call(() -> SubscriptionSettings.builder()
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
                .maxDurableLifetime(s.getMaxDurableLifetime())
                .maxDurableQueueSize(s.getMaxDurableQueueSize())
                .durableSavePeriod(s.getDurableSavePeriod())
                .build());
    }

    MonitoredItemSettings monitoredItemSettings() {
        OpcUaServerProperties.Subscriptions s = properties.getSubscriptions();
        return stack.call(() -> new MonitoredItemSettings(millis(s.getMinSamplingInterval()),
                millis(s.getMaxSamplingInterval()), s.getMaxNotificationQueueSize(), s.getMinEventQueueSize(),
                s.getDefaultEventQueueSize(), s.getMaxEventQueueSize()));
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
        if (security.isAutoAcceptUntrusted()) {
            log.warn("opcua.server.security.auto-accept-untrusted is true: the OPC UA server accepts client"
                    + " certificates that nobody trusted. Use it for development only");
        }
        return stack.call(() -> ValidationOptions.builder()
                .minKeyBits(security.getMinKeySize())
                .rejectSha1Signed(security.isRejectSha1Signed())
                .autoAcceptUntrusted(security.isAutoAcceptUntrusted())
                .build());
    }

    /** {@code security.certificate.validity} as a duration: a period in years or months is as long as from now on. */
    Duration certificateValidity() {
        Period validity = properties.getSecurity().getCertificate().getValidity();
        if (validity == null) {
            return null;
        }
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

    /**
     * {@code node-management.*}: whether the NodeManagement services are offered, and to which roles in which
     * namespaces; a role that is no well-known role, or none while enabled, stops the start naming the key.
     */
    NodeManagementSettings nodeManagement() {
        OpcUaServerProperties.NodeManagement m = properties.getNodeManagement();
        List<String> names = m.getRoles() == null ? List.of() : m.getRoles();
        Set<WellKnownRole> roles = EnumSet.noneOf(WellKnownRole.class);
        for (int i = 0; i < names.size(); i++) {
            roles.add(parse("node-management.roles[" + i + "]", names.get(i), WellKnownRole::parse,
                    "a well-known role: " + Arrays.stream(WellKnownRole.values()).map(WellKnownRole::browseName)
                            .toList()));
        }
        Set<String> namespaces = new LinkedHashSet<>();
        List<String> uris = m.getNamespaces() == null ? List.of() : m.getNamespaces();
        for (int i = 0; i < uris.size(); i++) {
            namespaces.add(CHECKS.requireText("node-management.namespaces[" + i + "]", uris.get(i), "a namespace URI"));
        }
        Path directory = m.isEnabled() ? persistDirectory(m.getPersistDir()) : null;
        return stack.call(() -> new NodeManagementSettings(m.isEnabled(), roles, namespaces, directory));
    }

    /** {@code node-management.persist-dir}, created when missing; null when not set. */
    private static Path persistDirectory(Path directory) {
        if (directory == null || directory.toString().isBlank()) {
            return null;
        }
        try {
            Files.createDirectories(directory);
        } catch (IOException | RuntimeException e) {
            throw CHECKS.invalid("node-management.persist-dir", directory, "the directory cannot be created: " + e,
                    "a writable directory, such as data/nodes", e);
        }
        if (!Files.isWritable(directory)) {
            throw CHECKS.invalid("node-management.persist-dir", directory, "the directory is not writable",
                    "a writable directory, such as data/nodes");
        }
        return directory;
    }

    /** {@code access.namespaces}: the DefaultRolePermissions of each namespace listed. */
    void applyAccess(OpcUaServer.Builder builder) {
        List<OpcUaServerProperties.NamespaceAccess> namespaces = properties.getAccess().getNamespaces();
        for (int i = 0; i < namespaces.size(); i++) {
            OpcUaServerProperties.NamespaceAccess namespace = namespaces.get(i);
            String prefix = "access.namespaces[" + i + "]";
            String uri = CHECKS.requireText(prefix + ".uri", namespace.getUri(), "a namespace URI");
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

    /**
     * {@code redundancy.*} as the stack's settings: each partner checked against its own keys ({@code
     * redundancy.partners[i].server-uri}, {@code .endpoint-url}), a partner with this server's own application-uri
     * (a pair configured with itself) refused, then the whole set (mode, duplicates) by the stack.
     */
    RedundancySettings redundancySettings() {
        OpcUaServerProperties.Redundancy redundancy = properties.getRedundancy();
        List<RedundancyPartner> partners = new ArrayList<>();
        List<OpcUaServerProperties.Partner> given = redundancy.getPartners();
        for (int i = 0; i < given.size(); i++) {
            OpcUaServerProperties.Partner partner = given.get(i);
            String prefix = "redundancy.partners[" + i + "].";
            if (partner.getServerUri() != null && partner.getServerUri().equals(properties.getApplicationUri())) {
                throw new InvalidOpcUaServerPropertyException(key(prefix + "server-uri"), partner.getServerUri(),
                        "it is this server's own application-uri: a pair configured with itself",
                        "the application-uri of another server of the redundant set");
            }
            String self = partner.getEndpointUrl() == null ? null : selfReason(partner.getEndpointUrl());
            if (self != null) {
                throw new InvalidOpcUaServerPropertyException(key(prefix + "endpoint-url"), partner.getEndpointUrl(),
                        "it " + self.substring(self.indexOf("is this server's own")),
                        "the endpoint URL of another server of the redundant set");
            }
            try {
                partners.add(new RedundancyPartner(partner.getServerUri(), partner.getEndpointUrl()));
            } catch (InvalidSettingException e) {
                boolean uri = e.setting().endsWith("serverUri");
                throw new InvalidOpcUaServerPropertyException(key(prefix + (uri ? "server-uri" : "endpoint-url")),
                        e.value(), "it " + e.rule(), uri ? "the partner's application-uri"
                                : "an endpoint URL opc.tcp://host:port[/path]", e);
            }
        }
        return stack.call(() -> new RedundancySettings(redundancy.getMode(), null, partners));
    }

    /** Why the endpoint is this server's own (port and host name), or null; an unparsable URL is the stack's to name. */
    private String selfReason(String endpointUrl) {
        try {
            return dev.opcua.stack.server.redundancy.SelfPartnerCheck.selfReason(endpointUrl, properties.getPort(),
                    properties.getBindAddress(), properties.getHostnames());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** @param allowed "a well-known role: [...]", whose part before ':' names what the value is not */
    private static <T> T parse(String suffix, String value, Function<String, T> parser,
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

    private static double millis(Duration duration) {
        return duration.toNanos() / 1e6;
    }
}
