package dev.opcua.stack.client.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.AsymmetricCrypto;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ResponseHeader;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A scripted session server behind {@link SessionTransport}: answers CreateSession (signing the
 * client certificate and nonce with its own key, as Part 4, 5.6.2 prescribes), ActivateSession (a new
 * nonce each time), Read and CloseSession, and records every request and every nonce it issued.
 * Tests tamper with the CreateSession response or refuse activations to drive the client's checks.
 */
final class FakeSessionServer implements SessionTransport {

    static final String URL = "opc.tcp://fake.test:4840/ua";
    static final NodeId SESSION_ID = NodeId.numeric(1, 77);
    static final NodeId AUTHENTICATION_TOKEN = NodeId.string(0, "secret-token");

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final String UA_TCP = "http://opcfoundation.org/UA-Profile/Transport/uatcp-uasc-uabinary";

    final ApplicationCertificate certificate;
    final EndpointSecurity security;
    final List<UaStructure> received = new CopyOnWriteArrayList<>();
    /** The serverNonce of CreateSession, then that of each ActivateSession, in order. */
    final List<byte[]> issuedNonces = new CopyOnWriteArrayList<>();
    EndpointDescription[] endpoints;
    UnaryOperator<CreateSessionResponse> createTamper = response -> response;
    Function<ActivateSessionRequest, Integer> activationRefusal = request -> null;
    int nonceLength = 32;

    FakeSessionServer(ApplicationCertificate certificate, EndpointSecurity security) {
        this.certificate = certificate;
        this.security = security;
        this.endpoints = new EndpointDescription[] {endpoint(URL, security,
                policy("anon", UserTokenType.Anonymous, null),
                policy("user", UserTokenType.UserName, null),
                policy("cert", UserTokenType.Certificate, null))};
    }

    /** A uatcp endpoint of this server's certificate. */
    EndpointDescription endpoint(String url, EndpointSecurity endpointSecurity, UserTokenPolicy... policies) {
        return new EndpointDescription(url, new ApplicationDescription("urn:fake", null, null, null, null, null, null),
                certificate.der(), endpointSecurity.mode(), endpointSecurity.policy().uri(), policies, UA_TCP,
                endpointSecurity.securityLevel());
    }

    static UserTokenPolicy policy(String id, UserTokenType type, SecurityPolicy security) {
        return new UserTokenPolicy(id, type, null, null, security == null ? null : security.uri());
    }

    @Override
    public String endpointUrl() {
        return URL;
    }

    @Override
    public <T extends UaStructure> CompletableFuture<T> request(UaStructure request, Class<T> responseType) {
        received.add(request);
        UaStructure response;
        if (request instanceof CreateSessionRequest create) {
            response = createTamper.apply(created(create));
        } else if (request instanceof ActivateSessionRequest activate) {
            Integer refusal = activationRefusal.apply(activate);
            if (refusal != null) {
                return CompletableFuture.failedFuture(new UaException(refusal,
                        "the server answered request 9 with a ServiceFault"));
            }
            response = new ActivateSessionResponse(goodHeader(handle(activate)), nonce(),
                    new StatusCode[0], new DiagnosticInfo[0]);
        } else if (request instanceof ReadRequest read) {
            DataValue[] values = new DataValue[read.nodesToRead().length];
            for (int i = 0; i < values.length; i++) {
                values[i] = DataValue.of(Variant.of(i));
            }
            response = new ReadResponse(goodHeader(read.requestHeader().requestHandle()), values,
                    new DiagnosticInfo[0]);
        } else if (request instanceof CloseSessionRequest close) {
            response = new CloseSessionResponse(goodHeader(close.requestHeader().requestHandle()));
        } else {
            throw new AssertionError("unexpected request " + request);
        }
        return CompletableFuture.completedFuture(responseType.cast(response));
    }

    private CreateSessionResponse created(CreateSessionRequest create) {
        SignatureData signature = new SignatureData(null, ByteString.NULL);
        if (security.policy() != SecurityPolicy.None) {
            signature = new SignatureData(security.policy().asymmetricSignatureUri(),
                    ByteString.wrap(AsymmetricCrypto.sign(security.policy(), certificate.privateKey(),
                            create.clientCertificate().unsafeBytes(), create.clientNonce().unsafeBytes())));
        }
        return new CreateSessionResponse(goodHeader(create.requestHeader().requestHandle()), SESSION_ID,
                AUTHENTICATION_TOKEN, create.requestedSessionTimeout(), nonce(), certificate.der(), endpoints,
                null, signature, 0);
    }

    private ByteString nonce() {
        byte[] nonce = new byte[nonceLength];
        RANDOM.nextBytes(nonce);
        issuedNonces.add(nonce);
        return ByteString.wrap(nonce);
    }

    /** A Good header echoing {@code requestHandle}, as a server answers (Part 4, 7.33). */
    private static ResponseHeader goodHeader(long requestHandle) {
        return new ResponseHeader(DateTime.now(), requestHandle, StatusCode.GOOD, DiagnosticInfo.NULL, null,
                ExtensionObject.NULL);
    }

    private static long handle(ActivateSessionRequest request) {
        return request.requestHeader().requestHandle();
    }

    /** The requests of one type, in order. */
    <T> List<T> received(Class<T> type) {
        List<T> result = new ArrayList<>();
        for (UaStructure request : received) {
            if (type.isInstance(request)) {
                result.add(type.cast(request));
            }
        }
        return result;
    }

    static EndpointSecurity secured(SecurityPolicy policy) {
        return new EndpointSecurity(policy, MessageSecurityMode.SignAndEncrypt);
    }
}
