package dev.opcua.stack.server.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.util.List;

/** Requests and endpoints shared by the tests of sessions on secure channels. */
final class SecureSessionFixture {

    static final String URL = SessionManagerTest.URL;
    static final EndpointSecurity SIGN_AND_ENCRYPT =
            new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt);

    /** Non-deprecated policies, each SignAndEncrypt, with None first: the endpoints of the secure tests. */
    static final List<EndpointSecurity> ENDPOINTS = List.of(EndpointSecurity.NONE, SIGN_AND_ENCRYPT,
            new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.Sign),
            new EndpointSecurity(SecurityPolicy.Aes128_Sha256_RsaOaep, MessageSecurityMode.SignAndEncrypt),
            new EndpointSecurity(SecurityPolicy.Aes256_Sha256_RsaPss, MessageSecurityMode.SignAndEncrypt));

    static final DiscoveryServices DISCOVERY = DiscoveryServices.builder()
            .application(TestKeys.SERVER_URI, "urn:test:product", "test")
            .endpointUrls(List.of(URL))
            .security(ENDPOINTS, TestKeys.SERVER)
            .userTokenTypes(List.of(UserTokenType.Anonymous, UserTokenType.UserName, UserTokenType.Certificate))
            .build();

    private static final SecureRandom RANDOM = new SecureRandom();

    private SecureSessionFixture() {
    }

    static RequestHeader header(NodeId token) {
        return new RequestHeader(token, null, 42, 0, null, 0, ExtensionObject.NULL);
    }

    static ByteString nonce(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return ByteString.wrap(bytes);
    }

    static ApplicationDescription client(String applicationUri) {
        return new ApplicationDescription(applicationUri, "urn:test:client-product", LocalizedText.of("client"),
                ApplicationType.Client, null, null, null);
    }

    /** CreateSession as a well-behaved client sends it. */
    static CreateSessionRequest create(X509Certificate certificate, String applicationUri, ByteString clientNonce) {
        return create(ByteString.wrap(Certificates.encode(certificate)), applicationUri, clientNonce);
    }

    static CreateSessionRequest create(ByteString certificate, String applicationUri, ByteString clientNonce) {
        return new CreateSessionRequest(header(NodeId.NULL), client(applicationUri), null, URL, "s", clientNonce,
                certificate, 60_000, 0);
    }

    static ActivateSessionRequest activateRequest(NodeId token, SignatureData clientSignature, UserIdentityToken identity,
            SignatureData userTokenSignature) {
        return new ActivateSessionRequest(header(token), clientSignature, null, null,
                identity == null ? ExtensionObject.NULL : ExtensionObject.of(identity), userTokenSignature);
    }

    static void assertStatus(Runnable call, int status) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(UaException.class,
                e -> assertThat(e.statusCode().value()).as(StatusCodes.name(status) + ": " + e.getMessage())
                        .isEqualTo(status));
    }
}
