package dev.opcua.stack.client.services;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import java.util.concurrent.CompletableFuture;

/**
 * The server's OperationLimits (Part 5, 6.3.11: Server/ServerCapabilities/OperationLimits), which
 * the client reads at connect and splits larger requests by; 0 means no limit, as does a limit the
 * server does not expose.
 */
public record OperationLimits(int maxNodesPerRead, int maxNodesPerWrite, int maxNodesPerBrowse,
        int maxNodesPerMethodCall, int maxNodesPerTranslateBrowsePaths, int maxNodesPerRegisterNodes,
        int maxMonitoredItemsPerCall, int maxNodesPerNodeManagement) {

    /** No limits: what the client assumes before it has read the server's. */
    public static final OperationLimits NONE = new OperationLimits(0, 0, 0, 0, 0, 0, 0, 0);

    /** The limits of every service but NodeManagement's, which has none. */
    public OperationLimits(int maxNodesPerRead, int maxNodesPerWrite, int maxNodesPerBrowse, int maxNodesPerMethodCall,
            int maxNodesPerTranslateBrowsePaths, int maxNodesPerRegisterNodes, int maxMonitoredItemsPerCall) {
        this(maxNodesPerRead, maxNodesPerWrite, maxNodesPerBrowse, maxNodesPerMethodCall, maxNodesPerTranslateBrowsePaths,
                maxNodesPerRegisterNodes, maxMonitoredItemsPerCall, 0);
    }

    private static final int[] NODES = {
        NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerRead,
        NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerWrite,
        NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerBrowse,
        NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerMethodCall,
        NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerTranslateBrowsePathsToNodeIds,
        NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerRegisterNodes,
        NodeIds.Server_ServerCapabilities_OperationLimits_MaxMonitoredItemsPerCall,
        NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerNodeManagement,
    };

    /**
     * Reads the limits: MaxNodesPerRead alone first, then the others in Reads no larger than it
     * (a server with MaxNodesPerRead under 8 would refuse them in one Read with BadTooManyOperations).
     */
    public static CompletableFuture<OperationLimits> read(ServiceInvoker services) {
        ReadValueId[] ids = new ReadValueId[NODES.length];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = new ReadValueId(NodeId.ns0(NODES[i]), AttributeIds.Value, null, QualifiedName.NULL);
        }
        return readSlice(services, ids, 0, 1).thenCompose(first -> {
            int perRead = limit(first[0]);
            return Batches.split(java.util.Arrays.copyOfRange(ids, 1, ids.length), perRead, DataValue[]::new,
                    slice -> readSlice(services, slice, 0, slice.length), "Read of the OperationLimits")
                    .thenApply(r -> new OperationLimits(perRead, limit(r[0]), limit(r[1]), limit(r[2]), limit(r[3]),
                            limit(r[4]), limit(r[5]), limit(r[6])));
        });
    }

    private static CompletableFuture<DataValue[]> readSlice(ServiceInvoker services, ReadValueId[] ids, int from,
            int to) {
        ReadValueId[] slice = from == 0 && to == ids.length ? ids : java.util.Arrays.copyOfRange(ids, from, to);
        return services.send(h -> new ReadRequest(h, 0, TimestampsToReturn.Neither, slice), ReadResponse.class)
                .thenApply(response -> response.results());
    }

    /** A UInt32 limit; absent, bad or out of int range counts as 0 (unlimited, or at least not known). */
    private static int limit(DataValue value) {
        if (value == null || !value.statusCode().isGood() || !(value.value().value() instanceof Number n)) {
            return 0;
        }
        long v = n.longValue();
        return v <= 0 || v > Integer.MAX_VALUE ? 0 : (int) v;
    }
}
