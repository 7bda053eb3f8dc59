package dev.opcua.stack.server.transport.uasc;

import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.UaStructure;
import java.net.SocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;

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

    /** The security policy and mode the client opened the channel with (Part 6, 6.7.4). */
    default EndpointSecurity security() {
        return EndpointSecurity.NONE;
    }

    /**
     * The client's application instance certificate and the issuers it sent, validated when the channel
     * opened; empty with SecurityPolicy None.
     */
    default List<X509Certificate> clientCertificateChain() {
        return List.of();
    }

    /**
     * What the request listener keeps for this channel (for the server's dispatcher, the connection's load
     * on its event loop); null until the listener {@link #attachListenerState attaches} some.
     */
    default Object listenerState() {
        return null;
    }

    /** Attaches the request listener's state for this channel; a channel that keeps none ignores it. */
    default void attachListenerState(Object state) {
    }

    /**
     * The largest response body the client accepts on this channel, from the MaxMessageSize and
     * MaxChunkCount of its Hello (Part 6, 7.1.2.3); 0 for no limit. Responses over it are not sent (see
     * {@link #sendResponse}): the publishing cycle fills NotificationMessages up to it.
     */
    default long maxResponseBodySize() {
        return 0;
    }

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
