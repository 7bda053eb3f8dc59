package dev.opcua.stack.client;

import dev.opcua.stack.client.endpoint.ClientPki;
import dev.opcua.stack.client.redundancy.RedundancyConfig;
import dev.opcua.stack.client.services.RequestObserver;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.subscriptions.SubscriptionSettings;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.ReverseConnectListener;
import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.transport.EndpointUrl;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * Everything an {@link OpcUaClient} is configured with; immutable, built with {@link #builder(String)}.
 * Every option but the endpoint URL has a default that connects to a typical server.
 *
 * <p>Endpoint selection (Part 4, 5.4.4 GetEndpoints): with a security policy and mode given, the
 * server must offer exactly that endpoint; without, the client takes the endpoint with the highest
 * SecurityLevel among those whose policy is in {@link #allowedSecurityPolicies()} and that offer a
 * token policy for the identity. Secure endpoints need the client's certificate ({@link #certificate()}
 * or one loaded or created in {@link #pkiDir()}) and a way to trust the server's (the PKI directory's
 * {@code trusted/}, or {@link #acceptAnyServerCertificate()}).
 */
public final class OpcUaClientConfig {

    /** What a request does while the client reconnects. */
    public enum WhileReconnecting {
        /** Waits for the connection, up to its request timeout (then BadTimeout). */
        WAIT,
        /** Fails at once with BadNotConnected. */
        FAIL_FAST
    }

    /** The policies a client allows when none is named: None and those the specification has not deprecated. */
    public static final Set<SecurityPolicy> DEFAULT_ALLOWED_POLICIES = Set.copyOf(EnumSet.of(SecurityPolicy.None,
            SecurityPolicy.Basic256Sha256, SecurityPolicy.Aes128_Sha256_RsaOaep, SecurityPolicy.Aes256_Sha256_RsaPss));

    private final String endpointUrl;
    private final SecurityPolicy securityPolicy;
    private final MessageSecurityMode securityMode;
    private final Set<SecurityPolicy> allowedSecurityPolicies;
    private final ClientIdentity identity;
    private final String applicationUri;
    private final String applicationName;
    private final String productUri;
    private final String sessionName;
    private final List<String> localeIds;
    private final Path pkiDir;
    private final ApplicationCertificate certificate;
    private final boolean acceptAnyServerCertificate;
    private final TransportQuotas quotas;
    private final Duration requestTimeout;
    private final Duration sessionTimeout;
    private final Duration keepAliveInterval;
    private final int keepAliveFailuresAllowed;
    private final Duration reconnectInitialDelay;
    private final Duration reconnectMaxDelay;
    private final WhileReconnecting whileReconnecting;
    private final boolean keepTryingToConnect;
    private final int maxWaitingRequests;
    private final ClientResources resources;
    private final ReverseConnectListener reverseConnectListener;
    private final String reverseConnectServerUri;
    private final Executor listenerExecutor;
    /** What the builder was given, for {@link #toBuilder()}: the executor (or null) and the callback-threads choice. */
    private final Executor givenListenerExecutor;
    private final boolean listenersOnCallbackThreads;
    private final SubscriptionSettings subscriptionSettings;
    private final RequestObserver requestObserver;
    private final RedundancyConfig redundancy;

    private OpcUaClientConfig(Builder b) {
        this.endpointUrl = b.endpointUrl;
        this.securityPolicy = b.securityPolicy;
        this.securityMode = b.securityMode;
        this.allowedSecurityPolicies = Set.copyOf(b.allowedSecurityPolicies);
        this.identity = b.identity;
        this.applicationName = b.applicationName;
        this.applicationUri = b.applicationUri != null ? b.applicationUri
                : "urn:" + ClientPki.localHostName() + ":" + b.applicationName.replace(' ', '-');
        this.productUri = b.productUri;
        this.sessionName = b.sessionName != null ? b.sessionName : b.applicationName;
        this.localeIds = b.localeIds;
        this.pkiDir = b.pkiDir;
        this.certificate = b.certificate;
        this.acceptAnyServerCertificate = b.acceptAnyServerCertificate;
        this.quotas = b.quotas != null ? b.quotas
                : TransportQuotas.builder().operationTimeout(b.requestTimeout).build();
        this.requestTimeout = b.requestTimeout;
        this.sessionTimeout = b.sessionTimeout;
        this.keepAliveInterval = b.keepAliveInterval;
        this.keepAliveFailuresAllowed = b.keepAliveFailuresAllowed;
        this.reconnectInitialDelay = b.reconnectInitialDelay;
        this.reconnectMaxDelay = b.reconnectMaxDelay;
        this.whileReconnecting = b.whileReconnecting;
        this.keepTryingToConnect = b.keepTryingToConnect;
        this.maxWaitingRequests = b.maxWaitingRequests;
        this.resources = b.resources != null ? b.resources : ClientResources.shared();
        this.reverseConnectListener = b.reverseConnectListener;
        this.reverseConnectServerUri = b.reverseConnectServerUri;
        this.givenListenerExecutor = b.listenerExecutor;
        this.listenersOnCallbackThreads = b.listenersOnCallbackThreads;
        this.listenerExecutor = b.listenerExecutor != null ? b.listenerExecutor
                : b.listenersOnCallbackThreads ? this.resources.callbackExecutor() : this.resources.executor();
        this.subscriptionSettings = b.subscriptionSettings != null ? b.subscriptionSettings
                : SubscriptionSettings.builder().requestTimeout(b.requestTimeout).build();
        this.requestObserver = b.requestObserver;
        this.redundancy = b.redundancy;
    }

    /** A builder for a client of the server at {@code endpointUrl} ({@code opc.tcp://host:port/path}). */
    public static Builder builder(String endpointUrl) {
        return new Builder(endpointUrl);
    }

    public String endpointUrl() {
        return endpointUrl;
    }

    /** The security policy the endpoint must have; null to take the most secure one allowed. */
    public SecurityPolicy securityPolicy() {
        return securityPolicy;
    }

    /** The mode the endpoint must have; null to take the most secure one the server offers. */
    public MessageSecurityMode securityMode() {
        return securityMode;
    }

    /** The policies endpoint selection may choose from when no {@link #securityPolicy()} is named. */
    public Set<SecurityPolicy> allowedSecurityPolicies() {
        return allowedSecurityPolicies;
    }

    public ClientIdentity identity() {
        return identity;
    }

    /** The client's ApplicationUri; with a secured channel it must be the URI in the client certificate. */
    public String applicationUri() {
        return applicationUri;
    }

    public String applicationName() {
        return applicationName;
    }

    public String productUri() {
        return productUri;
    }

    public String sessionName() {
        return sessionName;
    }

    public List<String> localeIds() {
        return localeIds;
    }

    /** The PKI directory (own/, trusted/, issuers/, rejected/); null when none is used. */
    public Path pkiDir() {
        return pkiDir;
    }

    /** The client's application instance certificate given explicitly; null to load or create it in {@link #pkiDir()}. */
    public ApplicationCertificate certificate() {
        return certificate;
    }

    /** Whether any server certificate is accepted without validation (development only; logged as a warning). */
    public boolean acceptAnyServerCertificate() {
        return acceptAnyServerCertificate;
    }

    /**
     * Buffer sizes, message limits and decoding limits; by default {@link TransportQuotas#DEFAULT} with
     * the operation timeout (how long discovery and the channel handshake may take) equal to the
     * request timeout, so that a reconnect attempt to a server that accepts but never answers gives up
     * as soon as a request would.
     */
    public TransportQuotas quotas() {
        return quotas;
    }

    /** The timeoutHint of each request and how long the client waits for its response. */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** The requested session timeout; the server revises it. */
    public Duration sessionTimeout() {
        return sessionTimeout;
    }

    /**
     * How often an idle connection is checked with a Read of ServerStatus/State: a connection over whose session a
     * Publish was answered within the interval counts as alive without it (subscriptions that publish or send
     * keep-alives, Part 4, 5.13.1.1, need no Read).
     */
    public Duration keepAliveInterval() {
        return keepAliveInterval;
    }

    /** How many keep-alive Reads in a row may fail before the connection counts as lost. */
    public int keepAliveFailuresAllowed() {
        return keepAliveFailuresAllowed;
    }

    /** The first delay before a reconnect attempt; each failed attempt doubles it up to {@link #reconnectMaxDelay()}. */
    public Duration reconnectInitialDelay() {
        return reconnectInitialDelay;
    }

    /**
     * The longest delay between reconnect attempts (default 5 s): how long after its server is back a client may
     * take to notice, and how often at least each client tries a server that is down.
     */
    public Duration reconnectMaxDelay() {
        return reconnectMaxDelay;
    }

    public WhileReconnecting whileReconnecting() {
        return whileReconnecting;
    }

    /**
     * Whether a failed first {@code connect()} keeps trying with the reconnect delays (the state stays
     * CONNECTING, the future completes once connected) instead of failing: for an application that
     * must start while its server is still down.
     */
    public boolean keepTryingToConnect() {
        return keepTryingToConnect;
    }

    /** How many requests may wait for a reconnect at once; beyond, they fail with BadNotConnected. */
    public int maxWaitingRequests() {
        return maxWaitingRequests;
    }

    /** The event loops, timer and callback executor the client runs on; {@link ClientResources#shared()} by default. */
    public ClientResources resources() {
        return resources;
    }

    /**
     * The listener the server's connections arrive on when the server dials this client (reverse connect, Part 6,
     * 7.1.3); null when the client dials the server.
     */
    public ReverseConnectListener reverseConnectListener() {
        return reverseConnectListener;
    }

    /** With reverse connect, the ApplicationUri the server's ReverseHello must name; null otherwise. */
    public String reverseConnectServerUri() {
        return reverseConnectServerUri;
    }

    /**
     * Where subscription listeners run: by default where responses complete ({@link ClientResources#executor()}),
     * which is the I/O thread that read the Publish response unless the resources say otherwise; the callback
     * threads with {@link Builder#listenersOnCallbackThreads()}; or the executor given to the builder.
     */
    public Executor listenerExecutor() {
        return listenerExecutor;
    }

    /**
     * Where failover notifications run: the listener executor given to the builder, otherwise the callback threads,
     * since a failover listener may block (it is not on the path of every notification).
     */
    public Executor notificationExecutor() {
        return givenListenerExecutor != null ? givenListenerExecutor : resources.callbackExecutor();
    }

    /** Publish pipeline and listener queue sizes; by default with this configuration's request timeout. */
    public SubscriptionSettings subscriptionSettings() {
        return subscriptionSettings;
    }

    /** Watches every request sent, for metrics and tracing; {@link RequestObserver#NONE} by default. */
    public RequestObserver requestObserver() {
        return requestObserver;
    }

    /**
     * The non-transparent redundant server set this client fails over in (Part 4, 6.6.2.4), its
     * {@link #endpointUrl()} being the first server; null (the default) for a single server.
     */
    public RedundancyConfig redundancy() {
        return redundancy;
    }

    /**
     * This configuration for another server of the redundant set, without redundancy: what the client's
     * probes and ServiceLevel monitors connect with.
     */
    public OpcUaClientConfig forServer(String serverEndpointUrl, String sessionSuffix) {
        Builder b = toBuilder(serverEndpointUrl);
        b.redundancy = null;
        b.requestObserver = RequestObserver.NONE;
        b.sessionName = sessionName + sessionSuffix;
        return b.build();
    }

    /** A builder starting from this configuration. */
    public Builder toBuilder() {
        return toBuilder(endpointUrl);
    }

    private Builder toBuilder(String url) {
        Builder b = new Builder(url);
        b.securityPolicy = securityPolicy;
        b.securityMode = securityMode;
        b.allowedSecurityPolicies = EnumSet.copyOf(allowedSecurityPolicies);
        b.identity = identity;
        b.applicationUri = applicationUri;
        b.applicationName = applicationName;
        b.productUri = productUri;
        b.sessionName = sessionName;
        b.localeIds = localeIds;
        b.pkiDir = pkiDir;
        b.certificate = certificate;
        b.acceptAnyServerCertificate = acceptAnyServerCertificate;
        b.quotas = quotas;
        b.requestTimeout = requestTimeout;
        b.sessionTimeout = sessionTimeout;
        b.keepAliveInterval = keepAliveInterval;
        b.keepAliveFailuresAllowed = keepAliveFailuresAllowed;
        b.reconnectInitialDelay = reconnectInitialDelay;
        b.reconnectMaxDelay = reconnectMaxDelay;
        b.whileReconnecting = whileReconnecting;
        b.keepTryingToConnect = keepTryingToConnect;
        b.maxWaitingRequests = maxWaitingRequests;
        b.resources = resources;
        b.reverseConnectListener = reverseConnectListener;
        b.reverseConnectServerUri = reverseConnectServerUri;
        b.listenerExecutor = givenListenerExecutor;
        b.listenersOnCallbackThreads = listenersOnCallbackThreads;
        b.subscriptionSettings = subscriptionSettings;
        b.requestObserver = requestObserver;
        b.redundancy = redundancy;
        return b;
    }

    @Override
    public String toString() {
        return "OpcUaClientConfig[" + endpointUrl + ", " + (securityPolicy == null ? "best allowed policy"
                : securityPolicy) + "/" + (securityMode == null ? "best mode" : securityMode) + ", " + identity + ", "
                + applicationUri + "]";
    }

    /** Builds an {@link OpcUaClientConfig}; {@link #build()} checks every value and names the wrong one. */
    public static final class Builder {

        private final String endpointUrl;
        private SecurityPolicy securityPolicy;
        private MessageSecurityMode securityMode;
        private Set<SecurityPolicy> allowedSecurityPolicies = EnumSet.copyOf(DEFAULT_ALLOWED_POLICIES);
        private ClientIdentity identity = ClientIdentity.anonymous();
        private String applicationUri;
        private String applicationName = "dev.opcua client";
        private String productUri = "urn:dev.opcua:client";
        private String sessionName;
        private List<String> localeIds = List.of();
        private Path pkiDir;
        private ApplicationCertificate certificate;
        private boolean acceptAnyServerCertificate;
        private TransportQuotas quotas;
        private Duration requestTimeout = Duration.ofSeconds(10);
        private Duration sessionTimeout = Duration.ofMinutes(2);
        private Duration keepAliveInterval = Duration.ofSeconds(5);
        private int keepAliveFailuresAllowed = 1;
        private Duration reconnectInitialDelay = Duration.ofSeconds(1);
        private Duration reconnectMaxDelay = Duration.ofSeconds(5);
        private WhileReconnecting whileReconnecting = WhileReconnecting.WAIT;
        private boolean keepTryingToConnect;
        private int maxWaitingRequests = 1000;
        private ClientResources resources;
        private ReverseConnectListener reverseConnectListener;
        private String reverseConnectServerUri;
        private Executor listenerExecutor;
        private boolean listenersOnCallbackThreads;
        private SubscriptionSettings subscriptionSettings;
        private RequestObserver requestObserver = RequestObserver.NONE;
        private RedundancyConfig redundancy;

        private Builder(String endpointUrl) {
            this.endpointUrl = Objects.requireNonNull(endpointUrl, "endpointUrl");
        }

        /** The endpoint's security policy and mode; either may be null to take the most secure allowed. */
        public Builder security(SecurityPolicy policy, MessageSecurityMode mode) {
            this.securityPolicy = policy;
            this.securityMode = mode;
            return this;
        }

        /** The policies endpoint selection may choose from (default {@link #DEFAULT_ALLOWED_POLICIES}). */
        public Builder allowedSecurityPolicies(Set<SecurityPolicy> policies) {
            if (policies.isEmpty()) {
                throw new InvalidSettingException("opcUaClientConfig.allowedSecurityPolicies", policies,
                        "must name at least one policy");
            }
            this.allowedSecurityPolicies = EnumSet.copyOf(policies);
            return this;
        }

        public Builder identity(ClientIdentity identity) {
            this.identity = Objects.requireNonNull(identity, "identity");
            return this;
        }

        /** Default {@code urn:<hostname>:<application name>}. */
        public Builder applicationUri(String applicationUri) {
            this.applicationUri = applicationUri;
            return this;
        }

        public Builder applicationName(String applicationName) {
            this.applicationName = Objects.requireNonNull(applicationName, "applicationName");
            return this;
        }

        public Builder productUri(String productUri) {
            this.productUri = productUri;
            return this;
        }

        /** Default the application name. */
        public Builder sessionName(String sessionName) {
            this.sessionName = sessionName;
            return this;
        }

        public Builder localeIds(List<String> localeIds) {
            this.localeIds = List.copyOf(localeIds);
            return this;
        }

        /** The PKI directory; created when missing; the client certificate is created in own/ on first use. */
        public Builder pkiDir(Path pkiDir) {
            this.pkiDir = pkiDir;
            return this;
        }

        public Builder certificate(ApplicationCertificate certificate) {
            this.certificate = certificate;
            return this;
        }

        /** Accepts any server certificate unchecked: development only, logged as a warning at connect. */
        public Builder acceptAnyServerCertificate(boolean accept) {
            this.acceptAnyServerCertificate = accept;
            return this;
        }

        public Builder quotas(TransportQuotas quotas) {
            this.quotas = Objects.requireNonNull(quotas, "quotas");
            return this;
        }

        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
            return this;
        }

        public Builder sessionTimeout(Duration sessionTimeout) {
            this.sessionTimeout = Objects.requireNonNull(sessionTimeout, "sessionTimeout");
            return this;
        }

        public Builder keepAliveInterval(Duration keepAliveInterval) {
            this.keepAliveInterval = Objects.requireNonNull(keepAliveInterval, "keepAliveInterval");
            return this;
        }

        public Builder keepAliveFailuresAllowed(int failures) {
            this.keepAliveFailuresAllowed = failures;
            return this;
        }

        /**
         * Delays between reconnect attempts: from {@code initial}, doubling, at most {@code max}, with jitter
         * (defaults 1 s and 5 s).
         */
        public Builder reconnectDelays(Duration initial, Duration max) {
            this.reconnectInitialDelay = Objects.requireNonNull(initial, "initial");
            this.reconnectMaxDelay = Objects.requireNonNull(max, "max");
            return this;
        }

        public Builder whileReconnecting(WhileReconnecting whileReconnecting) {
            this.whileReconnecting = Objects.requireNonNull(whileReconnecting, "whileReconnecting");
            return this;
        }

        /** Keeps trying when the first connect fails (default false: {@code connect()} fails). */
        public Builder keepTryingToConnect(boolean keepTrying) {
            this.keepTryingToConnect = keepTrying;
            return this;
        }

        public Builder maxWaitingRequests(int maxWaitingRequests) {
            this.maxWaitingRequests = maxWaitingRequests;
            return this;
        }

        /** Resources owned by the caller (who closes them after the client); default {@link ClientResources#shared()}. */
        public Builder resources(ClientResources resources) {
            this.resources = resources;
            return this;
        }

        /**
         * Reverse connect (Part 6, 7.1.3): the client does not dial; it waits on {@code listener} for the server
         * {@code serverUri} to connect, and opens every channel (the first, and each after a lost connection) over
         * the next connection of that server whose ReverseHello names this configuration's endpoint URL. The
         * caller owns the listener and closes it after the client.
         */
        public Builder reverseConnect(ReverseConnectListener listener, String serverUri) {
            this.reverseConnectListener = Objects.requireNonNull(listener, "listener");
            this.reverseConnectServerUri = Objects.requireNonNull(serverUri, "serverUri");
            return this;
        }

        /** An executor of the caller's for subscription listeners; its owner shuts it down. */
        public Builder listenerExecutor(Executor listenerExecutor) {
            this.listenerExecutor = listenerExecutor;
            this.listenersOnCallbackThreads = false;
            return this;
        }

        /**
         * Subscription listeners run on the resources' callback threads ({@code opcua-client-callback-N}) instead of
         * where responses complete (by default the I/O thread that read the Publish response): one thread hand-off
         * per Publish response more, for listeners that block or take long (a database write, a blocking call of
         * the client). The Spring Boot starter chooses this.
         */
        public Builder listenersOnCallbackThreads() {
            this.listenersOnCallbackThreads = true;
            this.listenerExecutor = null;
            return this;
        }

        /** Publish pipeline and listener queue sizes (default: {@link SubscriptionSettings} defaults, this request timeout). */
        public Builder subscriptionSettings(SubscriptionSettings subscriptionSettings) {
            this.subscriptionSettings = subscriptionSettings;
            return this;
        }

        /** Watches every request sent, for metrics and tracing (called on the client's threads: keep it cheap). */
        public Builder requestObserver(RequestObserver requestObserver) {
            this.requestObserver = Objects.requireNonNull(requestObserver, "requestObserver");
            return this;
        }

        /**
         * Fails over between the servers of a non-transparent redundant set (Part 4, 6.6.2.4): this
         * builder's endpoint URL and {@link RedundancyConfig#endpoints()} (2 or more in all), or those
         * discovered from the first; null for one server (the default). Not with reverse connect.
         */
        public Builder redundancy(RedundancyConfig redundancy) {
            this.redundancy = redundancy;
            return this;
        }

        /**
         * @throws InvalidSettingException {@code opcUaClientConfig.<option>} naming the option and the value
         *         that cannot be used
         */
        public OpcUaClientConfig build() {
            EndpointUrl url;
            try {
                url = EndpointUrl.parse(endpointUrl);
            } catch (RuntimeException e) {
                throw new InvalidSettingException("opcUaClientConfig.endpointUrl", endpointUrl,
                        "must be a valid URL (" + e.getMessage() + ")", e);
            }
            if (!url.isOpcTcp() || url.portOrDefault() == 0) {
                throw new InvalidSettingException("opcUaClientConfig.endpointUrl", endpointUrl,
                        "must be an opc.tcp URL with a port other than 0");
            }
            positive("requestTimeout", requestTimeout);
            positive("sessionTimeout", sessionTimeout);
            positive("keepAliveInterval", keepAliveInterval);
            positive("reconnectInitialDelay", reconnectInitialDelay);
            if (reconnectMaxDelay.compareTo(reconnectInitialDelay) < 0) {
                throw new InvalidSettingException("opcUaClientConfig.reconnectMaxDelay", reconnectMaxDelay,
                        "must be at least the initial delay (" + reconnectInitialDelay + ")");
            }
            if (keepAliveFailuresAllowed < 0) {
                throw new InvalidSettingException("opcUaClientConfig.keepAliveFailuresAllowed",
                        keepAliveFailuresAllowed, "must be 0 or more");
            }
            if (maxWaitingRequests < 0) {
                throw new InvalidSettingException("opcUaClientConfig.maxWaitingRequests", maxWaitingRequests,
                        "must be 0 or more");
            }
            if (securityPolicy != null && securityMode != null
                    && (securityPolicy == SecurityPolicy.None) != (securityMode == MessageSecurityMode.None)) {
                throw new InvalidSettingException("opcUaClientConfig.securityMode", securityMode,
                        "cannot go with security policy " + securityPolicy + ": None goes only with None");
            }
            if (securityMode == MessageSecurityMode.Invalid) {
                throw new InvalidSettingException("opcUaClientConfig.securityMode", securityMode,
                        "must be None, Sign or SignAndEncrypt");
            }
            if (redundancy != null) {
                if (!redundancy.discover() && redundancy.servers(endpointUrl).size() < 2) {
                    throw new InvalidSettingException("opcUaClientConfig.redundancy.endpoints", redundancy.endpoints(),
                            "must name at least one server besides " + endpointUrl
                                    + " (a redundant set has 2 or more), or set discover");
                }
                if (reverseConnectListener != null) {
                    throw new InvalidSettingException("opcUaClientConfig.redundancy", redundancy,
                            "cannot go with reverse connect");
                }
            }
            return new OpcUaClientConfig(this);
        }

        private static void positive(String name, Duration value) {
            if (value.isNegative() || value.isZero()) {
                throw new InvalidSettingException("opcUaClientConfig." + name, value, "must be positive");
            }
        }
    }
}
