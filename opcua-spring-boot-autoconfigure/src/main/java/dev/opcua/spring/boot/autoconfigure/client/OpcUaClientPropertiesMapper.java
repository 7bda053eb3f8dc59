package dev.opcua.spring.boot.autoconfigure.client;

import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.spring.boot.autoconfigure.diagnostics.StackErrors;
import dev.opcua.spring.boot.autoconfigure.ssl.SslBundleCertificates;
import dev.opcua.spring.boot.autoconfigure.transport.TransportQuotaProperties;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.OpcUaClientConfig.WhileReconnecting;
import dev.opcua.stack.client.redundancy.RedundancyConfig;
import dev.opcua.stack.client.redundancy.RedundancyMode;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.transport.ReverseConnectListener;
import dev.opcua.stack.client.subscriptions.SubscriptionSettings;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.boot.ssl.SslBundles;

/**
 * Turns one {@link OpcUaClientProperties.Connection} into an {@link OpcUaClientConfig.Builder}. Ranges
 * of single values are constraints checked when the properties are bound; this class parses names and
 * certificates, and reports what the stack refuses against the key ({@code
 * opcua.client.connections.<name>.<key>}) that {@link #SETTING_KEYS} gives the stack's setting, or
 * against the connection as a whole when the error names no setting.
 */
final class OpcUaClientPropertiesMapper {

    static final String CONNECTIONS = "opcua.client.connections";

    /** The property under the connection of each stack setting the properties set. */
    static final Map<String, String> SETTING_KEYS = settingKeys();

    private static final String POLICIES = Arrays.stream(SecurityPolicy.values()).map(Enum::name)
            .collect(Collectors.joining(", ")) + " (or their URIs, http://opcfoundation.org/UA/SecurityPolicy#...)";

    private final String name;
    private final OpcUaClientProperties.Connection connection;
    private final PropertyChecks checks;
    private final StackErrors stack;

    private final SslBundles sslBundles;
    private final ReverseConnectListener reverseConnectListener;

    OpcUaClientPropertiesMapper(String name, OpcUaClientProperties.Connection connection) {
        this(name, connection, null, null);
    }

    /**
     * @param sslBundles the application's SSL bundles, for {@code certificate.bundle}; may be null
     * @param reverseConnectListener the listener of the connection's {@code reverse-connect.listen-port}; null
     *        for a connection that dials its server
     */
    OpcUaClientPropertiesMapper(String name, OpcUaClientProperties.Connection connection, SslBundles sslBundles,
            ReverseConnectListener reverseConnectListener) {
        this.name = name;
        this.connection = connection;
        this.sslBundles = sslBundles;
        this.reverseConnectListener = reverseConnectListener;
        this.checks = new PropertyChecks(CONNECTIONS + "." + name, (key, value, reason, allowed, cause) ->
                new InvalidOpcUaClientPropertyException(name, key, value, reason, allowed, cause));
        this.stack = new StackErrors(checks, SETTING_KEYS, connection);
    }

    /** The configuration of this connection as the properties give it, for customizers to change. */
    OpcUaClientConfig.Builder builder() {
        OpcUaClientProperties.Connection c = connection;
        OpcUaClientConfig.Builder builder = OpcUaClientConfig.builder(checks.requireText("endpoint-url",
                c.getEndpointUrl(), "an opc.tcp URL with host and port, such as opc.tcp://plc1.acme.local:4840/"));
        builder.security(policy(), mode());
        if (c.getAllowedSecurityPolicies() != null) {
            builder.allowedSecurityPolicies(allowedPolicies());
        }
        builder.identity(identity());
        builder.applicationName(checks.requireText("application-name", c.getApplicationName(), "a name, such as Line 1 MES"));
        builder.applicationUri(c.getApplicationUri());
        builder.productUri(c.getProductUri());
        builder.sessionName(c.getSessionName() != null ? c.getSessionName() : c.getApplicationName() + " " + name);
        if (c.getPkiDir() != null) {
            builder.pkiDir(c.getPkiDir());
        }
        ApplicationCertificate own = certificate("certificate", c.getCertificate());
        if (own != null) {
            builder.certificate(own);
        }
        builder.acceptAnyServerCertificate(c.isAcceptAnyServerCertificate());
        // the application's listener beans may block (a repository, a blocking call of the client): off the I/O thread
        builder.listenersOnCallbackThreads();
        reverseConnect(builder);
        redundancy(builder);
        Duration requestTimeout = c.getRequestTimeout();
        stack.call(() -> builder.requestTimeout(requestTimeout)
                .sessionTimeout(c.getSessionTimeout())
                .keepAliveInterval(c.getKeepAlive().getInterval())
                .keepAliveFailuresAllowed(c.getKeepAlive().getFailuresAllowed())
                .reconnectDelays(c.getReconnect().getInitialDelay(), c.getReconnect().getMaxDelay())
                .whileReconnecting(whileReconnecting())
                .maxWaitingRequests(c.getReconnect().getMaxWaitingRequests())
                // a fail-fast connection fails start-up at once; any other keeps trying while the server is down
                .keepTryingToConnect(!c.isFailFast())
                .quotas(quotas(requestTimeout))
                .subscriptionSettings(subscriptionSettings(requestTimeout)));
        return builder;
    }

