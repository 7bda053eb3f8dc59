package dev.opcua.stack.client;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.AddNodesItem;
import dev.opcua.stack.core.types.structured.AddNodesResult;
import dev.opcua.stack.core.types.structured.AddReferencesItem;
import dev.opcua.stack.core.types.structured.DeleteNodesItem;
import dev.opcua.stack.core.types.structured.DeleteReferencesItem;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Blocking forms of an {@link OpcUaClient}'s common calls, for code that has nothing better to do
 * than wait. Each waits at most twice the request timeout (a request may first wait out a reconnect,
 * then for its response) and throws the call's {@link UaException} as it is.
 *
 * <p>The client's futures complete on its I/O threads (see {@link ClientResources}): called there, in a future's
 * continuation, each of these throws an {@link IllegalStateException} at once rather than stall the connections of
 * that thread until the timeout. Subscription listeners run there too unless the client's configuration puts them
 * on the callback threads ({@code listenersOnCallbackThreads()}), where blocking is allowed.
 */
public final class BlockingClient {

    private final OpcUaClient client;

    BlockingClient(OpcUaClient client) {
        this.client = client;
    }

    /** @see OpcUaClient#connect() */
    public void connect() {
        await(client.connect(), "connect");
    }

    /** @see OpcUaClient#disconnect() */
    public void disconnect() {
        await(client.disconnect(), "disconnect");
    }

    /** @see OpcUaClient#readValue(NodeId) */
    public DataValue readValue(NodeId nodeId) {
        return await(client.readValue(nodeId), "Read");
    }

    /** @see OpcUaClient#readValues(List) */
    public List<DataValue> readValues(List<NodeId> nodeIds) {
        return await(client.readValues(nodeIds), "Read");
    }

    /** @see OpcUaClient#writeValue(NodeId, Object) */
    public StatusCode writeValue(NodeId nodeId, Object value) {
        return await(client.writeValue(nodeId, value), "Write");
    }

    /** @see OpcUaClient#browse(NodeId) */
    public List<ReferenceDescription> browse(NodeId nodeId) {
        return await(client.browse(nodeId), "Browse");
    }

    /** @see OpcUaClient#call(NodeId, NodeId, Object...) */
    public Variant[] call(NodeId objectId, NodeId methodId, Object... inputs) {
        return await(client.call(objectId, methodId, inputs), "Call");
    }

    /** @see OpcUaClient#addNodes(List) */
    public List<AddNodesResult> addNodes(List<AddNodesItem> nodesToAdd) {
        return await(client.addNodes(nodesToAdd), "AddNodes");
    }

    /** @see OpcUaClient#addReferences(List) */
    public List<StatusCode> addReferences(List<AddReferencesItem> referencesToAdd) {
        return await(client.addReferences(referencesToAdd), "AddReferences");
    }

    /** @see OpcUaClient#deleteNodes(List) */
    public List<StatusCode> deleteNodes(List<DeleteNodesItem> nodesToDelete) {
        return await(client.deleteNodes(nodesToDelete), "DeleteNodes");
    }

    /** @see OpcUaClient#deleteReferences(List) */
    public List<StatusCode> deleteReferences(List<DeleteReferencesItem> referencesToDelete) {
        return await(client.deleteReferences(referencesToDelete), "DeleteReferences");
    }

    private <T> T await(CompletableFuture<T> future, String what) {
        if (ClientResources.onNonBlockingThread()) {
            future.cancel(false);
            ClientResources.checkMayBlock("blocking() " + what);
        }
        long millis = client.config().requestTimeout().toMillis() * 2 + 1000;
        try {
            return future.get(millis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            future.cancel(false);
            throw new UaException(StatusCodes.BadRequestInterrupted, what + " was interrupted");
        } catch (TimeoutException e) {
            future.cancel(false);
            throw new UaException(StatusCodes.BadTimeout, what + " got no answer within " + millis + " ms");
        } catch (CancellationException e) {
            throw new UaException(StatusCodes.BadRequestCancelledByClient, what + " was cancelled");
        } catch (ExecutionException e) {
            Throwable cause = Failures.unwrap(e);
            if (cause instanceof UaException u) {
                throw u;
            }
            if (cause instanceof RuntimeException r) {
                throw r;
            }
            throw new UaException(StatusCode.of(StatusCodes.BadUnexpectedError), what + " failed: " + cause, cause);
        }
    }
}
