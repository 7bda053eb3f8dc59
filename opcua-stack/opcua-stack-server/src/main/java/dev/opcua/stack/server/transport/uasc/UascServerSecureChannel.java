package dev.opcua.stack.server.transport.uasc;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.transport.uasc.SecureChannelWriter;
import dev.opcua.stack.core.types.UaStructure;
import java.net.SocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link ServerSecureChannel} of one {@link UascServerHandler}: sends through the channel's
 * {@link SecureChannelWriter}, from whichever thread calls.
 */
final class UascServerSecureChannel implements ServerSecureChannel {

    private static final Logger log = LoggerFactory.getLogger(UascServerSecureChannel.class);

    private final long secureChannelId;
    private final String endpointUrl;
    private final SecureChannelWriter writer;
    private final EndpointSecurity security;
    private final List<X509Certificate> clientCertificateChain;
    private final ServerChannelCounters counters;
    private volatile Object listenerState;

    UascServerSecureChannel(long secureChannelId, String endpointUrl, SecureChannelWriter writer,
            EndpointSecurity security, List<X509Certificate> clientCertificateChain, ServerChannelCounters counters) {
        this.counters = counters;
        this.secureChannelId = secureChannelId;
        this.endpointUrl = endpointUrl;
        this.writer = writer;
        this.security = security;
        this.clientCertificateChain = List.copyOf(clientCertificateChain);
    }

    @Override
    public EndpointSecurity security() {
        return security;
    }

    @Override
    public List<X509Certificate> clientCertificateChain() {
        return clientCertificateChain;
    }

    @Override
    public Object listenerState() {
        return listenerState;
    }

    @Override
    public void attachListenerState(Object state) {
        listenerState = state;
    }

    @Override
    public long secureChannelId() {
        return secureChannelId;
    }

    @Override
    public SocketAddress remoteAddress() {
        return writer.channel().remoteAddress();
    }

    @Override
    public String endpointUrl() {
        return endpointUrl;
    }

    @Override
    public long maxResponseBodySize() {
        return writer.maxBodySize();
    }

    @Override
    public boolean isOpen() {
        return writer.channel().isActive();
    }

    @Override
    public void sendResponse(long requestId, UaStructure response) {
        if (!isOpen()) {
            return; // the client is gone: encoding the response would be wasted work
        }
        try {
            // no promise: a failed write reaches exceptionCaught, which closes the channel (-48 B a response)
            writer.writeSymmetricVoid(MessageType.MSG, requestId, response);
        } catch (UaException e) {
            // BadResponseTooLarge (checked before any chunk is written) or BadEncodingError.
            if (e.statusCode().isSameCode(StatusCodes.BadResponseTooLarge)) {
                counters.reject(TransportRejection.RESPONSE_TOO_LARGE);
            }
            log.debug("channel {}: response to request {} not sent: {}", secureChannelId, requestId,
                    e.getMessage());
            sendServiceFault(requestId, ResponseHeaders.requestHandleOf(response), e.statusCode().value());
        } catch (RuntimeException e) {
            log.warn("channel {}: response to request {} could not be encoded", secureChannelId, requestId, e);
            sendServiceFault(requestId, ResponseHeaders.requestHandleOf(response), StatusCodes.BadInternalError);
        }
    }

    @Override
    public void sendServiceFault(long requestId, long requestHandle, int status) {
        if (!isOpen()) {
            return;
        }
        try {
            writer.writeSymmetric(MessageType.MSG, requestId, ResponseHeaders.serviceFault(requestHandle, status));
        } catch (RuntimeException e) {
            // Even a ServiceFault exceeds the client's limits: the abort chunk is the last resort (Part 6, 6.7.3).
            log.debug("channel {}: ServiceFault for request {} not sent, aborting it", secureChannelId, requestId, e);
            writer.writeAbort(requestId, status, null);
        }
    }

    @Override
    public void close() {
        writer.channel().close();
    }

    @Override
    public String toString() {
        return "SecureChannel[" + secureChannelId + ", " + remoteAddress() + "]";
    }
}
