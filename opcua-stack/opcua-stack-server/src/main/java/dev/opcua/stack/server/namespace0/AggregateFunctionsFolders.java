package dev.opcua.stack.server.namespace0;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.history.aggregate.AggregateFunction;
import java.util.Collection;

/**
 * Advertises the aggregates the server computes (Part 13, 4.4; Part 11, 5.4.2): each {@link AggregateFunction}
 * object of namespace 0 becomes a component of Server.ServerCapabilities.AggregateFunctions and of
 * HistoryServerCapabilities.AggregateFunctions, so a client browsing either folder finds what ReadProcessedDetails
 * accepts. The folders are empty in the standard nodeset; a server without history leaves them so.
 */
public final class AggregateFunctionsFolders {

    private AggregateFunctionsFolders() {
    }

    /** Adds the HasComponent references (and their inverses on the function objects) to the store. */
    public static void advertise(NodeStore store, Collection<AggregateFunction> functions) {
        NodeId hasComponent = NodeId.ns0(NodeIds.HasComponent);
        for (int folderId : new int[] {NodeIds.Server_ServerCapabilities_AggregateFunctions,
                NodeIds.HistoryServerCapabilities_AggregateFunctions}) {
            UaNode folder = store.get(NodeId.ns0(folderId));
            if (folder == null) {
                continue;
            }
            for (AggregateFunction function : functions) {
                UaNode object = store.get(function.nodeId());
                UaReference component = UaReference.forward(hasComponent, function.nodeId());
                if (object == null || folder.referenceList().contains(component)) {
                    continue;
                }
                folder.addReference(component);
                object.addReference(UaReference.inverse(hasComponent, folder.nodeId()));
            }
        }
    }
}