    /**
     * Builds the configuration; a rule of the client's builder that the configuration breaks is reported
     * against the property of the setting it names, or against the connection as a whole.
     */
    OpcUaClientConfig build(OpcUaClientConfig.Builder builder) {
        return stack.call(builder::build);
    }

    /**
     * Reverse connect (Part 6, 7.1.3): every channel, GetEndpoints' and the session's, and each after a lost
     * connection, is opened over the next connection of the server to the listener, whose ReverseHello must name
     * the connection's endpoint-url.
     */
    private void reverseConnect(OpcUaClientConfig.Builder builder) {
        OpcUaClientProperties.ReverseConnect reverse = connection.getReverseConnect();
        if (!reverse.isListening()) {
            return;
        }
        if (reverseConnectListener == null) {
            throw checks.invalid("reverse-connect.listen-port", reverse.getListenPort(),
                    "no reverse-connect listener is open for this connection (the application's own "
                            + "OpcUaReverseConnectListeners bean has none for it)",
                    "a listener for the connection in that bean, or no OpcUaReverseConnectListeners bean of the "
                            + "application's");
        }
        builder.reverseConnect(reverseConnectListener, checks.requireText("reverse-connect.server-uri",
                reverse.getServerUri(), "the ApplicationUri of the server that dials in"));
    }

    private SecurityPolicy policy() {
        String value = connection.getSecurityPolicy();
        if (value == null) {
            return null;
        }
        SecurityPolicy policy = SecurityPolicy.fromNameOrUri(value.trim());
        if (policy == null) {
            throw checks.invalid("security-policy", value, "not a security policy of this client",
                    POLICIES + "; or unset for the most secure one allowed");
        }
        return policy;
    }

    private MessageSecurityMode mode() {
        String value = connection.getSecurityMode();
        if (value == null) {
            return null;
        }
        for (MessageSecurityMode mode : List.of(MessageSecurityMode.None, MessageSecurityMode.Sign,
                MessageSecurityMode.SignAndEncrypt)) {
            if (mode.name().equalsIgnoreCase(value.trim())) {
                return mode;
            }
        }
        throw checks.invalid("security-mode", value, "not a message security mode",
                "None, Sign, SignAndEncrypt; or unset for the most secure one offered");
    }

    private Set<SecurityPolicy> allowedPolicies() {
        List<String> names = connection.getAllowedSecurityPolicies();
        Set<SecurityPolicy> policies = EnumSet.noneOf(SecurityPolicy.class);
        for (int i = 0; i < names.size(); i++) {
            SecurityPolicy policy = names.get(i) == null ? null : SecurityPolicy.fromNameOrUri(names.get(i).trim());
            if (policy == null) {
                throw checks.invalid("allowed-security-policies[" + i + "]", names.get(i),
                        "not a security policy of this client", POLICIES);
            }
            policies.add(policy);
        }
        return policies;
    }

    private ClientIdentity identity() {
        OpcUaClientProperties.Connection c = connection;
        OpcUaClientProperties.Certificate user = c.getUserCertificate();
        if (c.getUsername() != null && user.isSet()) {
            throw checks.invalid("user-certificate", user.getPemCertificate() != null ? user.getPemCertificate()
                    : user.getKeystore(), "username is set too, and a session has one identity",
                    "either username with password, or user-certificate, or neither (anonymous)");
        }
        if (c.getUsername() != null) {
            checks.requireText("username", c.getUsername(), "a user name, with password");
            if (c.getPassword() == null) {
                throw checks.invalid("password", null, "username '" + c.getUsername() + "' is set without a password",
                        "the password of the user");
            }
            return ClientIdentity.userName(c.getUsername(), c.getPassword());
        }
        if (c.getPassword() != null) {
            throw checks.invalid("username", null, "a password is set without a user name",
                    "the user name the password belongs to");
        }
        ApplicationCertificate certificate = certificate("user-certificate", user);
        return certificate == null ? ClientIdentity.anonymous() : ClientIdentity.x509(certificate);
    }

    /** The certificate of a group: from its SSL bundle, PEM files or key store; null when none is set. */
    private ApplicationCertificate certificate(String group, OpcUaClientProperties.Certificate c) {
        if (c.getBundle() != null) {
            boolean filesSet = c.getPemCertificate() != null || c.getPemPrivateKey() != null || c.getKeystore() != null;
            return SslBundleCertificates.load(checks, group, c.getBundle(), filesSet, sslBundles);
        }
        return checks.certificate(group, c.getPemCertificate(), c.getPemPrivateKey(), c.getPemPrivateKeyPassword(),
                c.getKeystore(), c.getKeystorePassword(), c.getAlias());
    }

