package dev.opcua.spring.boot.autoconfigure.server;

import static java.util.Map.entry;

import dev.opcua.spring.boot.autoconfigure.transport.TransportQuotaProperties;
import java.util.HashMap;
import java.util.Map;

/**
 * The property under {@code opcua.server} of each setting of the stack that the server's properties
 * set: how an {@code InvalidSettingException} of the stack is reported against the user's key.
 * A setting missing here is reported against no key.
 */
final class OpcUaServerSettingKeys {

    static final Map<String, String> KEYS = withTransportQuotas(Map.ofEntries(
            entry("opcUaServer.port", "port"),
            entry("opcUaServer.path", "path"),
            entry("opcUaServer.hostnames", "hostnames"),
            entry("opcUaServer.ioThreads", "transport.io-threads"),
            entry("opcUaServer.readsPerTurn", "transport.reads-per-turn"),
            entry("opcUaServer.maxBrowsePathElements", "limits.max-browse-path-elements"),
            entry("opcUaServer.maxNodesPerBrowse", "limits.operation.max-nodes-per-browse"),
            entry("opcUaServer.maxBrowseContinuationPoints", "limits.max-browse-continuation-points"),
            entry("opcUaServer.certificateKeySize", "security.certificate.key-size"),
            entry("opcUaServer.certificateValidity", "security.certificate.validity"),
            entry("opcUaServer.maxTrustListSize", "security.push-management.max-trust-list-size"),
            entry("opcUaServer.security", "security.policies"),
            entry("opcUaServer.defaultPermissions", "access.namespaces"),
            entry("reverseConnect.clientUrl", "reverse-connect.clients"),
            entry("reverseConnect.retryInterval", "reverse-connect.retry-interval"),
            entry("reverseConnect.readyConnections", "reverse-connect.ready-connections"),
            entry("redundancySettings.mode", "redundancy.mode"),
            entry("redundancySettings.partners", "redundancy.partners"),
            entry("opcUaServer.sessionStateStore", "redundancy.state-store"),
            entry("sessionMirror.interval", "redundancy.state-store.mirror-interval"),
            entry("sessionMirror.standbyWindow", "redundancy.state-store.standby-window"),
            entry("partnerMonitor.interval", "redundancy.partner-monitor.interval"),
            entry("partnerMonitor.requestTimeout", "redundancy.partner-monitor.request-timeout"),

            entry("transportQuotas.operationTimeout", "transport.operation-timeout"),
            entry("transportQuotas.channelLifetime", "transport.channel-lifetime"),
            entry("transportQuotas.helloTimeout", "transport.hello-timeout"),
            entry("transportQuotas.maxConnections", "limits.max-channels"),
            entry("transportQuotas.messageReceiveTimeout", "transport.message-receive-timeout"),
            entry("transportQuotas.writeBufferHighWaterMark", "transport.write-buffer-high-water-mark"),
            entry("transportQuotas.writeStallTimeout", "transport.write-stall-timeout"),
            entry("transportQuotas.writeBufferLimit", "transport.write-buffer-limit"),

            entry("requestPoolSettings.minThreads", "requests.min-threads"),
            entry("requestPoolSettings.maxThreads", "requests.max-threads"),
            entry("requestPoolSettings.maxQueued", "requests.max-queued"),
            entry("requestPoolSettings.maxPriorityQueued", "requests.max-priority-queued"),
            entry("requestPoolSettings.workerKeepAlive", "requests.worker-keep-alive"),
            entry("requestPoolSettings.maxRequestAge", "requests.max-request-age"),
            entry("requestPoolSettings.maxRunningPerSession", "requests.max-running-per-session"),
            entry("requestPoolSettings.maxRequestsPerRead", "requests.max-per-read"),

            entry("sessionSettings.maxSessions", "limits.max-sessions"),
            entry("sessionSettings.minSessionTimeout", "limits.min-session-timeout"),
            entry("sessionSettings.maxSessionTimeout", "limits.max-session-timeout"),
            entry("sessionSettings.maxFailedAuthenticationAttempts", "limits.max-failed-authentication-attempts"),
            entry("sessionSettings.failedAuthenticationLockout", "limits.failed-authentication-lockout"),

            entry("operationLimits.maxNodesPerRead", "limits.operation.max-nodes-per-read"),
            entry("operationLimits.maxNodesPerWrite", "limits.operation.max-nodes-per-write"),
            entry("operationLimits.maxNodesPerBrowse", "limits.operation.max-nodes-per-browse"),
            entry("operationLimits.maxNodesPerMethodCall", "limits.operation.max-nodes-per-method-call"),
            entry("operationLimits.maxNodesPerTranslateBrowsePathsToNodeIds",
                    "limits.operation.max-nodes-per-translate-browse-paths"),
            entry("operationLimits.maxNodesPerRegisterNodes", "limits.operation.max-nodes-per-register-nodes"),
            entry("operationLimits.maxMonitoredItemsPerCall", "limits.operation.max-monitored-items-per-call"),
            entry("operationLimits.maxNodesPerNodeManagement", "limits.operation.max-nodes-per-node-management"),
            entry("nodeManagement.roles", "node-management.roles"),
            entry("nodeManagement.namespaces", "node-management.namespaces"),

            entry("subscriptionSettings.minPublishingInterval", "subscriptions.min-publishing-interval"),
            entry("subscriptionSettings.maxPublishingInterval", "subscriptions.max-publishing-interval"),
            entry("subscriptionSettings.minKeepAliveCount", "subscriptions.min-keep-alive-count"),
            entry("subscriptionSettings.maxKeepAliveCount", "subscriptions.max-keep-alive-count"),
            entry("subscriptionSettings.maxLifetimeCount", "subscriptions.max-lifetime-count"),
            entry("subscriptionSettings.maxSubscriptions", "subscriptions.max-subscriptions"),
            entry("subscriptionSettings.maxSubscriptionsPerSession", "subscriptions.max-subscriptions-per-session"),
            entry("subscriptionSettings.maxPublishRequestsPerSession",
                    "subscriptions.max-publish-requests-per-session"),
            entry("subscriptionSettings.maxNotificationsPerPublish", "subscriptions.max-notifications-per-publish"),
            entry("subscriptionSettings.maxRetransmissionQueueSize", "subscriptions.max-retransmission-queue-size"),
            entry("subscriptionSettings.maxMonitoredItems", "subscriptions.max-monitored-items"),
            entry("subscriptionSettings.maxMonitoredItemsPerSubscription",
                    "subscriptions.max-monitored-items-per-subscription"),
            entry("subscriptionSettings.maxDurableLifetime", "subscriptions.max-durable-lifetime"),
            entry("subscriptionSettings.maxDurableQueueSize", "subscriptions.max-durable-queue-size"),
            entry("subscriptionSettings.durableSavePeriod", "subscriptions.durable-save-period"),

            entry("monitoredItemSettings.minSamplingInterval", "subscriptions.min-sampling-interval"),
            entry("monitoredItemSettings.maxSamplingInterval", "subscriptions.max-sampling-interval"),
            entry("monitoredItemSettings.maxQueueSize", "subscriptions.max-notification-queue-size"),
            entry("monitoredItemSettings.minEventQueueSize", "subscriptions.min-event-queue-size"),
            entry("monitoredItemSettings.defaultEventQueueSize", "subscriptions.default-event-queue-size"),
            entry("monitoredItemSettings.maxEventQueueSize", "subscriptions.max-event-queue-size"),

            entry("validationOptions.minKeyBits", "security.min-key-size")));

    private OpcUaServerSettingKeys() {
    }

    private static Map<String, String> withTransportQuotas(Map<String, String> serverKeys) {
        Map<String, String> keys = new HashMap<>(serverKeys);
        keys.putAll(TransportQuotaProperties.STACK_SETTING_KEYS);
        return Map.copyOf(keys);
    }
}
