package dev.opcua.spring.boot.autoconfigure.server;

import dev.opcua.spring.boot.autoconfigure.transport.TransportQuotaProperties;
import dev.opcua.spring.boot.autoconfigure.validation.CheckedProperties;
import dev.opcua.spring.boot.autoconfigure.validation.DataSizeRange;
import dev.opcua.spring.boot.autoconfigure.validation.PositiveDuration;
import dev.opcua.stack.server.redundancy.RedundancyMode;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.validation.constraints.Size;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Period;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.core.io.Resource;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * Configuration of the auto-configured OPC UA server, under {@code opcua.server}. Every default is
 * the stack's own default ({@code OpcUaServer.builder()} unchanged), so that an empty configuration
 * gives the stack's default server; see docs/CONFIGURATION.md for each key's OPC Foundation .NET
 * counterpart. Ranges of single values are constraints checked when the properties are bound; rules
 * that join several values are checked when the server is built, by {@link OpcUaServerPropertiesMapper}
 * and the stack.
 */
@ConfigurationProperties("opcua.server")
public class OpcUaServerProperties implements CheckedProperties {

    /** Whether to auto-configure and start the OPC UA server. */
    private boolean enabled = true;

    /** Application name of the server (ApplicationDescription.ApplicationName, certificate common name). */
    @NotBlank
    private String applicationName = "OPC UA server";

    /** Application URI of the server; must match the URI in its application certificate. */
    @NotBlank
    private String applicationUri = "urn:dev.opcua:server";

    /** Product URI of the server (BuildInfo.ProductUri). */
    @NotBlank
    private String productUri = "urn:dev.opcua:stack";

    /** Network address the server listens on; 0.0.0.0 for every interface. */
    @NotBlank
    private String bindAddress = "0.0.0.0";

    /** TCP port the server listens on; 0 for an ephemeral port (see OpcUaServerStartedEvent). */
    @Min(0)
    @Max(65_535)
    private int port = 4840;

    /** Path of the endpoint URL, starting with '/'. */
    @NotNull
    @Pattern(regexp = "/.*", message = "must start with '/', such as / or /plant")
    private String path = "/";

    /** Host names of the endpoint URLs and of a created certificate, the first one the default. */
    @NotEmpty
    private List<@NotBlank String> hostnames = new ArrayList<>(Arrays.asList("localhost"));

    /**
     * How long a stopping server announces its shutdown (ServerState Shutdown, SecondsTillShutdown
     * counting down) before it closes; 0 closes at once.
     */
    @PositiveDuration(orZero = true)
    private Duration shutdownDelay = Duration.ZERO;

    /**
     * How long the server is expected to be away once it stopped (a rolling restart, an upgrade): during the
     * announced shutdown ({@code shutdown-delay}) Server.EstimatedReturnTime shows when it is expected back, so
     * that clients know when to reconnect (Part 5, 6.3.1). Unset: not known, the null DateTime.
     */
    private Duration expectedDowntime;

    public Duration getExpectedDowntime() {
        return expectedDowntime;
    }

    public void setExpectedDowntime(Duration expectedDowntime) {
        this.expectedDowntime = expectedDowntime;
    }

    /**
     * Whether the server raises audit events (Part 4, 6.5) on the Server object for logins, secure
     * channels, writes, method calls and refused certificates, and hands them to an AuditEventRepository
     * bean (/actuator/auditevents) when the application has one.
     */
    private boolean auditing;

    /**
     * NodeSet2 files (companion specifications) imported at start, in order: each file's
     * RequiredModels must be namespace 0 or a file listed before it. Spring resource locations,
     * e.g. classpath:nodesets/Opc.Ua.Di.NodeSet2.xml or file:/etc/opcua/Opc.Ua.Machinery.NodeSet2.xml,
     * or a model built into the server (generated from its NodeSet2 file): model:di or model:machinery.
     */
    private List<Resource> nodesets = new ArrayList<>();

    @Valid
    private final Transport transport = new Transport();

    @Valid
    private final Requests requests = new Requests();

    @Valid
    private final Limits limits = new Limits();

    @Valid
    private final Subscriptions subscriptions = new Subscriptions();

    @Valid
    private final Security security = new Security();

    @Valid
    private final Identity identity = new Identity();

    @Valid
    private final Access access = new Access();

    @Valid
    private final NodeManagement nodeManagement = new NodeManagement();

    @Valid
    private final ReverseConnect reverseConnect = new ReverseConnect();

    public ReverseConnect getReverseConnect() {
        return reverseConnect;
    }

    @Valid
    private final Redundancy redundancy = new Redundancy();

