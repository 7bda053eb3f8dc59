package dev.opcua.benchmarks.load;

import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.session.SessionOptions;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One anonymous {@link ClientSession} (Part 4, 5.6.2 CreateSession and 5.6.3 ActivateSession) on its
 * own secure channel, secured as its {@link LoadSecurity} says. Closing it closes the channel; the
 * server drops the session when it times out.
 */
public final class LoadSession implements AutoCloseable {

    private static final long TIMEOUT_S = 10;

    private final UaTcpClientChannel channel;
    private final ClientSession session;

    private LoadSession(UaTcpClientChannel channel, ClientSession session) {
        this.channel = channel;
        this.session = session;
    }

    /** Opens a channel with SecurityPolicy None and an activated anonymous session; the caller closes it. */
    public static LoadSession open(String url, ClientResources resources) throws Exception {
        return open(url, resources, LoadSecurity.NONE);
    }

    /** Opens a channel with {@code security} and an activated anonymous session; the caller closes it. */
    static LoadSession open(String url, ClientResources resources, LoadSecurity security) throws Exception {
        return open(url, resources, security, security.session());
    }

    /** Opens a channel with {@code security} and a session created with {@code options}; the caller closes it. */
    static LoadSession open(String url, ClientResources resources, LoadSecurity security, SessionOptions options)
            throws Exception {
        CompletableFuture<UaTcpClientChannel> connecting = UaTcpClientChannel.connect(url, TransportQuotas.DEFAULT,
                security.channel(), resources);
        UaTcpClientChannel channel;
        try {
            channel = connecting.get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            // the handshake may still finish: its channel is closed then, not left open on both ends (on a loaded
            // machine the sessions scenario's ramp-up leaked a server connection per timeout)
            connecting.thenAccept(UaTcpClientChannel::close);
            throw e;
        }
        try {
            ClientSession session = ClientSession.open(channel, options).get(TIMEOUT_S, TimeUnit.SECONDS);
            return new LoadSession(channel, session);
        } catch (Exception e) {
            channel.close();
            throw e;
        }
    }

    public UaTcpClientChannel channel() {
        return channel;
    }

    /** A fresh request header for this session (a new handle each time). */
    public RequestHeader header() {
        return session.header();
    }

    /** A fresh request header whose timeoutHint is {@code timeoutMillis}, for a request the server may hold. */
    RequestHeader header(long timeoutMillis) {
        RequestHeader h = session.header();
        return new RequestHeader(h.authenticationToken(), h.timestamp(), h.requestHandle(), h.returnDiagnostics(),
                h.auditEntryId(), timeoutMillis, h.additionalHeader());
    }

    /** Sends any service request of this session (build its header with {@link #header()}). */
    <T extends UaStructure> CompletableFuture<T> request(UaStructure request, Class<T> responseType) {
        return session.request(request, responseType);
    }

    /** The index of {@code uri} in the server's NamespaceArray (Part 5, 6.3.1). */
    int namespaceIndex(String uri) throws Exception {
        ReadResponse response = channel.request(new ReadRequest(header(), 0, TimestampsToReturn.Neither,
                new ReadValueId[] {new ReadValueId(NodeId.ns0(NodeIds.Server_NamespaceArray), AttributeIds.Value,
                        null, QualifiedName.NULL)}), ReadResponse.class).get(TIMEOUT_S, TimeUnit.SECONDS);
        DataValue value = response.results()[0];
        if (value.value().value() instanceof String[] uris) {
            for (int i = 0; i < uris.length; i++) {
                if (uri.equals(uris[i])) {
                    return i;
                }
            }
        }
        throw new IllegalStateException("namespace " + uri + " not in the server's NamespaceArray");
    }

    /**
     * Closes the session (Part 4, 5.6.4), then the channel; unlike {@link #close()} it reports a
     * failure, so that the connect scenario can count it.
     */
    void closeSessionAndChannel() throws Exception {
        try {
            session.close().get(TIMEOUT_S, TimeUnit.SECONDS);
        } finally {
            channel.close().get(TIMEOUT_S, TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() {
        try {
            channel.close().get(TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            // closing is best effort at the end of a run; the channel is gone either way
        }
    }
}
