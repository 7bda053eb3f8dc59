package dev.opcua.stack.server.services.attribute;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.WriteRequest;
import dev.opcua.stack.core.types.structured.WriteResponse;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.audit.AuditContext;
import dev.opcua.stack.server.audit.AuditLog;
import dev.opcua.stack.server.audit.AuditRecords;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.services.RequestGuard;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.session.Session;
import java.util.concurrent.CompletableFuture;

/**
 * Read (Part 4, 5.11.2) and Write (Part 4, 5.11.4): checks the request as a whole, then hands the
 * items to the node managers, one batch per manager.
 *
 * <p>Request-level faults: no items is BadNothingToDo, more than the configured operation limit
 * (MaxNodesPerRead / MaxNodesPerWrite, 0 = no limit) BadTooManyOperations, a negative maxAge
 * BadMaxAgeInvalid, an unknown TimestampsToReturn BadTimestampsToReturnInvalid.
 */
public final class AttributeServices {

    private final NodeManagers managers;
    private final RequestGuard guard;
    private final int maxNodesPerRead;
    private final int maxNodesPerWrite;
    private final AuditLog audit;

    /** Services that audit nothing. */
    public AttributeServices(NodeManagers managers, RequestGuard guard, int maxNodesPerRead, int maxNodesPerWrite) {
        this(managers, guard, maxNodesPerRead, maxNodesPerWrite, AuditLog.disabled());
    }

    /**
     * @param guard check run before each request, e.g. that it has an activated session
     * @param maxNodesPerRead operation limit of Read, 0 for none
     * @param maxNodesPerWrite operation limit of Write, 0 for none
     * @param audit where each written value is audited (Part 4, 6.5.6), when it is enabled
     */
    public AttributeServices(NodeManagers managers, RequestGuard guard, int maxNodesPerRead, int maxNodesPerWrite,
            AuditLog audit) {
        this.audit = audit;
        this.managers = managers;
        this.guard = guard;
        this.maxNodesPerRead = maxNodesPerRead;
        this.maxNodesPerWrite = maxNodesPerWrite;
    }

    /**
     * Registers Read and Write with a dispatcher; both may run on their event loop when no request
     * waits, while every node manager is non-blocking ({@link NodeManagers#allNonBlocking()}): the
     * checks here and the session lookup never wait.
     */
    public ServiceDispatcher.Builder registerWith(ServiceDispatcher.Builder dispatcher) {
        return dispatcher.register(ReadRequest.class, this::read).register(WriteRequest.class, this::write)
                .runOnEventLoopWhenIdle(ReadRequest.class, managers::allNonBlocking)
                .runOnEventLoopWhenIdle(WriteRequest.class, managers::allNonBlocking);
    }

    public CompletableFuture<ReadResponse> read(ServerSecureChannel channel, ReadRequest request) {
        Session session = guard.check(channel, request.requestHeader());
        checkCount(request.nodesToRead() == null ? 0 : request.nodesToRead().length, maxNodesPerRead);
        if (request.maxAge() < 0) {
            throw new UaException(StatusCodes.BadMaxAgeInvalid, "maxAge " + request.maxAge() + " is negative");
        }
        if (request.timestampsToReturn() == TimestampsToReturn.Invalid) {
            throw new UaException(StatusCodes.BadTimestampsToReturnInvalid, "timestampsToReturn is Invalid");
        }
        long handle = request.requestHeader().requestHandle();
        DataValue[] results = new DataValue[request.nodesToRead().length];
        CompletableFuture<Void> done = managers.readInto(new OperationContext(channel, session),
                request.nodesToRead(), request.maxAge(), request.timestampsToReturn(), results);
        if (done.isDone()) { // the usual case: no stage to chain (readInto never completes exceptionally)
            return CompletableFuture.completedFuture(new ReadResponse(ResponseHeaders.good(handle), results, null));
        }
        return done.thenApply(ignored -> new ReadResponse(ResponseHeaders.good(handle), results, null));
    }

    public CompletableFuture<WriteResponse> write(ServerSecureChannel channel, WriteRequest request) {
        Session session = guard.check(channel, request.requestHeader());
        checkCount(request.nodesToWrite() == null ? 0 : request.nodesToWrite().length, maxNodesPerWrite);
        long handle = request.requestHeader().requestHandle();
        if (audit.enabled()) {
            return auditedWrite(channel, session, request)
                    .thenApply(statuses -> new WriteResponse(ResponseHeaders.good(handle), statuses, null));
        }
        CompletableFuture<StatusCode[]> results = managers.write(new OperationContext(channel, session),
                request.nodesToWrite());
        if (results.isDone() && !results.isCompletedExceptionally()) {
            return CompletableFuture.completedFuture(new WriteResponse(ResponseHeaders.good(handle), results.join(),
                    null));
        }
        return results.thenApply(statuses -> new WriteResponse(ResponseHeaders.good(handle), statuses, null));
    }

    /**
     * A Write that reads the old values first and raises an AuditWriteUpdateEvent per written value with
     * the old and the new value and the operation's status (Part 4, 6.5.6; Part 5, 6.4.25). The old values
     * are read as the session: a value it may not read is left out of the event.
     */
    private CompletableFuture<StatusCode[]> auditedWrite(ServerSecureChannel channel, Session session,
            WriteRequest request) {
        OperationContext context = new OperationContext(channel, session);
        WriteValue[] items = request.nodesToWrite();
        ReadValueId[] reads = new ReadValueId[items.length];
        for (int i = 0; i < items.length; i++) {
            reads[i] = new ReadValueId(items[i].nodeId(), items[i].attributeId(), items[i].indexRange(), null);
        }
        DataValue[] oldValues = new DataValue[items.length];
        AuditContext who = session.auditContext(channel, request.requestHeader());
        return managers.readInto(context, reads, 0, TimestampsToReturn.Neither, oldValues)
                .thenCompose(ignored -> managers.write(context, items))
                .thenApply(statuses -> {
                    for (int i = 0; i < items.length; i++) {
                        DataValue old = oldValues[i] != null && oldValues[i].statusCode().isGood() ? oldValues[i] : null;
                        audit.raise(AuditRecords.write(who, items[i], old, statuses[i]));
                    }
                    return statuses;
                });
    }

    private static void checkCount(int count, int limit) {
        if (count == 0) {
            throw new UaException(StatusCodes.BadNothingToDo, "the request has no operations");
        }
        if (limit > 0 && count > limit) {
            throw new UaException(StatusCodes.BadTooManyOperations,
                    "the request has " + count + " operations, the server allows " + limit);
        }
    }
}
