package dev.opcua.spring.boot.autoconfigure.client;

import dev.opcua.spring.boot.autoconfigure.transport.TransportQuotaProperties;
import dev.opcua.spring.boot.autoconfigure.validation.CheckedProperties;
import dev.opcua.spring.boot.autoconfigure.validation.PositiveDuration;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * OPC UA client connections ({@code opcua.client.*}): one {@code OpcUaClient} bean per entry of
 * {@code connections}. Defaults are the client's (see {@code OpcUaClientConfig}).
 */
@ConfigurationProperties("opcua.client")
public class OpcUaClientProperties implements CheckedProperties {

    /** Whether to create the OPC UA clients of the configured connections. */
    private boolean enabled = true;

    /** Connections to OPC UA servers by name; each becomes an OpcUaClient bean named "<name>OpcUaClient". */
    private final Map<String, @Valid Connection> connections = new LinkedHashMap<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Map<String, Connection> getConnections() {
        return connections;
    }

    /** One connection to an OPC UA server. */
    public static class Connection {

        /** Endpoint URL of the server, such as opc.tcp://plc1.acme.local:4840/. */
        @NotBlank
        private String endpointUrl;

        /**
         * Security policy of the endpoint (None, Basic256Sha256, Aes128_Sha256_RsaOaep, Aes256_Sha256_RsaPss,
         * or a deprecated one); unset to take the most secure one the server offers among the allowed.
         */
        private String securityPolicy;

        /** Message security mode (None, Sign, SignAndEncrypt); unset to take the most secure one offered. */
        private String securityMode;

        /**
         * Security policies the client may choose when security-policy is unset; by default None and the
         * policies that are not deprecated.
         */
        @Size(min = 1, message = "must list one or more security policies")
        private List<String> allowedSecurityPolicies;

        /** User name to activate the session with; unset for anonymous (or for a user certificate). */
        private String username;

        /** Password of the user name. */
        private String password;

        /** User certificate and private key to activate the session with (X509IdentityToken). */
        @Valid
        private final Certificate userCertificate = new Certificate();

        /** Application name the client gives in CreateSession and in its certificate. */
        @NotBlank
        private String applicationName = "dev.opcua client";

        /** Application URI of the client; by default urn:<host name>:<application name>. */
        private String applicationUri;

        /** Product URI of the client. */
        @NotBlank
        private String productUri = "urn:dev.opcua:client";

        /** Session name; by default the application name and the connection's name. */
        private String sessionName;

        /**
         * PKI directory (own/, trusted/, issuers/, rejected/): the client certificate is created in own/ when
         * absent, server certificates are validated against trusted/ and untrusted ones copied to rejected/.
         */
        private Path pkiDir;

        /** Application instance certificate and key of the client, instead of the one in the PKI directory. */
        @Valid
        private final Certificate certificate = new Certificate();

        /** Whether to accept any server certificate without validation (development only; logged as a warning). */
        private boolean acceptAnyServerCertificate = false;

        /** Time a request may take before it fails with BadTimeout (and the timeoutHint sent). */
        @PositiveDuration
        private Duration requestTimeout = Duration.ofSeconds(10);

        /** Session timeout the client asks for. */
        @PositiveDuration
        private Duration sessionTimeout = Duration.ofMinutes(2);

        /** Whether to connect when the application starts; when false the application calls connect() itself. */
        private boolean connectOnStart = true;

        /**
         * Whether start-up waits for the connection and fails when it cannot be made; otherwise the client
         * connects in the background and keeps trying while the server is down.
         */
        private boolean failFast = false;

        @Valid
        private final KeepAlive keepAlive = new KeepAlive();

        @Valid
        private final Reconnect reconnect = new Reconnect();

        /** Transport quotas (TransportQuotas): buffer and message sizes and decoding limits of this connection. */
        @Valid
        private final TransportQuotaProperties transport = new TransportQuotaProperties();

        @Valid
        private final Subscriptions subscriptions = new Subscriptions();

        /** Failover between the servers of a non-transparent redundant set (Part 4, 6.6.2.4); off by default. */
        @Valid
        private final Redundancy redundancy = new Redundancy();

        @Valid
        private final ReverseConnect reverseConnect = new ReverseConnect();

        public String getEndpointUrl() {
            return endpointUrl;
        }

        public void setEndpointUrl(String endpointUrl) {
            this.endpointUrl = endpointUrl;
        }

        public String getSecurityPolicy() {
            return securityPolicy;
        }

        public void setSecurityPolicy(String securityPolicy) {
            this.securityPolicy = securityPolicy;
        }

        public String getSecurityMode() {
            return securityMode;
        }

        public void setSecurityMode(String securityMode) {
            this.securityMode = securityMode;
        }

