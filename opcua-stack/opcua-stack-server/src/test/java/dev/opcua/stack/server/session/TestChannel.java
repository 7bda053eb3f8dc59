package dev.opcua.stack.server.session;

import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.UaStructure;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;

/**
 * A secure channel with a chosen id, security and client certificate chain that sends nothing: the
 * session services are called directly.
 */
record TestChannel(long secureChannelId, EndpointSecurity security, List<X509Certificate> clientCertificateChain)
        implements ServerSecureChannel {

    /** A SecurityPolicy None channel. */
    TestChannel(long secureChannelId) {
        this(secureChannelId, EndpointSecurity.NONE, List.of());
    }

    /** A secure channel opened with {@code client}'s certificate alone. */
    TestChannel(long secureChannelId, EndpointSecurity security, X509Certificate client) {
        this(secureChannelId, security, List.of(client));
    }

    @Override
    public SocketAddress remoteAddress() {
        return new InetSocketAddress("127.0.0.1", 50_000);
    }

    @Override
    public String endpointUrl() {
        return SessionManagerTest.URL;
    }

    @Override
    public boolean isOpen() {
        return true;
    }

    @Override
    public void sendResponse(long requestId, UaStructure response) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void sendServiceFault(long requestId, long requestHandle, int status) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
    }
}