    public Redundancy getRedundancy() {
        return redundancy;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
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

    public String getBindAddress() {
        return bindAddress;
    }

    public void setBindAddress(String bindAddress) {
        this.bindAddress = bindAddress;
    }

    public int getPort() {
        return port;
    }

    public void setPort(int port) {
        this.port = port;
    }

    public String getPath() {
        return path;
    }

    public void setPath(String path) {
        this.path = path;
    }

    public List<String> getHostnames() {
        return hostnames;
    }

    public void setHostnames(List<String> hostnames) {
        this.hostnames = hostnames;
    }

    public boolean isAuditing() {
        return auditing;
    }

    public void setAuditing(boolean auditing) {
        this.auditing = auditing;
    }

    public Duration getShutdownDelay() {
        return shutdownDelay;
    }

    public void setShutdownDelay(Duration shutdownDelay) {
        this.shutdownDelay = shutdownDelay;
    }

    public List<Resource> getNodesets() {
        return nodesets;
    }

    public void setNodesets(List<Resource> nodesets) {
        this.nodesets = nodesets;
    }

    public Transport getTransport() {
        return transport;
    }

    public Requests getRequests() {
        return requests;
    }

    public Limits getLimits() {
        return limits;
    }

    public Subscriptions getSubscriptions() {
        return subscriptions;
    }

    public Security getSecurity() {
        return security;
    }

    public Identity getIdentity() {
        return identity;
    }

    public Access getAccess() {
        return access;
    }

    public NodeManagement getNodeManagement() {
        return nodeManagement;
    }

    /**
     * Limits and timers of UA TCP connections and secure channels (the stack's TransportQuotas): the
     * limits a client connection configures too, and the server's own timers and threads.
     */
    public static class Transport extends TransportQuotaProperties {

        /** How long a request may take before the peer gives up on it (OperationTimeout). */
        @PositiveDuration
        private Duration operationTimeout = Duration.ofSeconds(120);

        /** How long a secure channel whose socket dropped is kept for the client to reconnect (ChannelLifetime). */
        @PositiveDuration
        private Duration channelLifetime = Duration.ofSeconds(30);

        /** How long a new connection may take to send its Hello message. */
        @PositiveDuration
        private Duration helloTimeout = Duration.ofSeconds(10);

        /** Event loop threads of the transport; 0 is one per processor. */
        @PositiveOrZero
        private int ioThreads = 0;

        /**
         * Socket reads a connection makes per turn of its event loop before the loop serves the next ready
         * connection; 1 keeps a flooding client from holding the loop from the others on it.
         */
        @Positive
        private int readsPerTurn = 1;

        /**
         * How long a message begun on an open channel (a partial chunk, or the first chunks of a request)
         * may take to arrive whole; beyond, ERR BadTimeout and the connection closes.
         */
        @PositiveDuration
        private Duration messageReceiveTimeout = Duration.ofSeconds(60);

        /**
         * Bytes queued for one connection's socket before the server stops reading its requests (the low
         * mark is half).
         */
        @DataSizeRange
        private DataSize writeBufferHighWaterMark = DataSize.ofMegabytes(4);

        /** How long a connection's outbound queue may stay above the high-water mark before it is closed. */
        @PositiveDuration
        private Duration writeStallTimeout = Duration.ofSeconds(30);

        /**
         * Most bytes queued for one connection's socket, at least the high-water mark: a response that
         * would take the queue past it closes the connection at once (the responses to requests read
         * before reading stopped).
         */
        @DataSizeRange
        private DataSize writeBufferLimit = DataSize.ofMegabytes(32);

        public Duration getMessageReceiveTimeout() {
            return messageReceiveTimeout;
        }

        public void setMessageReceiveTimeout(Duration messageReceiveTimeout) {
            this.messageReceiveTimeout = messageReceiveTimeout;
        }

        public DataSize getWriteBufferHighWaterMark() {
            return writeBufferHighWaterMark;
        }

        public void setWriteBufferHighWaterMark(DataSize writeBufferHighWaterMark) {
            this.writeBufferHighWaterMark = writeBufferHighWaterMark;
        }

        public Duration getWriteStallTimeout() {
            return writeStallTimeout;
        }

        public void setWriteStallTimeout(Duration writeStallTimeout) {
            this.writeStallTimeout = writeStallTimeout;
        }

        public DataSize getWriteBufferLimit() {
            return writeBufferLimit;
        }

        public void setWriteBufferLimit(DataSize writeBufferLimit) {
            this.writeBufferLimit = writeBufferLimit;
        }

        public Duration getOperationTimeout() {
            return operationTimeout;
        }

        public void setOperationTimeout(Duration operationTimeout) {
            this.operationTimeout = operationTimeout;
        }

        public Duration getChannelLifetime() {
            return channelLifetime;
        }

        public void setChannelLifetime(Duration channelLifetime) {
            this.channelLifetime = channelLifetime;
        }

        public Duration getHelloTimeout() {
            return helloTimeout;
        }

        public void setHelloTimeout(Duration helloTimeout) {
            this.helloTimeout = helloTimeout;
        }

        public int getIoThreads() {
            return ioThreads;
        }

        public void setIoThreads(int ioThreads) {
            this.ioThreads = ioThreads;
        }

        public int getReadsPerTurn() {
            return readsPerTurn;
        }

        public void setReadsPerTurn(int readsPerTurn) {
            this.readsPerTurn = readsPerTurn;
        }
    }

    /** Request queue and worker threads (the stack's RequestPoolSettings). */
    public static class Requests {

        /** Requests that may wait for a worker; beyond, BadServerTooBusy (MaxQueuedRequestCount). */
        @Positive
        private int maxQueued = 200;

        /** Workers kept when idle (MinRequestThreadCount); ignored with virtual threads. */
        @PositiveOrZero
        private int minThreads = 10;

        /** Most workers, and with virtual threads most requests running at once (MaxRequestThreadCount). */
        @Positive
        private int maxThreads = 100;

        /** Requests that may wait in the priority lane (session and channel housekeeping), in addition. */
        @PositiveOrZero
        private int maxPriorityQueued = 20;

        /** Whether each worker is a virtual thread (Java 21+; platform threads and a warning on older runtimes). */
        private boolean virtualThreads = false;

        /** How long a request may wait in the queue; older ones are answered BadTimeout instead of run. */
        @PositiveDuration
        private Duration maxRequestAge = Duration.ofMinutes(10);

        /** How long a worker above min-threads waits idle before it ends. */
        @PositiveDuration
        private Duration workerKeepAlive = Duration.ofSeconds(60);

        /**
         * Whether a small Read or Write runs on the I/O thread that received it when no request waits for
         * a worker and every node manager is non-blocking (NodeManager.isNonBlocking), saving two thread
         * hand-offs; false sends every request through the queue to a worker.
         */
        private boolean inlineWhenIdle = true;

        /**
         * Workers one session may hold at once; its further requests wait in the queue (and past max-queued
         * are answered BadServerTooBusy), so that one flooding session cannot keep every worker busy. 0 = no
         * bound.
         */
        @PositiveOrZero
        private int maxRunningPerSession = 0;

        /**
         * Small requests (Reads and Writes that may run on the I/O thread) one connection may have served per
         * socket read while it sends more than the server reads: when two reads in a row bring more, the rest
         * of the second is answered BadServerTooBusy at once; a burst that fits one read is served whole.
         * With inline-when-idle only. 0 = no bound.
         */
        @PositiveOrZero
        private int maxPerRead = RequestPoolSettings.DEFAULT_MAX_REQUESTS_PER_READ;

        public int getMaxPerRead() {
            return maxPerRead;
        }

        public void setMaxPerRead(int maxPerRead) {
            this.maxPerRead = maxPerRead;
        }

        public int getMaxRunningPerSession() {
            return maxRunningPerSession;
        }

        public void setMaxRunningPerSession(int maxRunningPerSession) {
            this.maxRunningPerSession = maxRunningPerSession;
        }

        public boolean isInlineWhenIdle() {
            return inlineWhenIdle;
        }

        public void setInlineWhenIdle(boolean inlineWhenIdle) {
            this.inlineWhenIdle = inlineWhenIdle;
        }

        public int getMaxQueued() {
            return maxQueued;
        }

        public void setMaxQueued(int maxQueued) {
            this.maxQueued = maxQueued;
        }

        public int getMinThreads() {
            return minThreads;
        }

        public void setMinThreads(int minThreads) {
            this.minThreads = minThreads;
        }

        public int getMaxThreads() {
            return maxThreads;
        }

        public void setMaxThreads(int maxThreads) {
            this.maxThreads = maxThreads;
        }

        public int getMaxPriorityQueued() {
            return maxPriorityQueued;
        }

        public void setMaxPriorityQueued(int maxPriorityQueued) {
            this.maxPriorityQueued = maxPriorityQueued;
        }

        public boolean isVirtualThreads() {
            return virtualThreads;
        }

        public void setVirtualThreads(boolean virtualThreads) {
            this.virtualThreads = virtualThreads;
        }

        public Duration getMaxRequestAge() {
            return maxRequestAge;
        }

        public void setMaxRequestAge(Duration maxRequestAge) {
            this.maxRequestAge = maxRequestAge;
        }

        public Duration getWorkerKeepAlive() {
            return workerKeepAlive;
        }

        public void setWorkerKeepAlive(Duration workerKeepAlive) {
            this.workerKeepAlive = workerKeepAlive;
        }
    }

    /** Sessions, connections, continuation points and operation limits. */
    public static class Limits {

        /** Sessions open at once; one more is refused with BadTooManySessions (MaxSessionCount). */
        @Positive
        private int maxSessions = 100;

        /** Connections (sockets, hence secure channels) open at once (MaxChannelCount). */
        @Positive
        private int maxChannels = 1000;

        /** Shortest session timeout granted; shorter requests are raised to it (MinSessionTimeout). */
        @PositiveDuration
        private Duration minSessionTimeout = Duration.ofSeconds(10);

        /** Longest session timeout granted; longer requests are lowered to it (MaxSessionTimeout). */
        @PositiveDuration
        private Duration maxSessionTimeout = Duration.ofHours(1);

        /** Browse continuation points one session may hold (MaxBrowseContinuationPoints). */
        @Positive
        private int maxBrowseContinuationPoints = 10;

        /** Elements of one TranslateBrowsePathsToNodeIds path; a longer path is answered BadQueryTooComplex. */
        @Positive
        private int maxBrowsePathElements = 64;

        /** Failed user authentications before a client is locked out; 0 disables the lock-out. */
        @PositiveOrZero
        private int maxFailedAuthenticationAttempts = 5;

        /** How long a locked-out client certificate stays locked out. */
        @PositiveDuration
        private Duration failedAuthenticationLockout = Duration.ofMinutes(1);

        @Valid
        private final Operation operation = new Operation();

        public int getMaxSessions() {
            return maxSessions;
        }

        public void setMaxSessions(int maxSessions) {
            this.maxSessions = maxSessions;
        }

        public int getMaxBrowsePathElements() {
            return maxBrowsePathElements;
        }

        public void setMaxBrowsePathElements(int maxBrowsePathElements) {
            this.maxBrowsePathElements = maxBrowsePathElements;
        }

        public int getMaxChannels() {
            return maxChannels;
        }

        public void setMaxChannels(int maxChannels) {
            this.maxChannels = maxChannels;
        }

        public Duration getMinSessionTimeout() {
            return minSessionTimeout;
        }

        public void setMinSessionTimeout(Duration minSessionTimeout) {
            this.minSessionTimeout = minSessionTimeout;
        }

        public Duration getMaxSessionTimeout() {
            return maxSessionTimeout;
        }

        public void setMaxSessionTimeout(Duration maxSessionTimeout) {
            this.maxSessionTimeout = maxSessionTimeout;
        }

        public int getMaxBrowseContinuationPoints() {
            return maxBrowseContinuationPoints;
        }

        public void setMaxBrowseContinuationPoints(int maxBrowseContinuationPoints) {
            this.maxBrowseContinuationPoints = maxBrowseContinuationPoints;
        }

        public int getMaxFailedAuthenticationAttempts() {
            return maxFailedAuthenticationAttempts;
        }

        public void setMaxFailedAuthenticationAttempts(int maxFailedAuthenticationAttempts) {
            this.maxFailedAuthenticationAttempts = maxFailedAuthenticationAttempts;
        }

        public Duration getFailedAuthenticationLockout() {
            return failedAuthenticationLockout;
        }

        public void setFailedAuthenticationLockout(Duration failedAuthenticationLockout) {
            this.failedAuthenticationLockout = failedAuthenticationLockout;
        }

        public Operation getOperation() {
            return operation;
        }
    }

    /** Operations one service request may carry (Server.ServerCapabilities.OperationLimits); 0 = no limit. */
    public static class Operation {

        /** Nodes in one Read request; 0 = no limit. */
        @PositiveOrZero
        private int maxNodesPerRead = 0;

        /** Nodes in one Write request; 0 = no limit. */
        @PositiveOrZero
        private int maxNodesPerWrite = 0;

        /** Nodes in one Browse request; 0 = no limit. */
        @PositiveOrZero
        private int maxNodesPerBrowse = 0;

        /** Methods in one Call request; 0 = no limit. */
        @PositiveOrZero
        private int maxNodesPerMethodCall = 0;

        /** Browse paths in one TranslateBrowsePathsToNodeIds request; 0 = no limit. */
        @PositiveOrZero
        private int maxNodesPerTranslateBrowsePaths = 0;

        /** Nodes in one RegisterNodes or UnregisterNodes request; 0 = no limit. */
        @PositiveOrZero
        private int maxNodesPerRegisterNodes = 0;

        /** Monitored items in one Create/Modify/DeleteMonitoredItems or SetMonitoringMode request; 0 = no limit. */
        @PositiveOrZero
        private int maxMonitoredItemsPerCall = 0;

        /** Items in one AddNodes, AddReferences, DeleteNodes or DeleteReferences request; 0 = no limit. */
        @PositiveOrZero
        private int maxNodesPerNodeManagement = 0;

        public int getMaxNodesPerNodeManagement() {
            return maxNodesPerNodeManagement;
        }

        public void setMaxNodesPerNodeManagement(int maxNodesPerNodeManagement) {
            this.maxNodesPerNodeManagement = maxNodesPerNodeManagement;
        }

        public int getMaxNodesPerRead() {
            return maxNodesPerRead;
        }

        public void setMaxNodesPerRead(int maxNodesPerRead) {
            this.maxNodesPerRead = maxNodesPerRead;
        }

        public int getMaxNodesPerWrite() {
            return maxNodesPerWrite;
        }

        public void setMaxNodesPerWrite(int maxNodesPerWrite) {
            this.maxNodesPerWrite = maxNodesPerWrite;
        }

        public int getMaxNodesPerBrowse() {
            return maxNodesPerBrowse;
        }

        public void setMaxNodesPerBrowse(int maxNodesPerBrowse) {
            this.maxNodesPerBrowse = maxNodesPerBrowse;
        }

        public int getMaxNodesPerMethodCall() {
            return maxNodesPerMethodCall;
        }

        public void setMaxNodesPerMethodCall(int maxNodesPerMethodCall) {
            this.maxNodesPerMethodCall = maxNodesPerMethodCall;
        }

        public int getMaxNodesPerTranslateBrowsePaths() {
            return maxNodesPerTranslateBrowsePaths;
        }

        public void setMaxNodesPerTranslateBrowsePaths(int maxNodesPerTranslateBrowsePaths) {
            this.maxNodesPerTranslateBrowsePaths = maxNodesPerTranslateBrowsePaths;
        }

        public int getMaxNodesPerRegisterNodes() {
            return maxNodesPerRegisterNodes;
        }

        public void setMaxNodesPerRegisterNodes(int maxNodesPerRegisterNodes) {
            this.maxNodesPerRegisterNodes = maxNodesPerRegisterNodes;
        }

        public int getMaxMonitoredItemsPerCall() {
            return maxMonitoredItemsPerCall;
        }

        public void setMaxMonitoredItemsPerCall(int maxMonitoredItemsPerCall) {
            this.maxMonitoredItemsPerCall = maxMonitoredItemsPerCall;
        }
    }

    /** Subscriptions and monitored items (the stack's SubscriptionSettings and MonitoredItemSettings). */
    public static class Subscriptions {

        /** Fastest publishing interval granted (MinPublishingInterval). */
        @PositiveDuration
        private Duration minPublishingInterval = Duration.ofMillis(100);

        /** Slowest publishing interval granted (MaxPublishingInterval). */
        @PositiveDuration
        private Duration maxPublishingInterval = Duration.ofHours(1);

        /** Smallest keep-alive count granted; a request of 0 gets it. */
        @Positive
        private int minKeepAliveCount = 1;

        /** Largest keep-alive count granted. */
        @Positive
        private int maxKeepAliveCount = 10_000;

        /** Largest lifetime count granted; at least three times max-keep-alive-count. */
        @Positive
        private int maxLifetimeCount = 30_000;

        /** Subscriptions of the whole server (MaxSubscriptionCount). */
        @Positive
        private int maxSubscriptions = 100;

        /** Subscriptions of one session. */
        @Positive
        private int maxSubscriptionsPerSession = 100;

        /** Monitored items of the whole server; 0 = no limit. */
        @PositiveOrZero
        private int maxMonitoredItems = 0;

        /** Monitored items of one subscription; 0 = no limit. */
        @PositiveOrZero
        private int maxMonitoredItemsPerSubscription = 0;

        /** Publish requests one session may park (MaxPublishRequestCount). */
        @Positive
        private int maxPublishRequestsPerSession = 20;

        /** Notifications in one NotificationMessage at most (MaxNotificationsPerPublish). */
        @Positive
        private int maxNotificationsPerPublish = 100;

        /** Sent messages each subscription keeps for Republish (MaxMessageQueueSize); 0 = none kept. */
        @PositiveOrZero
        private int maxRetransmissionQueueSize = 10;

        /** Largest queue of one data-change monitored item (MaxNotificationQueueSize). */
        @Positive
        private int maxNotificationQueueSize = 100;

        /** Smallest event queue of an event monitored item; a requested size of 1 gets it. */
        @Positive
        private int minEventQueueSize = 100;

        /** Event queue of an event monitored item whose client asks for 0. */
        @Positive
        private int defaultEventQueueSize = 1_000;

        /** Largest event queue of an event monitored item (MaxEventQueueSize). */
        @Positive
        private int maxEventQueueSize = 10_000;

        /** Fastest sampling interval granted to a sampled monitored item; 0 and faster requests get it. */
        @PositiveDuration
        private Duration minSamplingInterval = Duration.ofMillis(10);

        /** Slowest sampling interval granted to a monitored item. */
        @PositiveDuration
        private Duration maxSamplingInterval = Duration.ofHours(1);

        /**
         * Longest lifetime SetSubscriptionDurable grants a durable subscription (Part 5, 9.3); longer
         * requests, and 0, are revised to it. Whole hours, at least 1h.
         */
        @PositiveDuration
        private Duration maxDurableLifetime = Duration.ofHours(24);

        /** Largest queue of a monitored item of a durable subscription (Part 4, 6.8). */
        @Positive
        private int maxDurableQueueSize = 10_000;

        /**
         * How often durable subscriptions that changed are saved to their store: what a crash (kill -9) of the
         * server can lose of what they queued. 10ms to 1m.
         */
        @PositiveDuration
        private Duration durableSavePeriod = Duration.ofMillis(100);

        public Duration getDurableSavePeriod() {
            return durableSavePeriod;
        }

        public void setDurableSavePeriod(Duration durableSavePeriod) {
            this.durableSavePeriod = durableSavePeriod;
        }

        public Duration getMaxDurableLifetime() {
            return maxDurableLifetime;
        }

        public void setMaxDurableLifetime(Duration maxDurableLifetime) {
            this.maxDurableLifetime = maxDurableLifetime;
        }

        public int getMaxDurableQueueSize() {
            return maxDurableQueueSize;
        }

        public void setMaxDurableQueueSize(int maxDurableQueueSize) {
            this.maxDurableQueueSize = maxDurableQueueSize;
        }

        public Duration getMinPublishingInterval() {
            return minPublishingInterval;
        }

        public void setMinPublishingInterval(Duration minPublishingInterval) {
            this.minPublishingInterval = minPublishingInterval;
        }

        public Duration getMaxPublishingInterval() {
            return maxPublishingInterval;
        }

        public void setMaxPublishingInterval(Duration maxPublishingInterval) {
            this.maxPublishingInterval = maxPublishingInterval;
        }

        public int getMinKeepAliveCount() {
            return minKeepAliveCount;
        }

        public void setMinKeepAliveCount(int minKeepAliveCount) {
            this.minKeepAliveCount = minKeepAliveCount;
        }

        public int getMaxKeepAliveCount() {
            return maxKeepAliveCount;
        }

        public void setMaxKeepAliveCount(int maxKeepAliveCount) {
            this.maxKeepAliveCount = maxKeepAliveCount;
        }

        public int getMaxLifetimeCount() {
            return maxLifetimeCount;
        }

        public void setMaxLifetimeCount(int maxLifetimeCount) {
            this.maxLifetimeCount = maxLifetimeCount;
        }

        public int getMaxSubscriptions() {
            return maxSubscriptions;
        }

        public void setMaxSubscriptions(int maxSubscriptions) {
            this.maxSubscriptions = maxSubscriptions;
        }

        public int getMaxSubscriptionsPerSession() {
            return maxSubscriptionsPerSession;
        }

        public void setMaxSubscriptionsPerSession(int maxSubscriptionsPerSession) {
            this.maxSubscriptionsPerSession = maxSubscriptionsPerSession;
        }

        public int getMaxMonitoredItems() {
            return maxMonitoredItems;
        }

        public void setMaxMonitoredItems(int maxMonitoredItems) {
            this.maxMonitoredItems = maxMonitoredItems;
        }

        public int getMaxMonitoredItemsPerSubscription() {
            return maxMonitoredItemsPerSubscription;
        }

        public void setMaxMonitoredItemsPerSubscription(int maxMonitoredItemsPerSubscription) {
            this.maxMonitoredItemsPerSubscription = maxMonitoredItemsPerSubscription;
        }

        public int getMaxPublishRequestsPerSession() {
            return maxPublishRequestsPerSession;
        }

        public void setMaxPublishRequestsPerSession(int maxPublishRequestsPerSession) {
            this.maxPublishRequestsPerSession = maxPublishRequestsPerSession;
        }

        public int getMaxNotificationsPerPublish() {
            return maxNotificationsPerPublish;
        }

        public void setMaxNotificationsPerPublish(int maxNotificationsPerPublish) {
            this.maxNotificationsPerPublish = maxNotificationsPerPublish;
        }

        public int getMaxRetransmissionQueueSize() {
            return maxRetransmissionQueueSize;
        }

        public void setMaxRetransmissionQueueSize(int maxRetransmissionQueueSize) {
            this.maxRetransmissionQueueSize = maxRetransmissionQueueSize;
        }

        public int getMaxNotificationQueueSize() {
            return maxNotificationQueueSize;
        }

        public void setMaxNotificationQueueSize(int maxNotificationQueueSize) {
            this.maxNotificationQueueSize = maxNotificationQueueSize;
        }

        public int getMinEventQueueSize() {
            return minEventQueueSize;
        }

        public void setMinEventQueueSize(int minEventQueueSize) {
            this.minEventQueueSize = minEventQueueSize;
        }

        public int getDefaultEventQueueSize() {
            return defaultEventQueueSize;
        }

        public void setDefaultEventQueueSize(int defaultEventQueueSize) {
            this.defaultEventQueueSize = defaultEventQueueSize;
        }

        public int getMaxEventQueueSize() {
            return maxEventQueueSize;
        }

        public void setMaxEventQueueSize(int maxEventQueueSize) {
            this.maxEventQueueSize = maxEventQueueSize;
        }

        public Duration getMinSamplingInterval() {
            return minSamplingInterval;
        }

        public void setMinSamplingInterval(Duration minSamplingInterval) {
            this.minSamplingInterval = minSamplingInterval;
        }

        public Duration getMaxSamplingInterval() {
            return maxSamplingInterval;
        }

        public void setMaxSamplingInterval(Duration maxSamplingInterval) {
            this.maxSamplingInterval = maxSamplingInterval;
        }
    }

    /** Endpoint security, the application certificate and the trust of client certificates. */
    public static class Security {

        /**
         * Security policies offered, by name (Basic256Sha256) or URI. When not set: Basic256Sha256,
         * Aes128_Sha256_RsaOaep and Aes256_Sha256_RsaPss when a PKI directory is configured, otherwise
         * None only. None and the deprecated Basic128Rsa15 and Basic256 are offered only when listed.
         */
        @Size(min = 1, message = "must list one or more security policies")
        private List<String> policies;

        /** Message security modes offered with each policy other than None: Sign, SignAndEncrypt. */
        private List<String> modes = new ArrayList<>(Arrays.asList("Sign", "SignAndEncrypt"));

        /**
         * PKI directory (own/, trusted/, issuers/, rejected/): holds the application certificate,
         * created on first start when absent, and the trust lists of client certificates. Created when missing.
         */
        private Path pkiDir;

        @Valid
        private final Certificate certificate = new Certificate();

        @Valid
        private final PushManagement pushManagement = new PushManagement();

        /** Whether client certificates that are not trusted are accepted anyway (development only). */
        private boolean autoAcceptUntrusted = false;

        /** Smallest RSA key, in bits, accepted in a client certificate chain (MinimumCertificateKeySize). */
        @PositiveOrZero
        private int minKeySize = 2048;

        /** Whether client certificates signed with SHA-1 are rejected (RejectSHA1SignedCertificates). */
        private boolean rejectSha1Signed = true;

        public List<String> getPolicies() {
            return policies;
        }

        public void setPolicies(List<String> policies) {
            this.policies = policies;
        }

        public List<String> getModes() {
            return modes;
        }

        public void setModes(List<String> modes) {
            this.modes = modes;
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

        public PushManagement getPushManagement() {
            return pushManagement;
        }

        public boolean isAutoAcceptUntrusted() {
            return autoAcceptUntrusted;
        }

        public void setAutoAcceptUntrusted(boolean autoAcceptUntrusted) {
            this.autoAcceptUntrusted = autoAcceptUntrusted;
        }

        public int getMinKeySize() {
            return minKeySize;
        }

        public void setMinKeySize(int minKeySize) {
            this.minKeySize = minKeySize;
        }

        public boolean isRejectSha1Signed() {
            return rejectSha1Signed;
        }

        public void setRejectSha1Signed(boolean rejectSha1Signed) {
            this.rejectSha1Signed = rejectSha1Signed;
        }
    }

    /**
     * Push certificate management (Part 12, 7.10): the ServerConfiguration object's methods and TrustList, for
     * users with the SecurityAdmin role on SignAndEncrypt channels. Needs {@code pki-dir}.
     */
    public static class PushManagement {

        /** Whether the ServerConfiguration methods and TrustList answer when a PKI directory is configured. */
        private boolean enabled = true;

        /** Largest TrustList file accepted (MaxTrustListSize); 0B means no limit. */
        @DataSizeRange(min = 0)
        private DataSize maxTrustListSize = DataSize.ofMegabytes(1);

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public DataSize getMaxTrustListSize() {
            return maxTrustListSize;
        }

        public void setMaxTrustListSize(DataSize maxTrustListSize) {
            this.maxTrustListSize = maxTrustListSize;
        }
    }

    /**
     * Application instance certificate: created in the PKI directory on first start, or loaded from
     * PEM files, or from a key store.
     */
    public static class Certificate {

        /** RSA key size, in bits, of a certificate created on first start: 2048, 3072, 4096 ... 8192. */
        @Min(2048)
        @Max(8192)
        private int keySize = 2048;

        /** Validity of a certificate created on first start. */
        @PositiveDuration(message = "must be a positive period, such as 5y, 365d or P2Y6M")
        private Period validity = Period.ofDays(1826);

        /** PEM or DER file of the application certificate, followed by its issuers; with pem-private-key. */
        private Path pemCertificate;

        /** PEM file of the private key of pem-certificate (PKCS#8 or PKCS#1). */
        private Path pemPrivateKey;

        /** Password of an encrypted pem-private-key. */
        private String pemPrivateKeyPassword;

        /** PKCS#12 or JKS key store holding the application certificate and its private key. */
        private Path keystore;

        /** Password of the key store, also used for its key entry. */
        private String keystorePassword;

        /** Key entry of the key store; may be left out when it holds exactly one. */
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

        public int getKeySize() {
            return keySize;
        }

        public void setKeySize(int keySize) {
            this.keySize = keySize;
        }

        public Period getValidity() {
            return validity;
        }

        public void setValidity(Period validity) {
            this.validity = validity;
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

    /** Who may open a session: the anonymous user, users with passwords, users with X.509 certificates. */
    public static class Identity {

        /** Whether the anonymous user may open sessions. */
        private boolean anonymous = true;

        /** Users who log in with a user name and password. */
        @Valid
        private List<User> users = new ArrayList<>();

        /**
         * Whether users may log in with an X.509 certificate that the PKI directory's trust list
         * trusts; needs security.pki-dir.
         */
        private boolean x509 = false;

        public boolean isAnonymous() {
            return anonymous;
        }

        public void setAnonymous(boolean anonymous) {
            this.anonymous = anonymous;
        }

        public List<User> getUsers() {
            return users;
        }

        public void setUsers(List<User> users) {
            this.users = users;
        }

        public boolean isX509() {
            return x509;
        }

        public void setX509(boolean x509) {
            this.x509 = x509;
        }
    }

    /** A user who logs in with a user name and password. */
    public static class User {

        /** User name. */
        private String username;

        /**
         * Password: plain text (development only; prefix with {noop} when it starts with '{'), or a hash:
         * {bcrypt}$2a$..., {sha256}<hex of the SHA-256 of the UTF-8 password>.
         */
        private String password;

        /**
         * Well-known roles of the user (Part 3, 4.9.2): Observer, Operator, Engineer, Supervisor,
         * ConfigureAdmin, SecurityAdmin (any case, '-' allowed); AuthenticatedUser is granted to every
         * user anyway. The server checks them against the permissions of each node.
         */
        private List<String> roles = new ArrayList<>();

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

        public List<String> getRoles() {
            return roles;
        }

        public void setRoles(List<String> roles) {
            this.roles = roles;
        }
    }

    /**
     * Reverse connect (Part 6, 7.1.3): the clients this server dials, for a server behind a firewall that allows
     * only outgoing connections. Each client listens on {@code opc.tcp://host:port}; the server sends it a
     * ReverseHello with its ApplicationUri and first endpoint URL, and the client opens its secure channel over
     * that connection.
     */
    public static class ReverseConnect {

        /** The clients' listening sockets, {@code opc.tcp://host:port}; none by default. */
        private List<@NotBlank String> clients = new ArrayList<>();

        /** The wait before a client is dialled again after a failed connection or one it did not take. */
        @PositiveDuration
        private Duration retryInterval = Duration.ofSeconds(5);

        /** Connections kept open and waiting for each client, so that it can open a channel at once. */
        @Min(1)
        @Max(64)
        private int readyConnections = 1;

        public List<String> getClients() {
            return clients;
        }

        public void setClients(List<String> clients) {
            this.clients = clients;
        }

        public Duration getRetryInterval() {
            return retryInterval;
        }

        public void setRetryInterval(Duration retryInterval) {
            this.retryInterval = retryInterval;
        }

        public int getReadyConnections() {
            return readyConnections;
        }

        public void setReadyConnections(int readyConnections) {
            this.readyConnections = readyConnections;
        }
    }

    /**
     * Non-transparent server redundancy (Part 4, 6.6.2.4; Part 5, 6.3.9): this server's place in a redundant server
     * set, published under Server.ServerRedundancy (RedundancySupport, ServerUriArray, RedundantServerArray) so that
     * clients fail over by ServiceLevel. This server's ServerUri is its {@code application-uri}.
     */
    public static class Redundancy {

        /**
         * None (a stand-alone server, the default), Cold, Warm, Hot or HotAndMirrored (hot-and-mirrored: sessions and
         * subscriptions kept in PostgreSQL, see {@code state-store}, and taken over by the partner).
         */
        @NotNull
        private RedundancyMode mode = RedundancyMode.None;

        /** The other servers of the set: each one's server-uri (its application-uri) and endpoint-url. */
        @Valid
        private List<Partner> partners = new ArrayList<>();

        /** Where a HotAndMirrored server keeps its sessions for the partner: PostgreSQL on the DataSource bean. */
        private final StateStore stateStore = new StateStore();

        /** How a Warm, Hot or HotAndMirrored server watches its partners (RedundantServerArray, the pair check). */
        private final PartnerMonitor partnerMonitor = new PartnerMonitor();

        public PartnerMonitor getPartnerMonitor() {
            return partnerMonitor;
        }

        /**
         * The lowest ServiceLevel the {@code opcuaServiceLevel} health component reports UP (below: OUT_OF_SERVICE);
         * 2 by default, the Degraded band's lowest level, so that Maintenance (0) and NoData (1) take the server out
         * of a readiness group that includes the component.
         */
        @Min(0)
        @Max(255)
        private int readinessMinServiceLevel = 2;

        public int getReadinessMinServiceLevel() {
            return readinessMinServiceLevel;
        }

        public void setReadinessMinServiceLevel(int readinessMinServiceLevel) {
            this.readinessMinServiceLevel = readinessMinServiceLevel;
        }

        public StateStore getStateStore() {
            return stateStore;
        }

        public RedundancyMode getMode() {
            return mode;
        }

        public void setMode(RedundancyMode mode) {
            this.mode = mode;
        }

        public List<Partner> getPartners() {
            return partners;
        }

        public void setPartners(List<Partner> partners) {
            this.partners = partners;
        }
    }

    /**
     * The shared session store of a HotAndMirrored set (Part 4, 6.6.2.4.5): a table in the PostgreSQL of the
     * application's DataSource bean (the JDBC history store's database), or the application's own
     * SessionStateStore bean.
     */
    public static class StateStore {

        /** Prefix of the table, {@code <prefix>_sessions}, created at start; a lower-case SQL identifier. */
        private String tablePrefix = "opcua_state";

        /** How often the changed sessions are written: the most a crash of this server loses. */
        private Duration mirrorInterval = Duration.ofMillis(100);

        /**
         * How far back the values this server samples for its partners' sessions while standing by reach (each item
         * keeps at most its queue size of them): what a takeover adds after the stored state; longer than a
         * failover takes. 0 turns standby sampling off; at most 10 min.
         */
        private Duration standbyWindow = Duration.ofSeconds(5);

        public String getTablePrefix() {
            return tablePrefix;
        }

        public void setTablePrefix(String tablePrefix) {
            this.tablePrefix = tablePrefix;
        }

        public Duration getMirrorInterval() {
            return mirrorInterval;
        }

        public void setMirrorInterval(Duration mirrorInterval) {
            this.mirrorInterval = mirrorInterval;
        }

        public Duration getStandbyWindow() {
            return standbyWindow;
        }

        public void setStandbyWindow(Duration standbyWindow) {
            this.standbyWindow = standbyWindow;
        }
    }

    /** Another server of the redundant set. */
    public static class PartnerMonitor {

        /**
         * Whether each server of a Warm, Hot or HotAndMirrored set reads its partners (over a session of its own,
         * SecurityPolicy None, anonymous): RedundantServerArray shows them as they are (ServiceLevel 0, state
         * Unknown while unreachable), and a partner with another ServerUri, NamespaceArray or address space lowers
         * this server's ServiceLevel to 100. Cold sets never do.
         */
        private boolean enabled = true;

        /** How often each partner is read; 100 ms to 1 h. */
        private Duration interval = Duration.ofSeconds(2);

        /** How long one read may take before the partner counts as unreachable; 100 ms to 1 min. */
        private Duration requestTimeout = Duration.ofSeconds(5);

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Duration getInterval() {
            return interval;
        }

        public void setInterval(Duration interval) {
            this.interval = interval;
        }

        public Duration getRequestTimeout() {
            return requestTimeout;
        }

        public void setRequestTimeout(Duration requestTimeout) {
            this.requestTimeout = requestTimeout;
        }
    }

    public static class Partner {

        /** The partner's ServerUri: its application-uri, which must differ from this server's. */
        private String serverUri;

        /** Where clients reach the partner, {@code opc.tcp://host:port[/path]}. */
        private String endpointUrl;

        public String getServerUri() {
            return serverUri;
        }

        public void setServerUri(String serverUri) {
            this.serverUri = serverUri;
        }

        public String getEndpointUrl() {
            return endpointUrl;
        }

        public void setEndpointUrl(String endpointUrl) {
            this.endpointUrl = endpointUrl;
        }
    }

    /** Role permissions (Part 3, 4.9 and 5.2.9): which roles may do what on the nodes of a namespace. */
    public static class Access {

        /**
         * Default permissions per namespace (DefaultRolePermissions): apply to the namespace's nodes
         * that have none of their own; a namespace not listed lets every role do everything.
         */
        @Valid
        private List<NamespaceAccess> namespaces = new ArrayList<>();

        public List<NamespaceAccess> getNamespaces() {
            return namespaces;
        }

        public void setNamespaces(List<NamespaceAccess> namespaces) {
            this.namespaces = namespaces;
        }
    }

    /** The default permissions of the nodes of one namespace. */
    public static class NamespaceAccess {

        /** Namespace URI, of an in-memory or annotated node manager, or http://opcfoundation.org/UA/. */
        @NotBlank
        private String uri;

        /**
         * Permissions (PermissionType names: browse, read, write, call, read-role-permissions,
         * read-history, receive-events ...) by well-known role name; a role not listed has none.
         */
        private Map<String, List<String>> permissions = new LinkedHashMap<>();

        public String getUri() {
            return uri;
        }

        public void setUri(String uri) {
            this.uri = uri;
        }

        public Map<String, List<String>> getPermissions() {
            return permissions;
        }

        public void setPermissions(Map<String, List<String>> permissions) {
            this.permissions = permissions;
        }
    }

    /**
     * The NodeManagement services (Part 4, 5.7: AddNodes, AddReferences, DeleteNodes, DeleteReferences): off by
     * default; when on, sessions with one of {@code roles} change the nodes of the in-memory namespaces, as far as
     * the nodes' permissions (AddNode, DeleteNode, AddReference, RemoveReference) allow.
     */
    public static class NodeManagement {

        /** Whether clients may add and delete nodes and references; off: the services are unsupported. */
        private boolean enabled = false;

        /** Well-known roles a session needs one of (ConfigureAdmin, Engineer ...). */
        private List<String> roles = new ArrayList<>(List.of("ConfigureAdmin"));

        /** Namespace URIs that take changes; empty for every namespace whose node manager accepts them. */
        private List<String> namespaces = new ArrayList<>();

        /**
         * Directory where the added nodes are saved (one NodeSet2 file per namespace) and read back at start, so
         * they outlive a restart; created when missing. Not set: added nodes live until the server stops.
         */
        private Path persistDir;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public List<String> getRoles() {
            return roles;
        }

        public void setRoles(List<String> roles) {
            this.roles = roles;
        }

        public List<String> getNamespaces() {
            return namespaces;
        }

        public void setNamespaces(List<String> namespaces) {
            this.namespaces = namespaces;
        }

        public Path getPersistDir() {
            return persistDir;
        }

        public void setPersistDir(Path persistDir) {
            this.persistDir = persistDir;
        }
    }
}
