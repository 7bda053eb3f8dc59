package dev.opcua.stack.server.testing;

import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SignatureData;
import java.util.concurrent.TimeUnit;

/** Anonymous sessions opened with our client's raw service calls, for server tests. */
public final class TestSessions {

    private TestSessions() {
    }

    /** CreateSession and ActivateSession (anonymous policy "anonymous"); returns the authentication token. */
    public static NodeId open(UaTcpClientChannel client, String endpointUrl) throws Exception {
        CreateSessionResponse created = client.request(new CreateSessionRequest(RequestHeaders.create(0),
                new ApplicationDescription("urn:test:client", null, LocalizedText.of("test client"),
                        ApplicationType.Client, null, null, null),
                null, endpointUrl, "test", ByteString.NULL, ByteString.NULL, 60_000, 0),
                CreateSessionResponse.class).get(10, TimeUnit.SECONDS);
        NodeId token = created.authenticationToken();
        client.request(new ActivateSessionRequest(header(token), new SignatureData(null, ByteString.NULL), null, null,
                ExtensionObject.of(new AnonymousIdentityToken("anonymous")), new SignatureData(null, ByteString.NULL)),
                ActivateSessionResponse.class).get(10, TimeUnit.SECONDS);
        return token;
    }

    /** A request header carrying the session's token. */
    public static RequestHeader header(NodeId token) {
        return new RequestHeader(token, DateTime.now(), RequestHeaders.nextHandle(), 0, null, 0, ExtensionObject.NULL);
    }
}
