package dev.opcua.stack.server.transport.uasc;

import io.netty.buffer.ByteBuf;

/**
 * Receives what the {@link UascServerHandler}s of a server pass up: requests, still encoded, and the
 * opening and closing of secure channels (Part 6, 7.1.3 and 7.1.4: the stack notifies the server
 * application of each). Every method is called on the channel's event loop and must return quickly:
 * decoding and service work belong on worker threads (the design's request path).
 */
public interface ServerRequestListener {

    /**
     * A whole request arrived on {@code channel}.
     *
     * @param requestId the RequestId of its chunks (Part 6, 6.7.2.4), to answer with
     * @param message the encoding NodeId and the body (Part 6, 5.2.9); the listener owns it and
     *        releases it, also when it throws
     */
    void onRequest(ServerSecureChannel channel, long requestId, ByteBuf message);

    /** An OpenSecureChannel Issue succeeded and {@code channel} is open. */
    default void onChannelOpened(ServerSecureChannel channel) {
    }

    /**
     * The event loop finished one socket read of the open {@code channel} (every whole request in it was
     * passed to {@link #onRequest}); on the channel's event loop.
     */
    default void onReadComplete(ServerSecureChannel channel) {
    }

    /** The socket of an open {@code channel} closed: after a CloseSecureChannel, an error or a drop. */
    default void onChannelClosed(ServerSecureChannel channel) {
    }
}