        public List<String> getAllowedSecurityPolicies() {
            return allowedSecurityPolicies;
        }

        public void setAllowedSecurityPolicies(List<String> allowedSecurityPolicies) {
            this.allowedSecurityPolicies = allowedSecurityPolicies;
        }

        public String getUsername() {
            return username;
        }

        public void setUsername(String username) {
            this.username = username;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(String password) {
            this.password = password;
        }

        public Certificate getUserCertificate() {
            return userCertificate;
        }

        public String getApplicationName() {
            return applicationName;
        }

        public void setApplicationName(String applicationName) {
            this.applicationName = applicationName;
        }

        public String getApplicationUri() {
            return applicationUri;
        }

        public void setApplicationUri(String applicationUri) {
            this.applicationUri = applicationUri;
        }

        public String getProductUri() {
            return productUri;
        }

        public void setProductUri(String productUri) {
            this.productUri = productUri;
        }

        public String getSessionName() {
            return sessionName;
        }

        public void setSessionName(String sessionName) {
            this.sessionName = sessionName;
        }

        public Path getPkiDir() {
            return pkiDir;
        }

        public void setPkiDir(Path pkiDir) {
            this.pkiDir = pkiDir;
        }

        public Certificate getCertificate() {
            return certificate;
        }

        public boolean isAcceptAnyServerCertificate() {
            return acceptAnyServerCertificate;
        }

        public void setAcceptAnyServerCertificate(boolean acceptAnyServerCertificate) {
            this.acceptAnyServerCertificate = acceptAnyServerCertificate;
        }

        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        public void setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }

        public Duration getSessionTimeout() {
            return sessionTimeout;
        }

        public void setSessionTimeout(Duration sessionTimeout) {
            this.sessionTimeout = sessionTimeout;
        }

        public boolean isConnectOnStart() {
            return connectOnStart;
        }

        public void setConnectOnStart(boolean connectOnStart) {
            this.connectOnStart = connectOnStart;
        }

        public boolean isFailFast() {
            return failFast;
        }

        public void setFailFast(boolean failFast) {
            this.failFast = failFast;
        }

        public KeepAlive getKeepAlive() {
            return keepAlive;
        }

        public Reconnect getReconnect() {
            return reconnect;
        }

        public TransportQuotaProperties getTransport() {
            return transport;
        }

        public Subscriptions getSubscriptions() {
            return subscriptions;
        }

        public ReverseConnect getReverseConnect() {
            return reverseConnect;
        }

        public Redundancy getRedundancy() {
            return redundancy;
        }
    }

    /**
     * A non-transparent redundant server set (Part 4, 6.6.2.4): the connection's endpoint-url and
     * {@code endpoints}, or the set discovered from the endpoint-url's server (ServerUriArray, FindServers).
     * On when {@code mode} is set; the client goes to the server with the highest ServiceLevel and fails over
     * when the active one is lost for {@code failover-timeout} or its ServiceLevel falls below
     * {@code service-level-threshold} (or {@code service-level-margin} below a partner's) while a partner's is higher.
     */
    public static class Redundancy {

        /** cold (probe the others at failover), warm (keep sessions to the others, watch their ServiceLevel) hot (as warm, and mirrors of the subscriptions on the others, taken over at failover) or hot-and-mirrored (as warm; at failover the session itself is activated on the partner of a HotAndMirrored set, nothing re-created); unset: no redundancy. */
        private String mode;

        /** The other servers of the set (opc.tcp URLs); the connection's endpoint-url is always one of them. */
        private List<String> endpoints = new ArrayList<>();

        /** Read the set from the endpoint-url's server: Server.ServerRedundancy.ServerUriArray mapped to URLs with FindServers. */
        private boolean discover;

        /** Below this ServiceLevel the active server is degraded (Part 4, Table 109: 200..255 healthy). */
        private int serviceLevelThreshold = 200;

        /** How far above the active server's ServiceLevel a partner's must be for a failover while the active is healthy. */
        private int serviceLevelMargin = 10;

        /** How long a lost active server may take to come back before the client fails over. */
        private Duration failoverTimeout = Duration.ofSeconds(5);

        /** How often the servers' ServiceLevels are read. */
        @PositiveDuration
        private Duration serviceLevelInterval = Duration.ofSeconds(1);

        public boolean isEnabled() {
            return mode != null && !mode.isBlank();
        }

        public String getMode() {
            return mode;
        }

        public void setMode(String mode) {
            this.mode = mode;
        }

        public List<String> getEndpoints() {
            return endpoints;
        }

        public void setEndpoints(List<String> endpoints) {
            this.endpoints = endpoints;
        }

        public boolean isDiscover() {
            return discover;
        }

