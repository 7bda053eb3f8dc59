package dev.opcua.stack.core.transport.uasc;

import dev.opcua.stack.core.types.UaStructure;
import java.net.SocketAddress;

/**
 * An open secure channel as the server's upper layers see it (Part 6, 6.7; Part 4, 5.5): where it
 * comes from, and how to answer the requests received on it.
 *
 * <p>The send methods are thread-safe and meant to be called from worker threads: the response is
 * encoded on the calling thread, then chunked and written under the channel's send lock. A channel
 * that has closed drops what is sent to it.
 */
public interface ServerSecureChannel {

    /** The SecureChannelId the server assigned (Part 6, 6.7.2.2). */
    long secureChannelId();

    /** The client's address. */
    SocketAddress remoteAddress();

    /** The EndpointUrl of the client's Hello (Part 6, 7.1.2.3). */
    String endpointUrl();

    /** Whether the socket is still open. */
    boolean isOpen();

    /**
     * Sends the response to request {@code requestId}. A response over the client's MaxMessageSize or
     * MaxChunkCount is replaced by a ServiceFault with BadResponseTooLarge (Part 6, 7.1.2.3 and 6.7.3;
     * the limits are checked before any chunk is written), one that cannot be encoded by a ServiceFault
     * with the encoder's status.
     */
    void sendResponse(long requestId, UaStructure response);

    /**
     * Sends a ServiceFault (Part 4, 7.34) with {@code status} for request {@code requestId}, echoing the
     * request's {@code requestHandle}.
     */
    void sendServiceFault(long requestId, long requestHandle, int status);

    /** Closes the socket; the channel's resources are released on the event loop. */
    void close();
}
