package dev.opcua.benchmarks.load;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import java.util.concurrent.TimeUnit;

/**
 * One anonymous session (Part 4, 5.6.2 CreateSession and 5.6.3 ActivateSession) on its own secure
 * channel, SecurityPolicy None. Closing it closes the channel; the server drops the session when
 * it times out.
 */
public final class LoadSession implements AutoCloseable {

    private static final long TIMEOUT_S = 10;

    private final UaTcpClientChannel channel;
    private final NodeId token;

    private LoadSession(UaTcpClientChannel channel, NodeId token) {
        this.channel = channel;
        this.token = token;
    }

    /** Opens a channel and an activated anonymous session; the caller closes it. */
    public static LoadSession open(String url, ClientResources resources) throws Exception {
        UaTcpClientChannel channel = UaTcpClientChannel.connect(url, TransportQuotas.DEFAULT, resources)
                .get(TIMEOUT_S, TimeUnit.SECONDS);
        try {
            CreateSessionResponse created = channel.request(new CreateSessionRequest(RequestHeaders.create(0),
                    new ApplicationDescription("urn:dev.opcua:bench:load", null, LocalizedText.of("load harness"),
                            ApplicationType.Client, null, null, null),
                    null, url, "load", ByteString.NULL, ByteString.NULL, 120_000, 0), CreateSessionResponse.class)
                    .get(TIMEOUT_S, TimeUnit.SECONDS);
            NodeId token = created.authenticationToken();
            ActivateSessionResponse activated = channel.request(new ActivateSessionRequest(header(token),
                    new SignatureData(null, ByteString.NULL), null, null,
                    ExtensionObject.of(new AnonymousIdentityToken(anonymousPolicy(created))),
                    new SignatureData(null, ByteString.NULL)), ActivateSessionResponse.class)
                    .get(TIMEOUT_S, TimeUnit.SECONDS);
            if (!activated.responseHeader().serviceResult().isGood()) {
                throw new IllegalStateException("ActivateSession failed: " + activated.responseHeader().serviceResult());
            }
            return new LoadSession(channel, token);
        } catch (Exception e) {
            channel.close();
            throw e;
        }
    }

    /** The policy id the server announces for anonymous users (servers name it differently). */
    private static String anonymousPolicy(CreateSessionResponse created) {
        if (created.serverEndpoints() != null) {
            for (EndpointDescription endpoint : created.serverEndpoints()) {
                if (endpoint.userIdentityTokens() == null) {
                    continue;
                }
                for (UserTokenPolicy policy : endpoint.userIdentityTokens()) {
                    if (policy.tokenType() == UserTokenType.Anonymous) {
                        return policy.policyId();
                    }
                }
            }
        }
        return "anonymous";
    }

    public UaTcpClientChannel channel() {
        return channel;
    }

    /** A fresh request header for this session (a new handle each time). */
    public RequestHeader header() {
        return header(token);
    }

    private static RequestHeader header(NodeId token) {
        return new RequestHeader(token, DateTime.now(), RequestHeaders.nextHandle(), 0, null, 10_000,
                ExtensionObject.NULL);
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
            CloseSessionResponse response = channel.request(new CloseSessionRequest(header(), true),
                    CloseSessionResponse.class).get(TIMEOUT_S, TimeUnit.SECONDS);
            if (!response.responseHeader().serviceResult().isGood()) {
                throw new IllegalStateException("CloseSession failed: " + response.responseHeader().serviceResult());
            }
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
