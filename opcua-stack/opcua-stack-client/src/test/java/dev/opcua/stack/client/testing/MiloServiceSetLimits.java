package dev.opcua.stack.client.testing;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import org.eclipse.milo.opcua.sdk.server.servicesets.MonitoredItemServiceSet;
import org.eclipse.milo.opcua.sdk.server.servicesets.ViewServiceSet;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseNextRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseNextResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.DeleteMonitoredItemsRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.DeleteMonitoredItemsResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.ModifyMonitoredItemsRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.ModifyMonitoredItemsResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.RegisterNodesRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.RegisterNodesResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.SetMonitoringModeRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.SetMonitoringModeResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.SetTriggeringRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.SetTriggeringResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.UnregisterNodesRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.UnregisterNodesResponse;
import org.eclipse.milo.opcua.stack.transport.server.ServiceRequestContext;

/**
 * Two limits Milo 1.1.2 has no setting for, added in front of its own service sets: a server-side
 * cap on the references per node a Browse returns (Part 4, 5.8.2: the server may return fewer than
 * requestedMaxReferencesPerNode, with a continuation point), and the enforcement of
 * MaxMonitoredItemsPerCall (Part 5, 6.3.11), which Milo advertises but does not check.
 */
final class MiloServiceSetLimits {

    private MiloServiceSetLimits() {
    }

    /** Milo's View service set with requestedMaxReferencesPerNode lowered to {@code max} where it is 0 or more. */
    static ViewServiceSet capReferences(ViewServiceSet milo, int max) {
        return new ViewServiceSet() {
            @Override
            public BrowseResponse onBrowse(ServiceRequestContext context, BrowseRequest request) throws UaException {
                long requested = request.getRequestedMaxReferencesPerNode().longValue();
                if (requested == 0 || requested > max) {
                    request = new BrowseRequest(request.getRequestHeader(), request.getView(), uint(max),
                            request.getNodesToBrowse());
                }
                // Milo keeps the maximum in the continuation point, so BrowseNext returns as many.
                return milo.onBrowse(context, request);
            }

            @Override
            public BrowseNextResponse onBrowseNext(ServiceRequestContext context, BrowseNextRequest request)
                    throws UaException {
                return milo.onBrowseNext(context, request);
            }

            @Override
            public TranslateBrowsePathsToNodeIdsResponse onTranslateBrowsePaths(ServiceRequestContext context,
                    TranslateBrowsePathsToNodeIdsRequest request) throws UaException {
                return milo.onTranslateBrowsePaths(context, request);
            }

            @Override
            public RegisterNodesResponse onRegisterNodes(ServiceRequestContext context, RegisterNodesRequest request)
                    throws UaException {
                return milo.onRegisterNodes(context, request);
            }

            @Override
            public UnregisterNodesResponse onUnregisterNodes(ServiceRequestContext context,
                    UnregisterNodesRequest request) throws UaException {
                return milo.onUnregisterNodes(context, request);
            }
        };
    }

    /**
     * Milo's MonitoredItem service set refusing, with BadTooManyOperations, a call with more than
     * {@code max} items (created, modified, deleted, switched, or links added or removed).
     */
    static MonitoredItemServiceSet limitItemsPerCall(MonitoredItemServiceSet milo, long max) {
        return new MonitoredItemServiceSet() {
            @Override
            public CreateMonitoredItemsResponse onCreateMonitoredItems(ServiceRequestContext context,
                    CreateMonitoredItemsRequest request) throws UaException {
                check(request.getItemsToCreate());
                return milo.onCreateMonitoredItems(context, request);
            }

            @Override
            public ModifyMonitoredItemsResponse onModifyMonitoredItems(ServiceRequestContext context,
                    ModifyMonitoredItemsRequest request) throws UaException {
                check(request.getItemsToModify());
                return milo.onModifyMonitoredItems(context, request);
            }

            @Override
            public DeleteMonitoredItemsResponse onDeleteMonitoredItems(ServiceRequestContext context,
                    DeleteMonitoredItemsRequest request) throws UaException {
                check(request.getMonitoredItemIds());
                return milo.onDeleteMonitoredItems(context, request);
            }

            @Override
            public SetMonitoringModeResponse onSetMonitoringMode(ServiceRequestContext context,
                    SetMonitoringModeRequest request) throws UaException {
                check(request.getMonitoredItemIds());
                return milo.onSetMonitoringMode(context, request);
            }

            @Override
            public SetTriggeringResponse onSetTriggering(ServiceRequestContext context, SetTriggeringRequest request)
                    throws UaException {
                check(request.getLinksToAdd());
                check(request.getLinksToRemove());
                return milo.onSetTriggering(context, request);
            }

            private void check(Object[] items) throws UaException {
                if (items != null && items.length > max) {
                    throw new UaException(StatusCodes.Bad_TooManyOperations, items.length
                            + " monitored items in one call, MaxMonitoredItemsPerCall is " + max);
                }
            }
        };
    }
}
