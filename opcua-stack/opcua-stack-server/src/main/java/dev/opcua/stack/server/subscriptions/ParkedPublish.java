package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.builtin.StatusCode;

/**
 * A Publish request waiting in its session (Part 4, 5.13.5), decoded: where to answer it, until when,
 * and the results of its acknowledgements, which were processed when it arrived.
 *
 * @param deadlineNanos when its timeoutHint passes, on the publishing clock; {@link #NO_DEADLINE} without one
 */
record ParkedPublish(ServerSecureChannel channel, long requestId, long requestHandle, long deadlineNanos,
        StatusCode[] results) {

    static final long NO_DEADLINE = Long.MAX_VALUE;

    boolean expired(long nowNanos) {
        return deadlineNanos != NO_DEADLINE && nowNanos - deadlineNanos >= 0;
    }
}
