package dev.opcua.stack.server.requests;

import dev.opcua.stack.core.ids.StatusCodes;

/** Why the request pipeline answered a request without running it, with the ServiceFault status (Part 4, 7.39.2). */
public enum RejectReason {

    /** No room in the queue at admission (MaxQueuedRequestCount): BadServerTooBusy. */
    TOO_BUSY(StatusCodes.BadServerTooBusy),

    /** Waited longer than the pool's maxRequestAge before a worker took it: BadTimeout. */
    TOO_OLD(StatusCodes.BadTimeout),

    /**
     * Waited longer than its own timeoutHint (Part 4, 7.32: the Server may then answer Bad_Timeout;
     * the client has given up on it): BadTimeout.
     */
    TIMEOUT(StatusCodes.BadTimeout),

    /** Arrived after the pool began closing, or was still queued when it closed: BadServerHalted. */
    HALTED(StatusCodes.BadServerHalted);

    private final int status;

    RejectReason(int status) {
        this.status = status;
    }

    /** The StatusCode of the ServiceFault that answers the request. */
    public int status() {
        return status;
    }
}
