package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.namespace0.Namespace0NodeManager;
import dev.opcua.stack.server.nodes.CallOperation;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Server object's GetMonitoredItems method (i=11492; Part 5, 9.1): {@code GetMonitoredItems([in] UInt32
 * subscriptionId, [out] UInt32[] serverHandles, [out] UInt32[] clientHandles)}, the MonitoredItemIds of a
 * subscription's items and the client handles they report with, at the same index. A client that took a
 * subscription over with TransferSubscriptions without knowing its items (a new process resuming a durable
 * subscription, Part 4, 6.8) learns them here.
 *
 * <p>Results: Good; Bad_SubscriptionIdInvalid (no such subscription), Bad_UserAccessDenied (not the calling
 * session's), Bad_SessionIdInvalid without a session, Bad_ArgumentsMissing / Bad_TooManyArguments /
 * Bad_InvalidArgument for a subscriptionId that is not one scalar UInt32.
 */
public final class GetMonitoredItems {

    private static final Logger log = LoggerFactory.getLogger(GetMonitoredItems.class);

    /** The method of the Server object, i=11492. */
    public static final NodeId METHOD = NodeId.ns0(NodeIds.Server_GetMonitoredItems);
    /** The Server object, i=2253. */
    public static final NodeId SERVER = NodeId.ns0(NodeIds.Server);

    private final SubscriptionManager subscriptions;

    public GetMonitoredItems(SubscriptionManager subscriptions) {
        this.subscriptions = Objects.requireNonNull(subscriptions, "subscriptions");
    }

    /** Puts the method's code into namespace 0. */
    public void register(Namespace0NodeManager namespace0) {
        namespace0.method(SERVER, METHOD, this::call);
    }

    /** Answers one call. */
    public void call(OperationContext context, CallOperation operation) {
        if (!operation.requireServerMethodOfSession(context, 1)) {
            return;
        }
        long subscriptionId = (Long) operation.inputArguments()[0].value();
        try {
            SortedMap<Long, Long> handles = subscriptions.monitoredItemHandles(context.session(), subscriptionId);
            long[] serverHandles = new long[handles.size()];
            long[] clientHandles = new long[handles.size()];
            int i = 0;
            for (Map.Entry<Long, Long> e : handles.entrySet()) {
                serverHandles[i] = e.getKey();
                clientHandles[i++] = e.getValue();
            }
            operation.complete(new Variant[] {Variant.ofArray(BuiltinType.UInt32, serverHandles),
                    Variant.ofArray(BuiltinType.UInt32, clientHandles)});
        } catch (UaException e) {
            log.debug("GetMonitoredItems({}) refused: {}", subscriptionId, e.getMessage());
            operation.fail(e.statusCode().value());
        }
    }
}