        public void setDiscover(boolean discover) {
            this.discover = discover;
        }

        public int getServiceLevelThreshold() {
            return serviceLevelThreshold;
        }

        public void setServiceLevelThreshold(int serviceLevelThreshold) {
            this.serviceLevelThreshold = serviceLevelThreshold;
        }

        public int getServiceLevelMargin() {
            return serviceLevelMargin;
        }

        public void setServiceLevelMargin(int serviceLevelMargin) {
            this.serviceLevelMargin = serviceLevelMargin;
        }

        public Duration getFailoverTimeout() {
            return failoverTimeout;
        }

        public void setFailoverTimeout(Duration failoverTimeout) {
            this.failoverTimeout = failoverTimeout;
        }

        public Duration getServiceLevelInterval() {
            return serviceLevelInterval;
        }

        public void setServiceLevelInterval(Duration serviceLevelInterval) {
            this.serviceLevelInterval = serviceLevelInterval;
        }
    }

    /**
     * Reverse connect (Part 6, 7.1.3): instead of dialling, the client listens and the server opens the connection
     * and sends a ReverseHello naming its ApplicationUri and endpoint URL; the client opens its secure channel over
     * that connection. For a server behind a firewall that allows only outgoing connections. Off while
     * listen-port is unset. Connections with the same listen-port share one listener.
     */
    public static class ReverseConnect {

        /** Port to listen on for the server's connections (0 for any free port); unset to dial the server. */
        @Min(0)
        @Max(65535)
        private Integer listenPort;

        /** Address to listen on; 0.0.0.0 for every interface. */
        @NotBlank
        private String listenAddress = "0.0.0.0";

        /**
         * ApplicationUri of the server that dials in, as its ReverseHello names it; required with listen-port.
         * Connections of other servers are refused.
         */
        private String serverUri;

        /** Time a server's connection may take to send its ReverseHello before it is closed. */
        @PositiveDuration
        private Duration helloTimeout = Duration.ofSeconds(10);

        /** Whether a listen-port is set, so that the client waits for the server instead of dialling it. */
        public boolean isListening() {
            return listenPort != null;
        }

        public Integer getListenPort() {
            return listenPort;
        }

        public void setListenPort(Integer listenPort) {
            this.listenPort = listenPort;
        }

        public String getListenAddress() {
            return listenAddress;
        }

        public void setListenAddress(String listenAddress) {
            this.listenAddress = listenAddress;
        }

        public String getServerUri() {
            return serverUri;
        }

        public void setServerUri(String serverUri) {
            this.serverUri = serverUri;
        }

        public Duration getHelloTimeout() {
            return helloTimeout;
        }

        public void setHelloTimeout(Duration helloTimeout) {
            this.helloTimeout = helloTimeout;
        }
    }

    /** A certificate and its private key: PEM files, or an entry of a key store (PKCS#12 or JKS). */
    public static class Certificate {

        /** PEM (or DER) file of the certificate. */
        private Path pemCertificate;

        /** PEM file of the private key (PKCS#8 or PKCS#1). */
        private Path pemPrivateKey;

        /** Password of an encrypted PEM private key. */
        private String pemPrivateKeyPassword;

        /** Key store file (PKCS#12 or JKS) holding the key entry. */
        private Path keystore;

        /** Password of the key store. */
        private String keystorePassword;

        /** Alias of the key entry; may be unset when the key store holds one key entry. */
        private String alias;

        /**
         * SSL bundle (spring.ssl.bundle.pem.<name> or .jks.<name>) holding the application certificate and key,
         * instead of the files above; with reload-on-update on the bundle, a renewed certificate is used from then on.
         */
        private String bundle;

        public String getBundle() {
            return bundle;
        }

        public void setBundle(String bundle) {
            this.bundle = bundle;
        }

        /** Whether a certificate is configured, as PEM files, a key store or an SSL bundle. */
        public boolean isSet() {
            return pemCertificate != null || pemPrivateKey != null || keystore != null || bundle != null;
        }

        public Path getPemCertificate() {
            return pemCertificate;
        }

        public void setPemCertificate(Path pemCertificate) {
            this.pemCertificate = pemCertificate;
        }

        public Path getPemPrivateKey() {
            return pemPrivateKey;
        }

        public void setPemPrivateKey(Path pemPrivateKey) {
            this.pemPrivateKey = pemPrivateKey;
        }

        public String getPemPrivateKeyPassword() {
            return pemPrivateKeyPassword;
        }

        public void setPemPrivateKeyPassword(String pemPrivateKeyPassword) {
            this.pemPrivateKeyPassword = pemPrivateKeyPassword;
        }

        public Path getKeystore() {
            return keystore;
        }

