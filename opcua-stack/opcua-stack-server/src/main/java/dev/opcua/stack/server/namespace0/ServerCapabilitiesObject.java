package dev.opcua.stack.server.namespace0;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;

/**
 * The Server.ServerCapabilities object of namespace 0 (Part 5, 6.3.2 ServerCapabilitiesType and
 * 6.3.11 OperationLimitsType): the operation limits the services enforce (0 = no limit),
 * MaxBrowseContinuationPoints, the capacity limits of {@link #publishCapacity}, the profiles the
 * server claims, its locales and the fastest sampling rate it supports.
 *
 * <p>Profiles (Part 7): only FullFeatured profiles whose every mandatory conformance unit the server
 * implements. {@value #NANO_EMBEDDED_DEVICE_2017} (sessions, the Attribute, View and Discovery
 * services over UA TCP) always; {@value #MICRO_EMBEDDED_DEVICE_2017} instead once the configured
 * limits allow two parallel sessions and two subscriptions (the Embedded DataChange Subscription
 * facet and "Session Minimum 2 Parallel"). The Embedded 2017 profile is not claimed: its Standard
 * DataChange Subscription facet needs the ResendData method as well as GetMonitoredItems, and this
 * server implements only GetMonitoredItems.
 */
public final class ServerCapabilitiesObject {

    /** The Nano Embedded Device 2017 Server profile URI (Part 7). */
    public static final String NANO_EMBEDDED_DEVICE_2017 = "http://opcfoundation.org/UA-Profile/Server/NanoEmbeddedDevice2017";

    /** The Micro Embedded Device 2017 Server profile URI (Part 7). */
    public static final String MICRO_EMBEDDED_DEVICE_2017 =
            "http://opcfoundation.org/UA-Profile/Server/MicroEmbeddedDevice2017";

    private final NodeStore store;
    private final OperationLimits limits;
    private final int maxBrowseContinuationPoints;

    /**
     * Puts value sources on the ServerCapabilities variables of a namespace-0 store.
     *
     * @param maxBrowseContinuationPoints MaxBrowseContinuationPoints (0 = no limit; above 65535 published as 65535)
     */
    public ServerCapabilitiesObject(NodeStore store, OperationLimits limits, int maxBrowseContinuationPoints) {
        if (maxBrowseContinuationPoints < 0) {
            throw new IllegalArgumentException("maxBrowseContinuationPoints must be >= 0, was "
                    + maxBrowseContinuationPoints);
        }
        this.store = store;
        this.limits = limits;
        // UInt16 on the wire: more than 65535 is published as the largest number it can say
        this.maxBrowseContinuationPoints = Math.min(maxBrowseContinuationPoints, 0xFFFF);
        ValueSources sources = new ValueSources(store);
        sources.put(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerRead,
                () -> Variant.ofUInt32(limits.maxNodesPerRead()));
        sources.put(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerWrite,
                () -> Variant.ofUInt32(limits.maxNodesPerWrite()));
        sources.put(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerBrowse,
                () -> Variant.ofUInt32(limits.maxNodesPerBrowse()));
        sources.put(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerMethodCall,
                () -> Variant.ofUInt32(limits.maxNodesPerMethodCall()));
        sources.put(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerTranslateBrowsePathsToNodeIds,
                () -> Variant.ofUInt32(limits.maxNodesPerTranslateBrowsePathsToNodeIds()));
        sources.put(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerRegisterNodes,
                () -> Variant.ofUInt32(limits.maxNodesPerRegisterNodes()));
        sources.put(NodeIds.Server_ServerCapabilities_OperationLimits_MaxMonitoredItemsPerCall,
                () -> Variant.ofUInt32(limits.maxMonitoredItemsPerCall()));
        sources.put(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerNodeManagement,
                () -> Variant.ofUInt32(limits.maxNodesPerNodeManagement()));
        sources.put(NodeIds.Server_ServerCapabilities_MaxBrowseContinuationPoints,
                () -> Variant.ofUInt16(this.maxBrowseContinuationPoints));
        sources.put(NodeIds.Server_ServerCapabilities_ServerProfileArray,
                () -> Variant.ofArray(BuiltinType.String, new String[] {NANO_EMBEDDED_DEVICE_2017}));
        sources.put(NodeIds.Server_ServerCapabilities_LocaleIdArray,
                () -> Variant.ofArray(BuiltinType.String, new String[] {"en"}));
        // 0: the server samples on demand (a value source is asked on every read)
        sources.put(NodeIds.Server_ServerCapabilities_MinSupportedSampleRate, () -> Variant.ofDouble(0));
    }

