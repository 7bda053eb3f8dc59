package dev.opcua.spring.boot.autoconfigure.client;

import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.spring.boot.autoconfigure.ssl.SslBundleCertificates;
import dev.opcua.spring.boot.autoconfigure.transport.TransportQuotaProperties;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.OpcUaClientConfig.WhileReconnecting;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.subscriptions.SubscriptionSettings;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.transport.EndpointUrl;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.boot.ssl.SslBundles;

/**
 * Turns one {@link OpcUaClientProperties.Connection} into an {@link OpcUaClientConfig.Builder},
 * checking each value first: a value the client cannot use is an
 * {@link InvalidOpcUaClientPropertyException} naming the full key
 * ({@code opcua.client.connections.<name>.<key>}), the value and what is allowed.
 */
final class OpcUaClientPropertiesMapper {

    static final String CONNECTIONS = "opcua.client.connections";

    private static final String POLICIES = Arrays.stream(SecurityPolicy.values()).map(Enum::name)
            .collect(Collectors.joining(", ")) + " (or their URIs, http://opcfoundation.org/UA/SecurityPolicy#...)";

    private final String name;
    private final OpcUaClientProperties.Connection connection;
    private final PropertyChecks checks;

    private final SslBundles sslBundles;

    OpcUaClientPropertiesMapper(String name, OpcUaClientProperties.Connection connection) {
        this(name, connection, null);
    }

    /** @param sslBundles the application's SSL bundles, for {@code certificate.bundle}; may be null */
    OpcUaClientPropertiesMapper(String name, OpcUaClientProperties.Connection connection, SslBundles sslBundles) {
        this.name = name;
        this.connection = connection;
        this.sslBundles = sslBundles;
        this.checks = new PropertyChecks(CONNECTIONS + "." + name, InvalidOpcUaClientPropertyException::new);
    }

    /** The configuration of this connection as the properties give it, for customizers to change. */
    OpcUaClientConfig.Builder builder() {
        OpcUaClientProperties.Connection c = connection;
        OpcUaClientConfig.Builder builder = OpcUaClientConfig.builder(endpointUrl());
        builder.security(policy(), mode());
        if (c.getAllowedSecurityPolicies() != null) {
            builder.allowedSecurityPolicies(allowedPolicies());
        }
        builder.identity(identity());
        builder.applicationName(checks.requireText("application-name", c.getApplicationName(), "a name, such as Line 1 MES"));
        if (c.getApplicationUri() != null) {
            builder.applicationUri(checks.requireText("application-uri", c.getApplicationUri(), "a URI, such as urn:acme:mes"));
        }
        builder.productUri(checks.requireText("product-uri", c.getProductUri(), "a URI, such as urn:acme:mes"));
        builder.sessionName(c.getSessionName() != null ? c.getSessionName() : c.getApplicationName() + " " + name);
        if (c.getPkiDir() != null) {
            builder.pkiDir(c.getPkiDir());
        }
        ApplicationCertificate own = certificate("certificate", c.getCertificate());
        if (own != null) {
            builder.certificate(own);
        }
        builder.acceptAnyServerCertificate(c.isAcceptAnyServerCertificate());
        Duration requestTimeout = checks.positiveDuration("request-timeout", c.getRequestTimeout());
        builder.requestTimeout(requestTimeout);
        builder.sessionTimeout(checks.positiveDuration("session-timeout", c.getSessionTimeout()));
        builder.keepAliveInterval(checks.positiveDuration("keep-alive.interval", c.getKeepAlive().getInterval()));
        builder.keepAliveFailuresAllowed(checks.nonNegative("keep-alive.failures-allowed",
                c.getKeepAlive().getFailuresAllowed(), "0 (the first failed keep-alive counts) or more"));
        reconnect(builder);
        // a fail-fast connection fails start-up at once; any other keeps trying while the server is down
        builder.keepTryingToConnect(!c.isFailFast());
        builder.quotas(quotas(requestTimeout));
        builder.subscriptionSettings(subscriptionSettings(requestTimeout));
        return builder;
    }

    /**
     * Builds the configuration; a rule of the client's builder that the properties break together is
     * reported against the connection.
     */
    OpcUaClientConfig build(OpcUaClientConfig.Builder builder) {
        try {
            return builder.build();
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw checks.invalid("endpoint-url", connection.getEndpointUrl(),
                    "the client cannot be configured this way: " + e.getMessage(),
                    "a configuration that satisfies the rule in the reason (see docs/CONFIGURATION.md)", e);
        }
    }