        public void setKeystore(Path keystore) {
            this.keystore = keystore;
        }

        public String getKeystorePassword() {
            return keystorePassword;
        }

        public void setKeystorePassword(String keystorePassword) {
            this.keystorePassword = keystorePassword;
        }

        public String getAlias() {
            return alias;
        }

        public void setAlias(String alias) {
            this.alias = alias;
        }
    }

    /** Keep-alive of an idle connection: a Read of the server state when nothing else was received. */
    public static class KeepAlive {

        /** Interval of the keep-alive Read. */
        @PositiveDuration
        private Duration interval = Duration.ofSeconds(5);

        /** Keep-alive Reads that may fail in a row before the connection counts as lost and is rebuilt. */
        @PositiveOrZero
        private int failuresAllowed = 1;

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            this.interval = interval;
        }

        public int getFailuresAllowed() {
            return failuresAllowed;
        }

        public void setFailuresAllowed(int failuresAllowed) {
            this.failuresAllowed = failuresAllowed;
        }
    }

    /** Reconnecting after the connection was lost: exponential back-off with jitter. */
    public static class Reconnect {

        /** Delay before the first attempt. */
        @PositiveDuration
        private Duration initialDelay = Duration.ofSeconds(1);

        /** Longest delay between attempts. */
        @PositiveDuration
        private Duration maxDelay = Duration.ofSeconds(5);

        /** What requests do while the client reconnects: wait (bounded by the request timeout) or fail-fast. */
        private String whileReconnecting = "wait";

        /** Requests that may wait for the connection at once; more fail with BadNotConnected. */
        @PositiveOrZero
        private int maxWaitingRequests = 1000;

        public Duration getInitialDelay() {
            return initialDelay;
        }

        public void setInitialDelay(Duration initialDelay) {
            this.initialDelay = initialDelay;
        }

        public Duration getMaxDelay() {
            return maxDelay;
        }

        public void setMaxDelay(Duration maxDelay) {
            this.maxDelay = maxDelay;
        }

        public String getWhileReconnecting() {
            return whileReconnecting;
        }

        public void setWhileReconnecting(String whileReconnecting) {
            this.whileReconnecting = whileReconnecting;
        }

        public int getMaxWaitingRequests() {
            return maxWaitingRequests;
        }

        public void setMaxWaitingRequests(int maxWaitingRequests) {
            this.maxWaitingRequests = maxWaitingRequests;
        }
    }

    /** Subscriptions of this connection: the Publish pipeline and the defaults of annotated listeners. */
    public static class Subscriptions {

        /** Publishing interval of the subscriptions that annotated listeners create. */
        @PositiveDuration
        private Duration publishingInterval = Duration.ofSeconds(1);

        /** Sampling interval of a listener that gives none. */
        @PositiveDuration(orZero = true)
        private Duration samplingInterval = Duration.ofMillis(500);

        /** Queue size of a data-change listener that gives none. */
        @Positive
        private int queueSize = 1;

        /** Most Publish requests kept outstanding (fewer while the server answers BadTooManyPublishRequests). */
        @Positive
        private int maxPublishRequests = 10;

        /**
         * Notifications queued for one subscription's listeners: Publish requests are held back while it has
         * no room for another response; only a response larger than the room left is dropped (and counted).
         */
        @Positive
        private int maxQueuedNotifications = 10_000;

        /** Most monitored items created, modified or deleted in one request (fewer when the server's limit is lower). */
        @Positive
        private int maxItemsPerRequest = 1000;

        public Duration getPublishingInterval() {
            return publishingInterval;
        }

        public void setPublishingInterval(Duration publishingInterval) {
            this.publishingInterval = publishingInterval;
        }

        public Duration getSamplingInterval() {
            return samplingInterval;
        }

        public void setSamplingInterval(Duration samplingInterval) {
            this.samplingInterval = samplingInterval;
        }

        public int getQueueSize() {
            return queueSize;
        }

        public void setQueueSize(int queueSize) {
            this.queueSize = queueSize;
        }

        public int getMaxPublishRequests() {
            return maxPublishRequests;
        }

        public void setMaxPublishRequests(int maxPublishRequests) {
            this.maxPublishRequests = maxPublishRequests;
        }

        public int getMaxQueuedNotifications() {
            return maxQueuedNotifications;
        }

        public void setMaxQueuedNotifications(int maxQueuedNotifications) {
            this.maxQueuedNotifications = maxQueuedNotifications;
        }

        public int getMaxItemsPerRequest() {
            return maxItemsPerRequest;
        }

        public void setMaxItemsPerRequest(int maxItemsPerRequest) {
            this.maxItemsPerRequest = maxItemsPerRequest;
        }
    }
}