    /**
     * Publishes the capacity limits the server enforces (Part 5, 6.3.2 ServerCapabilitiesType, OPC UA
     * 1.05): MaxSessions, MaxSubscriptions, MaxSubscriptionsPerSession, MaxMonitoredItems,
     * MaxMonitoredItemsPerSubscription and MaxMonitoredItemsQueueSize from the session, subscription
     * and monitored-item settings, MaxArrayLength, MaxStringLength and MaxByteStringLength from the
     * decoding limits of the transport. 0 says "no limit", as the settings do.
     */
    public void publishCapacity(SessionSettings sessions, SubscriptionSettings subscriptions,
            MonitoredItemSettings items, TransportQuotas quotas) {
        ValueSources sources = new ValueSources(store);
        sources.put(NodeIds.Server_ServerCapabilities_MaxSessions, () -> Variant.ofUInt32(sessions.maxSessions()));
        sources.put(NodeIds.Server_ServerCapabilities_MaxSubscriptions,
                () -> Variant.ofUInt32(subscriptions.maxSubscriptions()));
        sources.put(NodeIds.Server_ServerCapabilities_MaxSubscriptionsPerSession,
                () -> Variant.ofUInt32(subscriptions.maxSubscriptionsPerSession()));
        sources.put(NodeIds.Server_ServerCapabilities_MaxMonitoredItems,
                () -> Variant.ofUInt32(subscriptions.maxMonitoredItems()));
        sources.put(NodeIds.Server_ServerCapabilities_MaxMonitoredItemsPerSubscription,
                () -> Variant.ofUInt32(subscriptions.maxMonitoredItemsPerSubscription()));
        long queue = Math.max(items.maxQueueSize(), items.maxEventQueueSize());
        sources.put(NodeIds.Server_ServerCapabilities_MaxMonitoredItemsQueueSize, () -> Variant.ofUInt32(queue));
        sources.put(NodeIds.Server_ServerCapabilities_MaxArrayLength, () -> Variant.ofUInt32(quotas.maxArrayLength()));
        sources.put(NodeIds.Server_ServerCapabilities_MaxStringLength,
                () -> Variant.ofUInt32(quotas.maxStringLength()));
        sources.put(NodeIds.Server_ServerCapabilities_MaxByteStringLength,
                () -> Variant.ofUInt32(quotas.maxByteStringLength()));
        boolean micro = allows(sessions.maxSessions(), 2) && allows(subscriptions.maxSubscriptions(), 2)
                && allows(subscriptions.maxSubscriptionsPerSession(), 1);
        String[] profiles = {micro ? MICRO_EMBEDDED_DEVICE_2017 : NANO_EMBEDDED_DEVICE_2017};
        sources.put(NodeIds.Server_ServerCapabilities_ServerProfileArray,
                () -> Variant.ofArray(BuiltinType.String, profiles.clone()));
    }

    /** Whether a limit (0 = none) allows at least {@code needed}. */
    private static boolean allows(int limit, int needed) {
        return limit == 0 || limit >= needed;
    }

    public OperationLimits limits() {
        return limits;
    }

    public int maxBrowseContinuationPoints() {
        return maxBrowseContinuationPoints;
    }
}
