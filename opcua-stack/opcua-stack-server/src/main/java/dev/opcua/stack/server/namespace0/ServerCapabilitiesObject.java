package dev.opcua.stack.server.namespace0;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.services.OperationLimits;

/**
 * The Server.ServerCapabilities object of namespace 0 (Part 5, 6.3.2 ServerCapabilitiesType and
 * 6.3.11 OperationLimitsType): the operation limits the services enforce (0 = no limit),
 * MaxBrowseContinuationPoints, the profiles the server claims, its locales and the fastest sampling
 * rate it supports.
 *
 * <p>Profile: {@value #NANO_EMBEDDED_DEVICE_2017}, the Nano Embedded Device Server profile (Part 7),
 * the honest claim of a server that offers sessions, the Attribute and View services and SecurityPolicy
 * None over UA TCP, but no subscriptions yet. The Micro profile needs subscriptions; the Standard
 * profile also needs signing and encryption.
 */
public final class ServerCapabilitiesObject {

    /** The Nano Embedded Device 2017 Server profile URI (Part 7). */
    public static final String NANO_EMBEDDED_DEVICE_2017 = "http://opcfoundation.org/UA-Profile/Server/NanoEmbeddedDevice2017";

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
        sources.put(NodeIds.Server_ServerCapabilities_MaxBrowseContinuationPoints,
                () -> Variant.ofUInt16(this.maxBrowseContinuationPoints));
        sources.put(NodeIds.Server_ServerCapabilities_ServerProfileArray,
                () -> Variant.ofArray(BuiltinType.String, new String[] {NANO_EMBEDDED_DEVICE_2017}));
        sources.put(NodeIds.Server_ServerCapabilities_LocaleIdArray,
                () -> Variant.ofArray(BuiltinType.String, new String[] {"en"}));
        // 0: the server samples on demand (a value source is asked on every read)
        sources.put(NodeIds.Server_ServerCapabilities_MinSupportedSampleRate, () -> Variant.ofDouble(0));
    }

    public OperationLimits limits() {
        return limits;
    }

    public int maxBrowseContinuationPoints() {
        return maxBrowseContinuationPoints;
    }
}