    private String endpointUrl() {
        String allowed = "an opc.tcp URL with host and port, such as opc.tcp://plc1.acme.local:4840/";
        String url = checks.requireText("endpoint-url", connection.getEndpointUrl(), allowed);
        try {
            EndpointUrl parsed = EndpointUrl.parse(url);
            if (!parsed.isOpcTcp() || parsed.portOrDefault() == 0) {
                throw checks.invalid("endpoint-url", url, "not an opc.tcp URL with a port", allowed);
            }
        } catch (IllegalArgumentException e) {
            throw checks.invalid("endpoint-url", url, "not a valid URL: " + e.getMessage(), allowed, e);
        }
        return url;
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
        if (names.isEmpty()) {
            throw checks.invalid("allowed-security-policies", names, "no security policy is listed",
                    "one or more of " + POLICIES);
        }
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

    private void reconnect(OpcUaClientConfig.Builder builder) {
        OpcUaClientProperties.Reconnect r = connection.getReconnect();
        Duration initial = checks.positiveDuration("reconnect.initial-delay", r.getInitialDelay());
        Duration max = checks.positiveDuration("reconnect.max-delay", r.getMaxDelay());
        if (max.compareTo(initial) < 0) {
            throw checks.invalid("reconnect.max-delay", max, "below reconnect.initial-delay (" + initial + ")",
                    "a duration of at least the initial delay");
        }
        builder.reconnectDelays(initial, max);
        String mode = r.getWhileReconnecting() == null ? "" : r.getWhileReconnecting().trim();
        if (mode.equalsIgnoreCase("wait")) {
            builder.whileReconnecting(WhileReconnecting.WAIT);
        } else if (mode.equalsIgnoreCase("fail-fast") || mode.equalsIgnoreCase("fail_fast")) {
            builder.whileReconnecting(WhileReconnecting.FAIL_FAST);
        } else {
            throw checks.invalid("reconnect.while-reconnecting", r.getWhileReconnecting(),
                    "not a way for requests to behave while reconnecting",
                    "wait (up to the request timeout) or fail-fast (BadNotConnected at once)");
        }
        builder.maxWaitingRequests(checks.nonNegative("reconnect.max-waiting-requests", r.getMaxWaitingRequests(),
                "0 (none waits) or more"));
    }

    private TransportQuotas quotas(Duration requestTimeout) {
        TransportQuotaProperties t = connection.getTransport();
        try {
            return TransportQuotas.DEFAULT.toBuilder()
                    .operationTimeout(requestTimeout)
                    .maxMessageSize(checks.bytes("transport.max-message-size", t.getMaxMessageSize()))
                    .maxBufferSize(checks.bytes("transport.max-buffer-size", t.getMaxBufferSize()))
                    .maxChunkCount(checks.nonNegative("transport.max-chunk-count", t.getMaxChunkCount(),
                            "0 (derived from the message and buffer sizes) or a count"))
                    .maxStringLength(checks.positive("transport.max-string-length", t.getMaxStringLength()))
                    .maxByteStringLength(checks.bytes("transport.max-byte-string-length", t.getMaxByteStringLength()))
                    .maxArrayLength(checks.positive("transport.max-array-length", t.getMaxArrayLength()))
                    .maxEncodingNestingLevels(checks.positive("transport.max-encoding-nesting-levels",
                            t.getMaxEncodingNestingLevels()))
                    .securityTokenLifetime(checks.positiveDuration("transport.security-token-lifetime",
                            t.getSecurityTokenLifetime()))
                    .build();
        } catch (IllegalArgumentException e) {
            throw checks.invalid("transport", null, "the transport quotas do not fit together: " + e.getMessage(),
                    "quotas that satisfy the rule in the reason (max-buffer-size at least "
                            + TransportQuotas.MIN_BUFFER_SIZE + "B)", e);
        }
    }

    private SubscriptionSettings subscriptionSettings(Duration requestTimeout) {
        OpcUaClientProperties.Subscriptions s = connection.getSubscriptions();
        checks.positiveDuration("subscriptions.publishing-interval", s.getPublishingInterval());
        if (s.getSamplingInterval() == null || s.getSamplingInterval().isNegative()) {
            throw checks.invalid("subscriptions.sampling-interval", s.getSamplingInterval(), "it must not be negative",
                    "0ms (as fast as the server samples) or a positive duration, such as 500ms");
        }
        checks.positive("subscriptions.queue-size", s.getQueueSize());
        return SubscriptionSettings.builder()
                .requestTimeout(requestTimeout)
                .maxPublishRequests(checks.positive("subscriptions.max-publish-requests", s.getMaxPublishRequests()))
                .maxQueuedNotifications(checks.positive("subscriptions.max-queued-notifications",
                        s.getMaxQueuedNotifications()))
                .maxItemsPerRequest(checks.positive("subscriptions.max-items-per-request", s.getMaxItemsPerRequest()))
                .build();
    }
}
