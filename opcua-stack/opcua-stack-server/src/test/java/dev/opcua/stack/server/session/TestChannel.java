package dev.opcua.stack.server.session;

import dev.opcua.stack.core.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.UaStructure;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** A secure channel with a chosen id that sends nothing: the session services are called directly. */
record TestChannel(long secureChannelId) implements ServerSecureChannel {

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
