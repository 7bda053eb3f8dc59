package dev.opcua.stack.client.transport.uasc;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaResponseMessage;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.structured.ServiceFault;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

/**
 * One request of a {@link UascClientHandler} waiting for its response, keyed by its RequestId
 * (Part 6, 6.7.2.4) in the channel's {@link ClientRequests}: the future handed to the caller, and at
 * the same time the task that completes it on the client's executor, so that a request costs one
 * object besides its message. Its deadline is watched by the channel's {@link RequestDeadlines}. A
 * failed write fails the whole channel (exceptionCaught), and with it this request.
 *
 * <p>Whoever removes the entry from the pending requests completes it; cancelling the future removes
 * the entry and its timeout. {@link OnIoThread} completes a response on the event loop that read it.
 */
class ClientPendingRequest extends CompletableFuture<Object> implements Runnable {

    // One per request, so kept small (56 bytes with compressed oops): RequestId and requestHandle are
    // UInt32s held in ints, the timeout (only for the message) in an int, the executor is the owner's,
    // and the result and the failure share one field (a response is never a Throwable).
    private final ClientRequests owner;
    private final Class<?> responseType;
    private final Function<Object, Object> then;
    private final int timeoutMillis;

    private volatile int requestId;
    private int requestHandle;
    private long deadline;

    // Handed from the event loop (or timer) to the executor; executor.execute orders the write before run().
    private Object outcome;

    /**
     * @param then applied to the response on the executor before the future completes with its result
     *        (a failure it throws fails the future); null to complete with the response itself
     */
    ClientPendingRequest(ClientRequests owner, Class<?> responseType, long timeoutMillis,
            Function<Object, Object> then) {
        this.owner = owner;
        this.responseType = responseType;
        this.timeoutMillis = (int) Math.min(timeoutMillis, Integer.MAX_VALUE);
        this.then = then;
    }

    long requestId() {
        return Integer.toUnsignedLong(requestId);
    }

    /** @param requestId a UInt32 */
    void requestId(long requestId) {
        this.requestId = (int) requestId;
    }

    /** The requestHandle (a UInt32) of the request's header, which the response must echo; 0 when it has none. */
    void requestHandle(long requestHandle) {
        this.requestHandle = (int) requestHandle;
    }

    private long requestHandle() {
        return Integer.toUnsignedLong(requestHandle);
    }

    /** When the request times out, in System.nanoTime; read under the pending map's lock. */
    long deadline() {
        return deadline;
    }

    void deadline(long deadline) {
        this.deadline = deadline;
    }

    /**
     * Completes with a decoded response: a ServiceFault, a response of an unexpected type, or one whose
     * header does not echo the request's requestHandle (Part 4, 7.33) fails it. A ServiceFault with
     * handle 0 is taken as the server's answer all the same: a server that could not decode the
     * request cannot know its handle.
     */
    void respond(UaStructure response) {
        long expected = requestHandle();
        long echoed = response instanceof UaResponseMessage r && r.responseHeader() != null
                ? r.responseHeader().requestHandle() : expected;
        if (echoed != expected && !(response instanceof ServiceFault && echoed == 0)) {
            fail(new UaException(StatusCodes.BadUnknownResponse, "the response to request " + requestId()
                    + " carries requestHandle " + echoed + ", the request had " + expected));
        } else if (response instanceof ServiceFault fault) {
            fail(new UaException(fault.responseHeader().serviceResult(), "the server answered request "
                    + requestId() + " with a ServiceFault"));
        } else if (responseType != null && !responseType.isInstance(response)) {
            fail(new UaException(StatusCodes.BadUnknownResponse, "expected a " + responseType.getSimpleName()
                    + " for request " + requestId() + ", received a " + response.getClass().getSimpleName()));
        } else {
            outcome = response;
            succeed();
        }
    }

    /** Completes with the outcome set: on the executor. */
    void succeed() {
        dispatch(owner.executor());
    }

    /** Completes exceptionally on the failure executor. */
    void fail(Throwable cause) {
        outcome = cause;
        dispatch(owner.failureExecutor());
    }

    /** Completes exceptionally on the calling thread: the caller of request() learns at once. */
    void failNow(Throwable cause) {
        completeExceptionally(cause);
    }

    private void dispatch(Executor executor) {
        try {
            executor.execute(this);
        } catch (RejectedExecutionException e) {
            run(); // the executor is shut down: better the current thread than a future left hanging
        }
    }

    /** Runs on the executor: completes the future, applying {@code then} first. */
    @Override
    public void run() {
        Object o = outcome;
        if (o instanceof Throwable failure) {
            completeExceptionally(failure);
        } else if (then == null) {
            complete(o);
        } else {
            Object mapped;
            try {
                mapped = then.apply(o);
            } catch (RuntimeException e) {
                completeExceptionally(e);
                return;
            }
            complete(mapped);
        }
    }

    /** No response within the timeout; the caller has removed it from the pending requests. */
    void timedOut() {
        fail(new UaException(StatusCodes.BadTimeout, "no response to request " + requestId() + " within "
                + timeoutMillis + " ms"));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        boolean cancelled = super.cancel(mayInterruptIfRunning);
        if (cancelled) {
            owner.forget(this);
        }
        return cancelled;
    }

    /**
     * A request whose response completes the future on the event loop that read it, without the hand-off to
     * the executor: for the client's own continuations, which are short and never block (the Publish
     * pipeline's). A failure is still completed on the executor, as are those of every other request.
     */
    static final class OnIoThread extends ClientPendingRequest {

        OnIoThread(ClientRequests owner, Class<?> responseType, long timeoutMillis) {
            super(owner, responseType, timeoutMillis, null);
        }

        @Override
        void succeed() {
            run();
        }
    }
}
