package dev.opcua.stack.server.session;

import static dev.opcua.stack.server.session.SecureSessionFixture.DISCOVERY;
import static dev.opcua.stack.server.session.SecureSessionFixture.SIGN_AND_ENCRYPT;
import static dev.opcua.stack.server.session.SecureSessionFixture.assertStatus;
import static dev.opcua.stack.server.session.SecureSessionFixture.create;
import static dev.opcua.stack.server.session.SecureSessionFixture.nonce;
import static dev.opcua.stack.server.session.TestKeys.CLIENT;
import static dev.opcua.stack.server.session.TestKeys.CLIENT_URI;
import static dev.opcua.stack.server.session.TestKeys.OTHER_CLIENT;
import static dev.opcua.stack.server.session.TestKeys.SERVER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.AsymmetricCrypto;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** CreateSession on a secure channel (Part 4, 5.6.2): the client's certificate and the server's proof. */
class SecureCreateSessionTest {

    private final SessionManager manager = SessionManager.builder()
            .identityValidator(UserNameIdentityValidator.of(Map.of("alice", "secret"), true))
            .discoveryEndpoints(() -> DISCOVERY)
            .applicationCertificate(SERVER)
            .build();
    private final TestChannel channel = new TestChannel(7, SIGN_AND_ENCRYPT, CLIENT);

    @AfterEach
    void close() {
        manager.close();
    }

    @ParameterizedTest
    @EnumSource(value = SecurityPolicy.class, names = {"Basic256Sha256", "Aes128_Sha256_RsaOaep", "Aes256_Sha256_RsaPss"})
    void the_server_signs_the_client_certificate_and_nonce_with_its_key(SecurityPolicy policy) {
        TestChannel secure = new TestChannel(9, new EndpointSecurity(policy, MessageSecurityMode.SignAndEncrypt), CLIENT);
        ByteString clientNonce = nonce(32);

        CreateSessionResponse response = manager.createSession(secure, create(CLIENT, CLIENT_URI, clientNonce));

        assertThat(response.serverCertificate()).isEqualTo(SERVER.der());
        assertThat(response.serverSignature().algorithm()).isEqualTo(policy.asymmetricSignatureUri());
        assertThat(AsymmetricCrypto.verify(policy, SERVER.certificate().getPublicKey(),
                response.serverSignature().signature().unsafeBytes(), Certificates.encode(CLIENT),
                clientNonce.unsafeBytes())).isTrue();
        assertThat(response.serverNonce().length()).isEqualTo(32);
        // the channel's certificate object itself: a session holds no second parse of the same certificate
        assertThat(manager.sessions()).singleElement()
                .satisfies(s -> assertThat(s.clientCertificate()).isSameAs(secure.clientCertificateChain().get(0)));
    }

    @Test
    void a_client_certificate_sent_with_its_issuers_is_signed_as_sent() {
        X509Certificate issued = TestX509.issued(TestKeys.CLIENT_KEYS.getPublic(), "Issued Client", CLIENT_URI,
                TestKeys.CA, TestKeys.CA_KEYS.getPrivate());
        ByteString chain = ByteString.wrap(Certificates.encodeChain(List.of(issued, TestKeys.CA)));
        ByteString clientNonce = nonce(48);
        TestChannel secure = new TestChannel(9, SIGN_AND_ENCRYPT, List.of(issued, TestKeys.CA));

        CreateSessionResponse response = manager.createSession(secure, create(chain, CLIENT_URI, clientNonce));

        assertThat(AsymmetricCrypto.verify(SecurityPolicy.Basic256Sha256, SERVER.certificate().getPublicKey(),
                response.serverSignature().signature().unsafeBytes(), chain.unsafeBytes(), clientNonce.unsafeBytes()))
                .isTrue();
    }

    @Test
    void a_client_nonce_shorter_than_32_bytes_is_bad_nonce_invalid() {
        assertStatus(() -> manager.createSession(channel, create(CLIENT, CLIENT_URI, nonce(31))),
                StatusCodes.BadNonceInvalid);
        assertStatus(() -> manager.createSession(channel, create(CLIENT, CLIENT_URI, ByteString.NULL)),
                StatusCodes.BadNonceInvalid);
        assertThat(manager.currentSessions()).isZero();
    }

    @Test
    void a_client_certificate_other_than_the_channels_is_bad_security_checks_failed() {
        assertStatus(() -> manager.createSession(channel, create(OTHER_CLIENT, TestKeys.OTHER_CLIENT_URI, nonce(32))),
                StatusCodes.BadSecurityChecksFailed);
        assertThat(manager.counters().sessionsCreated()).isZero();
    }

    @Test
    void a_missing_or_unparseable_client_certificate_is_bad_certificate_invalid() {
        assertStatus(() -> manager.createSession(channel, create(ByteString.NULL, CLIENT_URI, nonce(32))),
                StatusCodes.BadCertificateInvalid);
        assertStatus(() -> manager.createSession(channel, create(ByteString.of(new byte[] {0x30, 1, 2}), CLIENT_URI,
                nonce(32))), StatusCodes.BadCertificateInvalid);
    }

    @Test
    void an_application_uri_other_than_the_certificates_is_bad_certificate_uri_invalid() {
        assertStatus(() -> manager.createSession(channel, create(CLIENT, "urn:test:impostor", nonce(32))),
                StatusCodes.BadCertificateUriInvalid);
        assertStatus(() -> manager.createSession(channel, create(CLIENT, null, nonce(32))),
                StatusCodes.BadCertificateUriInvalid);

        X509Certificate withoutUri = TestX509.selfSigned(TestKeys.CLIENT_KEYS, "No Uri", null);
        TestChannel noUriChannel = new TestChannel(9, SIGN_AND_ENCRYPT, withoutUri);
        assertStatus(() -> manager.createSession(noUriChannel, create(withoutUri, CLIENT_URI, nonce(32))),
                StatusCodes.BadCertificateUriInvalid);
    }

    @Test
    void a_secure_channel_without_server_certificate_is_bad_security_checks_failed() {
        try (SessionManager noCertificate = SessionManager.builder()
                .identityValidator(IdentityValidator.anonymousOnly())
                .discoveryEndpoints(() -> DISCOVERY)
                .build()) {
            assertStatus(() -> noCertificate.createSession(channel, create(CLIENT, CLIENT_URI, nonce(32))),
                    StatusCodes.BadSecurityChecksFailed);
        }
    }

    @Test
    void the_response_lists_the_endpoints_of_get_endpoints() {
        CreateSessionResponse response = manager.createSession(channel, create(CLIENT, CLIENT_URI, nonce(32)));

        assertThat(response.serverEndpoints()).containsExactlyElementsOf(DISCOVERY.endpoints());
        assertThat(response.serverSoftwareCertificates()).isEmpty();
    }
}