    /** The redundant set (Part 4, 6.6.2.4) of {@code redundancy.*}; nothing while {@code redundancy.mode} is unset. */
    private void redundancy(OpcUaClientConfig.Builder builder) {
        OpcUaClientProperties.Redundancy r = connection.getRedundancy();
        if (!r.isEnabled()) {
            if (!r.getEndpoints().isEmpty() || r.isDiscover()) {
                throw checks.invalid("redundancy.mode", r.getMode(), "must be set for redundancy.endpoints or "
                        + "redundancy.discover to take effect", "cold, warm, hot or hot-and-mirrored");
            }
            return;
        }
        RedundancyMode mode;
        try {
            mode = RedundancyMode.valueOf(r.getMode().trim().replace('-', '_').toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw checks.invalid("redundancy.mode", r.getMode(), "not a redundancy mode",
                    "cold, warm, hot or hot-and-mirrored");
        }
        stack.call(() -> builder.redundancy(RedundancyConfig.builder().mode(mode).endpoints(r.getEndpoints())
                .discover(r.isDiscover()).serviceLevelThreshold(r.getServiceLevelThreshold())
                .serviceLevelMargin(r.getServiceLevelMargin()).failoverTimeout(r.getFailoverTimeout())
                .serviceLevelInterval(r.getServiceLevelInterval()).build()));
    }

    private WhileReconnecting whileReconnecting() {
        String value = connection.getReconnect().getWhileReconnecting();
        String mode = value == null ? "" : value.trim();
        if (mode.equalsIgnoreCase("wait")) {
            return WhileReconnecting.WAIT;
        }
        if (mode.equalsIgnoreCase("fail-fast") || mode.equalsIgnoreCase("fail_fast")) {
            return WhileReconnecting.FAIL_FAST;
        }
        throw checks.invalid("reconnect.while-reconnecting", value,
                "not a way for requests to behave while reconnecting", "wait (up to the request timeout) or fail-fast (BadNotConnected at once)");
    }

    private TransportQuotas quotas(Duration requestTimeout) {
        return connection.getTransport().applyTo(TransportQuotas.DEFAULT.toBuilder(), checks)
                .operationTimeout(requestTimeout)
                .build();
    }

    private SubscriptionSettings subscriptionSettings(Duration requestTimeout) {
        OpcUaClientProperties.Subscriptions s = connection.getSubscriptions();
        return SubscriptionSettings.builder()
                .requestTimeout(requestTimeout)
                .maxPublishRequests(s.getMaxPublishRequests())
                .maxQueuedNotifications(s.getMaxQueuedNotifications())
                .maxItemsPerRequest(s.getMaxItemsPerRequest())
                .build();
    }

    private static Map<String, String> settingKeys() {
        Map<String, String> keys = new HashMap<>(TransportQuotaProperties.STACK_SETTING_KEYS);
        keys.put("transportQuotas.operationTimeout", "request-timeout");
        keys.put("opcUaClientConfig.endpointUrl", "endpoint-url");
        keys.put("opcUaClientConfig.allowedSecurityPolicies", "allowed-security-policies");
        keys.put("opcUaClientConfig.securityMode", "security-mode");
        keys.put("opcUaClientConfig.requestTimeout", "request-timeout");
        keys.put("opcUaClientConfig.sessionTimeout", "session-timeout");
        keys.put("opcUaClientConfig.keepAliveInterval", "keep-alive.interval");
        keys.put("opcUaClientConfig.keepAliveFailuresAllowed", "keep-alive.failures-allowed");
        keys.put("opcUaClientConfig.reconnectInitialDelay", "reconnect.initial-delay");
        keys.put("opcUaClientConfig.reconnectMaxDelay", "reconnect.max-delay");
        keys.put("opcUaClientConfig.maxWaitingRequests", "reconnect.max-waiting-requests");
        keys.put("opcUaClientConfig.redundancy", "redundancy");
        keys.put("opcUaClientConfig.redundancy.endpoints", "redundancy.endpoints");
        for (int i = 0; i < 32; i++) {
            keys.put("opcUaClientConfig.redundancy.endpoints[" + i + "]", "redundancy.endpoints[" + i + "]");
        }
        keys.put("opcUaClientConfig.redundancy.serviceLevelThreshold", "redundancy.service-level-threshold");
        keys.put("opcUaClientConfig.redundancy.serviceLevelMargin", "redundancy.service-level-margin");
        keys.put("opcUaClientConfig.redundancy.failoverTimeout", "redundancy.failover-timeout");
        keys.put("opcUaClientConfig.redundancy.serviceLevelInterval", "redundancy.service-level-interval");
        keys.put("clientSubscriptionSettings.requestTimeout", "request-timeout");
        keys.put("clientSubscriptionSettings.maxPublishRequests", "subscriptions.max-publish-requests");
        keys.put("clientSubscriptionSettings.maxQueuedNotifications", "subscriptions.max-queued-notifications");
        keys.put("clientSubscriptionSettings.maxItemsPerRequest", "subscriptions.max-items-per-request");
        return Map.copyOf(keys);
    }
}
