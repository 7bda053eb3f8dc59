package dev.opcua.stack.server.requests;

/**
 * What a {@link RequestWorkerPool} does with its requests: run them, or answer those it refuses.
 * Both methods own the request from the call on (release its buffers) and must not throw.
 */
public interface RequestRunner {

    /** Runs {@code request} on a worker thread. */
    void run(QueuedRequest request);

    /**
     * Answers {@code request} with a ServiceFault of {@code reason}'s status without running it: on the
     * submitting thread for {@link RejectReason#TOO_BUSY} and refusals after close, on a worker for
     * requests that waited too long, on the closing thread for requests still queued at close.
     */
    void reject(QueuedRequest request, RejectReason reason);
}
