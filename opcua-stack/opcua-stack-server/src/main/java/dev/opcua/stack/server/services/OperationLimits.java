package dev.opcua.stack.server.services;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.ids.StatusCodes;

/**
 * The operation limits of a server (Part 5, 6.3.11 OperationLimitsType): how many operations one
 * request of a service may carry; 0 means no limit. They are enforced by the services (a request
 * over a limit gets BadTooManyOperations, Part 4, 7.38) and published in namespace 0 under
 * Server.ServerCapabilities.OperationLimits.
 *
 * <p>The values are UInt32 on the wire; they are held as int because no request can carry more
 * than Integer.MAX_VALUE operations.
 */
public record OperationLimits(int maxNodesPerRead, int maxNodesPerWrite, int maxNodesPerBrowse,
        int maxNodesPerMethodCall, int maxNodesPerTranslateBrowsePathsToNodeIds, int maxNodesPerRegisterNodes,
        int maxMonitoredItemsPerCall, int maxNodesPerNodeManagement) {

    /** No limits. */
    public static final OperationLimits NONE = new OperationLimits(0, 0, 0, 0, 0, 0, 0, 0);

    /** @throws InvalidSettingException {@code operationLimits.<component>} when a limit is negative */
    public OperationLimits {
        notNegative("maxNodesPerRead", maxNodesPerRead);
        notNegative("maxNodesPerWrite", maxNodesPerWrite);
        notNegative("maxNodesPerBrowse", maxNodesPerBrowse);
        notNegative("maxNodesPerMethodCall", maxNodesPerMethodCall);
        notNegative("maxNodesPerTranslateBrowsePathsToNodeIds", maxNodesPerTranslateBrowsePathsToNodeIds);
        notNegative("maxNodesPerRegisterNodes", maxNodesPerRegisterNodes);
        notNegative("maxMonitoredItemsPerCall", maxMonitoredItemsPerCall);
        notNegative("maxNodesPerNodeManagement", maxNodesPerNodeManagement);
    }

    /** The limits of every service but NodeManagement's, which has none. */
    public OperationLimits(int maxNodesPerRead, int maxNodesPerWrite, int maxNodesPerBrowse, int maxNodesPerMethodCall,
            int maxNodesPerTranslateBrowsePathsToNodeIds, int maxNodesPerRegisterNodes, int maxMonitoredItemsPerCall) {
        this(maxNodesPerRead, maxNodesPerWrite, maxNodesPerBrowse, maxNodesPerMethodCall,
                maxNodesPerTranslateBrowsePathsToNodeIds, maxNodesPerRegisterNodes, maxMonitoredItemsPerCall, 0);
    }

    /** These limits with another MaxNodesPerNodeManagement (AddNodes, AddReferences, DeleteNodes, DeleteReferences). */
    public OperationLimits withMaxNodesPerNodeManagement(int value) {
        return new OperationLimits(maxNodesPerRead, maxNodesPerWrite, maxNodesPerBrowse, maxNodesPerMethodCall,
                maxNodesPerTranslateBrowsePathsToNodeIds, maxNodesPerRegisterNodes, maxMonitoredItemsPerCall, value);
    }

    private static void notNegative(String name, int value) {
        if (value < 0) {
            throw new InvalidSettingException("operationLimits." + name, value, "must be 0 (no limit) or more");
        }
    }

    /**
     * Refuses a request of {@code count} operations: none is BadNothingToDo, more than {@code limit}
     * (when not 0) BadTooManyOperations.
     */
    public static void check(int count, int limit, String operations) {
        if (count == 0) {
            throw new UaException(StatusCodes.BadNothingToDo,
                    "the request has no " + operations);
        }
        if (limit > 0 && count > limit) {
            throw new UaException(StatusCodes.BadTooManyOperations,
                    "the request has " + count + " " + operations + ", the server allows " + limit);
        }
    }
}
