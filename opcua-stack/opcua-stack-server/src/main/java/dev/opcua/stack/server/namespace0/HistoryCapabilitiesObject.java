package dev.opcua.stack.server.namespace0;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.VariableNode;

/**
 * What a server with a history store publishes about Historical Access: the HistoryServerCapabilities
 * object (Part 11, 5.4.2: raw data readable, inserted, replaced, updated and deleted; event history readable and
 * deleted by EventId; no event inserts, annotations or at-time deletes yet; MaxReturnDataValues, and
 * MaxReturnEventValues, the same limit), Server.ServerCapabilities.MaxHistoryContinuationPoints and
 * the history operation limits (Part 5, 6.3.2 and 6.3.11). Without a history store those keep the
 * nodeset's defaults (false, 0).
 */
public final class HistoryCapabilitiesObject {

    /**
     * @param maxNodesPerRead MaxNodesPerHistoryReadData (0 = no limit)
     * @param maxNodesPerUpdate MaxNodesPerHistoryUpdateData (0 = no limit)
     * @param maxContinuationPoints MaxHistoryContinuationPoints per session (above 65535 published as 65535)
     * @param maxReturnDataValues MaxReturnDataValues
     */
    public HistoryCapabilitiesObject(NodeStore store, int maxNodesPerRead, int maxNodesPerUpdate,
            int maxContinuationPoints, int maxReturnDataValues) {
        ValueSources sources = new ValueSources(store);
        sources.put(NodeIds.Server_ServerCapabilities_MaxHistoryContinuationPoints,
                () -> Variant.ofUInt16(Math.min(maxContinuationPoints, 0xFFFF)));
        sources.put(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerHistoryReadData,
                () -> Variant.ofUInt32(maxNodesPerRead));
        sources.put(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerHistoryUpdateData,
                () -> Variant.ofUInt32(maxNodesPerUpdate));
        flag(store, sources, NodeIds.HistoryServerCapabilities_AccessHistoryDataCapability, true);
        flag(store, sources, NodeIds.HistoryServerCapabilities_InsertDataCapability, true);
        flag(store, sources, NodeIds.HistoryServerCapabilities_ReplaceDataCapability, true);
        flag(store, sources, NodeIds.HistoryServerCapabilities_UpdateDataCapability, true);
        flag(store, sources, NodeIds.HistoryServerCapabilities_DeleteRawCapability, true);
        flag(store, sources, NodeIds.HistoryServerCapabilities_ServerTimestampSupported, true);
        flag(store, sources, NodeIds.HistoryServerCapabilities_AccessHistoryEventsCapability, true);
        flag(store, sources, NodeIds.HistoryServerCapabilities_DeleteEventCapability, true);
        for (int unsupported : new int[] {NodeIds.HistoryServerCapabilities_DeleteAtTimeCapability,
                NodeIds.HistoryServerCapabilities_InsertAnnotationCapability,
                NodeIds.HistoryServerCapabilities_InsertEventCapability,
                NodeIds.HistoryServerCapabilities_ReplaceEventCapability,
                NodeIds.HistoryServerCapabilities_UpdateEventCapability}) {
            flag(store, sources, unsupported, false);
        }
        if (store.get(NodeId.ns0(NodeIds.HistoryServerCapabilities_MaxReturnDataValues)) instanceof VariableNode) {
            sources.put(NodeIds.HistoryServerCapabilities_MaxReturnDataValues,
                    () -> Variant.ofUInt32(maxReturnDataValues));
        }
        if (store.get(NodeId.ns0(NodeIds.HistoryServerCapabilities_MaxReturnEventValues)) instanceof VariableNode) {
            sources.put(NodeIds.HistoryServerCapabilities_MaxReturnEventValues,
                    () -> Variant.ofUInt32(maxReturnDataValues));
        }
    }

    /** A Boolean capability, where the nodeset has it (optional ones may be missing). */
    private static void flag(NodeStore store, ValueSources sources, int id, boolean value) {
        if (store.get(NodeId.ns0(id)) instanceof VariableNode) {
            Variant v = Variant.ofBoolean(value);
            sources.put(id, () -> v);
        }
    }
}
