package dev.opcua.stack.server.services.method;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.structured.CallRequest;
import dev.opcua.stack.core.types.structured.CallResponse;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.server.audit.AuditContext;
import dev.opcua.stack.server.audit.AuditLog;
import dev.opcua.stack.server.audit.AuditRecords;
import dev.opcua.stack.server.audit.AuditsOwnMethods;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.services.RequestGuard;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.session.Session;
import java.util.concurrent.CompletableFuture;

/**
 * Call (Part 4, 5.12.2): checks the request as a whole, then hands the method calls to the node
 * managers of their objects, one batch per manager.
 *
 * <p>Request-level faults: no calls is BadNothingToDo, more than the configured operation limit
 * (MaxNodesPerMethodCall, Part 5, 6.3.11; 0 = no limit) BadTooManyOperations.
 */
public final class CallServices {

    private final NodeManagers managers;
    private final RequestGuard guard;
    private final int maxNodesPerMethodCall;
    private final AuditLog audit;

    /** Services that audit nothing. */
    public CallServices(NodeManagers managers, RequestGuard guard, int maxNodesPerMethodCall) {
        this(managers, guard, maxNodesPerMethodCall, AuditLog.disabled());
    }

    /**
     * @param guard check run before each request, e.g. that it has an activated session; the session it
     *     returns goes to the node managers in the {@link OperationContext} (methods such as
     *     ConditionRefresh act on the caller's subscriptions)
     * @param maxNodesPerMethodCall operation limit of Call, 0 for none
     * @param audit where each method called is audited (Part 4, 6.5.7), when it is enabled
     */
    public CallServices(NodeManagers managers, RequestGuard guard, int maxNodesPerMethodCall, AuditLog audit) {
        this.audit = audit;
        if (maxNodesPerMethodCall < 0) {
            throw new IllegalArgumentException("maxNodesPerMethodCall must be >= 0, was " + maxNodesPerMethodCall);
        }
        this.managers = managers;
        this.guard = guard;
        this.maxNodesPerMethodCall = maxNodesPerMethodCall;
    }

    /** Registers Call with a dispatcher. */
    public ServiceDispatcher.Builder registerWith(ServiceDispatcher.Builder dispatcher) {
        return dispatcher.register(CallRequest.class, this::call);
    }

    public CompletableFuture<CallResponse> call(ServerSecureChannel channel, CallRequest request) {
        Session session = guard.check(channel, request.requestHeader());
        int count = request.methodsToCall() == null ? 0 : request.methodsToCall().length;
        if (count == 0) {
            throw new UaException(StatusCodes.BadNothingToDo, "the request has no methods to call");
        }
        if (maxNodesPerMethodCall > 0 && count > maxNodesPerMethodCall) {
            throw new UaException(StatusCodes.BadTooManyOperations,
                    "the request has " + count + " method calls, the server allows " + maxNodesPerMethodCall);
        }
        long handle = request.requestHeader().requestHandle();
        CompletableFuture<CallMethodResult[]> results = managers.call(new OperationContext(channel, session),
                request.methodsToCall());
        if (audit.enabled()) {
            results = results.thenApply(done -> audited(channel, session, request, done));
        }
        return results.thenApply(done -> new CallResponse(ResponseHeaders.good(handle), done, null));
    }

    /**
     * Raises an AuditUpdateMethodEvent per method called (Part 4, 6.5.7; Part 5, 6.4.27), except for the
     * methods of node managers that raise a subtype of their own ({@link AuditsOwnMethods}).
     */
    private CallMethodResult[] audited(ServerSecureChannel channel, Session session, CallRequest request,
            CallMethodResult[] results) {
        AuditContext who = session.auditContext(channel, request.requestHeader());
        CallMethodRequest[] calls = request.methodsToCall();
        for (int i = 0; i < calls.length && i < results.length; i++) {
            if (calls[i].objectId() != null && managers.managerOf(calls[i].objectId()) instanceof AuditsOwnMethods) {
                continue;
            }
            audit.raise(AuditRecords.call(who, calls[i], results[i]));
        }
        return results;
    }
}
