package dev.opcua.stack.client.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.AsymmetricCrypto;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.core.types.structured.X509IdentityToken;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The session logic of {@link ClientSession} against {@link FakeSessionServer}: what CreateSession and
 * ActivateSession carry (Part 4, 5.6.2 and 5.6.3), the checks of the server's answer, the user token
 * secrets and signatures (7.41), the choice of token policy and the nonce chain across activations.
 */
class ClientSessionTest {

    private static final String PASSWORD = "pässword1";

    private static ApplicationCertificate server;
    private static ApplicationCertificate client;
    private static ApplicationCertificate user;

    @BeforeAll
    static void keys() {
        server = TestCertificates.get("session-server");
        client = TestCertificates.get("session-client");
        user = TestCertificates.get("session-user");
    }

    @Test
    void create_session_on_a_secured_channel_sends_A32_byte_nonce_and_the_client_certificate() throws Exception {
        FakeSessionServer fake = fake(SecurityPolicy.Basic256Sha256);

        ClientSession session = open(fake, ClientIdentity.anonymous());

        CreateSessionRequest create = fake.received(CreateSessionRequest.class).get(0);
        assertThat(create.clientNonce().length()).isEqualTo(32);
        assertThat(create.clientCertificate()).isEqualTo(client.der());
        assertThat(create.endpointUrl()).isEqualTo(FakeSessionServer.URL);
        assertThat(create.clientDescription().applicationUri()).isEqualTo(TestCertificates.applicationUri("session-client"));
        assertThat(create.requestedSessionTimeout()).isEqualTo(60_000);
        assertThat(create.requestHeader().authenticationToken()).isEqualTo(NodeId.NULL);
        assertThat(session.sessionId()).isEqualTo(FakeSessionServer.SESSION_ID);
        assertThat(session.userTokenPolicy().policyId()).isEqualTo("anon");
    }

    @Test
    void anonymous_session_on_a_none_channel_sends_no_certificate_and_no_signatures() throws Exception {
        FakeSessionServer fake = new FakeSessionServer(server, EndpointSecurity.NONE);

        open(fake, ClientChannelSecurity.NONE, ClientIdentity.anonymous());

        CreateSessionRequest create = fake.received(CreateSessionRequest.class).get(0);
        assertThat(create.clientCertificate().isNull()).isTrue();
        assertThat(create.clientNonce().length()).isEqualTo(32);
        ActivateSessionRequest activate = fake.received(ActivateSessionRequest.class).get(0);
        assertThat(activate.clientSignature().signature().isNull()).isTrue();
        assertThat(activate.userTokenSignature().signature().isNull()).isTrue();
        assertThat(activate.userIdentityToken().decoded()).isInstanceOf(AnonymousIdentityToken.class);
        assertThat(((AnonymousIdentityToken) activate.userIdentityToken().decoded()).policyId()).isEqualTo("anon");
    }

    @Test
    void a_server_signature_over_another_nonce_fails_with_bad_application_signature_invalid_and_the_session_is_closed() {
        FakeSessionServer fake = fake(SecurityPolicy.Basic256Sha256);
        fake.createTamper = r -> withSignature(r, new SignatureData(r.serverSignature().algorithm(),
                ByteString.wrap(AsymmetricCrypto.sign(SecurityPolicy.Basic256Sha256, server.privateKey(),
                        client.der().unsafeBytes(), new byte[32]))));

        assertFailsWith(fake, ClientIdentity.anonymous(), StatusCodes.BadApplicationSignatureInvalid,
                "does not verify with the key of certificate CN=session-server,O=dev.opcua tests");
        assertThat(fake.received(ActivateSessionRequest.class)).isEmpty();
        assertThat(fake.received(CloseSessionRequest.class)).hasSize(1);
    }

    @Test
    void a_server_signature_of_another_algorithm_is_refused() {
        FakeSessionServer fake = fake(SecurityPolicy.Aes256_Sha256_RsaPss);
        fake.createTamper = r -> withSignature(r, new SignatureData(
                SecurityPolicy.Basic256Sha256.asymmetricSignatureUri(), r.serverSignature().signature()));

        assertFailsWith(fake, ClientIdentity.anonymous(), StatusCodes.BadApplicationSignatureInvalid,
                "uses algorithm http://www.w3.org/2001/04/xmldsig-more#rsa-sha256");
    }

    @Test
    void a_missing_server_signature_is_refused() {
        FakeSessionServer fake = fake(SecurityPolicy.Basic256Sha256);
        fake.createTamper = r -> withSignature(r, null);

        assertFailsWith(fake, ClientIdentity.anonymous(), StatusCodes.BadApplicationSignatureInvalid,
                "no serverSignature");
    }

    @Test
    void a_server_certificate_other_than_the_channels_fails_with_bad_certificate_invalid() {
        FakeSessionServer fake = fake(SecurityPolicy.Basic256Sha256);
        fake.createTamper = r -> new CreateSessionResponse(r.responseHeader(), r.sessionId(), r.authenticationToken(),
                r.revisedSessionTimeout(), r.serverNonce(), user.der(), r.serverEndpoints(), null,
                r.serverSignature(), 0);

        assertFailsWith(fake, ClientIdentity.anonymous(), StatusCodes.BadCertificateInvalid,
                "carries certificate CN=session-user,O=dev.opcua tests");
    }

    @Test
    void a_server_nonce_shorter_than_32_bytes_fails_with_bad_nonce_invalid() {
        FakeSessionServer fake = fake(SecurityPolicy.Basic256Sha256);
        fake.nonceLength = 16;

        assertFailsWith(fake, ClientIdentity.anonymous(), StatusCodes.BadNonceInvalid, "has 16 bytes");
    }

    @ParameterizedTest
    @EnumSource(value = SecurityPolicy.class, mode = EnumSource.Mode.EXCLUDE, // RSA: the fake holds RSA certificates
            names = {"None", "ECC_nistP256", "ECC_nistP384", "ECC_brainpoolP256r1", "ECC_brainpoolP384r1"})
    void the_client_signature_verifies_with_the_client_key_over_server_certificate_and_nonce(SecurityPolicy policy)
            throws Exception {
        FakeSessionServer fake = fake(policy);

        open(fake, ClientIdentity.anonymous());

        SignatureData signature = fake.received(ActivateSessionRequest.class).get(0).clientSignature();
        assertThat(signature.algorithm()).isEqualTo(policy.asymmetricSignatureUri());
        assertThat(AsymmetricCrypto.verify(policy, client.certificate().getPublicKey(),
                signature.signature().unsafeBytes(), server.der().unsafeBytes(), fake.issuedNonces.get(0))).isTrue();
    }

    @ParameterizedTest
    @EnumSource(value = SecurityPolicy.class, mode = EnumSource.Mode.EXCLUDE, // RSA: the fake holds RSA certificates
            names = {"None", "ECC_nistP256", "ECC_nistP384", "ECC_brainpoolP256r1", "ECC_brainpoolP384r1"})
    void the_password_is_encrypted_in_the_legacy_format_with_the_channels_policy_when_the_token_policy_names_none(
            SecurityPolicy policy) throws Exception {
        FakeSessionServer fake = fake(policy);

        open(fake, ClientIdentity.userName("operator", PASSWORD));

        UserNameIdentityToken token = userNameToken(fake, 0);
        assertThat(token.policyId()).isEqualTo("user");
        assertThat(token.userName()).isEqualTo("operator");
        assertThat(token.encryptionAlgorithm()).isEqualTo(policy.asymmetricEncryptionUri());
        assertLegacySecret(policy, token, fake.issuedNonces.get(0));
    }

    @Test
    void the_token_policys_security_policy_wins_over_the_channels() throws Exception {
        FakeSessionServer fake = fake(SecurityPolicy.Aes256_Sha256_RsaPss);
        fake.endpoints = new EndpointDescription[] {
                fake.endpoint(FakeSessionServer.URL, fake.security,
                        FakeSessionServer.policy("user-b256", UserTokenType.UserName, SecurityPolicy.Basic256Sha256))};

        open(fake, ClientIdentity.userName("operator", PASSWORD));

        UserNameIdentityToken token = userNameToken(fake, 0);
        assertThat(token.encryptionAlgorithm()).isEqualTo("http://www.w3.org/2001/04/xmlenc#rsa-oaep");
        assertLegacySecret(SecurityPolicy.Basic256Sha256, token, fake.issuedNonces.get(0));
    }

    @Test
    void on_a_none_channel_without_token_security_the_password_goes_plain() throws Exception {
        FakeSessionServer fake = new FakeSessionServer(server, EndpointSecurity.NONE);

        open(fake, ClientChannelSecurity.NONE, ClientIdentity.userName("operator", PASSWORD));

        UserNameIdentityToken token = userNameToken(fake, 0);
        assertThat(token.encryptionAlgorithm()).isNull();
        assertThat(new String(token.password().unsafeBytes(), StandardCharsets.UTF_8)).isEqualTo(PASSWORD);
    }

    @Test
    void on_a_none_channel_a_token_policy_with_security_encrypts_for_the_certificate_create_session_returned_once_validated()
            throws Exception {
        FakeSessionServer fake = new FakeSessionServer(server, EndpointSecurity.NONE);
        fake.endpoints = new EndpointDescription[] {
                fake.endpoint(FakeSessionServer.URL, EndpointSecurity.NONE,
                        FakeSessionServer.policy("user-b256", UserTokenType.UserName, SecurityPolicy.Basic256Sha256))};
        List<List<X509Certificate>> validated = new ArrayList<>();
        ClientChannelSecurity none = new ClientChannelSecurity(EndpointSecurity.NONE, null, List.of(), validated::add);

        open(fake, none, ClientIdentity.userName("operator", PASSWORD));

        assertThat(validated).containsExactly(List.of(server.certificate()));
        UserNameIdentityToken token = userNameToken(fake, 0);
        assertThat(token.encryptionAlgorithm()).isEqualTo(SecurityPolicy.Basic256Sha256.asymmetricEncryptionUri());
        assertLegacySecret(SecurityPolicy.Basic256Sha256, token, fake.issuedNonces.get(0));
    }

    @Test
    void on_a_none_channel_a_rejected_server_certificate_stops_the_password() {
        FakeSessionServer fake = new FakeSessionServer(server, EndpointSecurity.NONE);
        fake.endpoints = new EndpointDescription[] {
                fake.endpoint(FakeSessionServer.URL, EndpointSecurity.NONE,
                        FakeSessionServer.policy("user-b256", UserTokenType.UserName, SecurityPolicy.Basic256Sha256))};
        ClientChannelSecurity none = new ClientChannelSecurity(EndpointSecurity.NONE, null, List.of(), chain -> {
            throw new UaException(StatusCodes.BadCertificateUntrusted, "not in the trust list");
        });

        CompletableFuture<ClientSession> opening = ClientSession.open(fake, none, options(ClientIdentity.userName(
                "operator", PASSWORD)));

        assertStatus(opening, StatusCodes.BadCertificateUntrusted, "not in the trust list");
        assertThat(fake.received(ActivateSessionRequest.class)).isEmpty();
        assertThat(fake.received(CloseSessionRequest.class)).hasSize(1);
    }

    @ParameterizedTest
    @EnumSource(value = SecurityPolicy.class, names = {"Basic256Sha256", "Aes256_Sha256_RsaPss", "Basic128Rsa15"})
    void an_X509_token_carries_the_user_certificate_and_a_signature_with_the_users_key(SecurityPolicy policy) throws Exception {
        FakeSessionServer fake = fake(policy);

        open(fake, ClientIdentity.x509(user));

        ActivateSessionRequest activate = fake.received(ActivateSessionRequest.class).get(0);
        X509IdentityToken token = (X509IdentityToken) activate.userIdentityToken().decoded();
        assertThat(token.policyId()).isEqualTo("cert");
        assertThat(token.certificateData()).isEqualTo(user.der());
        SignatureData signature = activate.userTokenSignature();
        assertThat(signature.algorithm()).isEqualTo(policy.asymmetricSignatureUri());
        assertThat(AsymmetricCrypto.verify(policy, user.certificate().getPublicKey(),
                signature.signature().unsafeBytes(), server.der().unsafeBytes(), fake.issuedNonces.get(0))).isTrue();
        assertThat(AsymmetricCrypto.verify(policy, client.certificate().getPublicKey(),
                signature.signature().unsafeBytes(), server.der().unsafeBytes(), fake.issuedNonces.get(0))).isFalse();
    }

    @Test
    void the_token_policy_comes_from_the_endpoint_of_the_channels_security_and_url() throws Exception {
        FakeSessionServer fake = fake(SecurityPolicy.Basic256Sha256);
        EndpointSecurity sign = new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.Sign);
        EndpointSecurity pss = FakeSessionServer.secured(SecurityPolicy.Aes256_Sha256_RsaPss);
        fake.endpoints = new EndpointDescription[] {
                fake.endpoint(FakeSessionServer.URL, sign, FakeSessionServer.policy("sign", UserTokenType.UserName, null)),
                fake.endpoint(FakeSessionServer.URL, pss, FakeSessionServer.policy("pss", UserTokenType.UserName, null)),
                fake.endpoint("opc.tcp://other-name:4840/ua", fake.security,
                        FakeSessionServer.policy("other-host", UserTokenType.UserName, null)),
                fake.endpoint(FakeSessionServer.URL, fake.security,
                        FakeSessionServer.policy("anon", UserTokenType.Anonymous, null),
                        FakeSessionServer.policy("wanted", UserTokenType.UserName, null))};

        ClientSession session = open(fake, ClientIdentity.userName("operator", PASSWORD));

        assertThat(userNameToken(fake, 0).policyId()).isEqualTo("wanted");
        assertThat(session.userTokenPolicy().policyId()).isEqualTo("wanted");
    }

    @Test
    void an_endpoint_without_a_policy_for_the_identity_fails_with_bad_identity_token_rejected() {
        FakeSessionServer fake = fake(SecurityPolicy.Basic256Sha256);
        fake.endpoints = new EndpointDescription[] {
                fake.endpoint(FakeSessionServer.URL, fake.security,
                        FakeSessionServer.policy("anon", UserTokenType.Anonymous, null))};

        assertFailsWith(fake, ClientIdentity.x509(user), StatusCodes.BadIdentityTokenRejected,
                "offers no Certificate token policy; it offers 'anon' (Anonymous)");
        assertThat(fake.received(ActivateSessionRequest.class)).isEmpty();
        assertThat(fake.received(CloseSessionRequest.class)).hasSize(1);
    }

    @Test
    void a_token_policy_of_an_unknown_security_policy_fails_with_bad_security_policy_rejected() {
        FakeSessionServer fake = fake(SecurityPolicy.Basic256Sha256);
        String ecc = "http://opcfoundation.org/UA/SecurityPolicy#ECC_nistP256";
        fake.endpoints = new EndpointDescription[] {
                fake.endpoint(FakeSessionServer.URL, fake.security,
                        new UserTokenPolicy("ecc-user", UserTokenType.UserName, null, null, ecc))};

        assertFailsWith(fake, ClientIdentity.userName("operator", PASSWORD), StatusCodes.BadSecurityPolicyRejected,
                "'ecc-user' (" + ecc + ")");
    }

    @Test
    void a_second_activation_signs_and_encrypts_with_the_nonce_of_the_last_activate_session() throws Exception {
        FakeSessionServer fake = fake(SecurityPolicy.Aes128_Sha256_RsaOaep);
        ClientSession session = open(fake, ClientIdentity.anonymous());

        session.activate(ClientIdentity.userName("operator", PASSWORD)).get(5, TimeUnit.SECONDS);

        assertThat(fake.issuedNonces).hasSize(3); // CreateSession, first and second ActivateSession
        byte[] fromFirstActivation = fake.issuedNonces.get(1);
        ActivateSessionRequest second = fake.received(ActivateSessionRequest.class).get(1);
        assertThat(AsymmetricCrypto.verify(SecurityPolicy.Aes128_Sha256_RsaOaep, client.certificate().getPublicKey(),
                second.clientSignature().signature().unsafeBytes(), server.der().unsafeBytes(), fromFirstActivation))
                .isTrue();
        assertLegacySecret(SecurityPolicy.Aes128_Sha256_RsaOaep, userNameToken(fake, 1), fromFirstActivation);
        assertThat(session.identity()).hasToString("user name 'operator'");
    }

    @Test
    void a_refused_activation_keeps_the_servers_status_names_the_user_and_closes_the_session() {
        FakeSessionServer fake = fake(SecurityPolicy.Basic256Sha256);
        fake.activationRefusal = request -> StatusCodes.BadUserAccessDenied;

        assertFailsWith(fake, ClientIdentity.userName("operator", PASSWORD), StatusCodes.BadUserAccessDenied,
                "ActivateSession of session ns=1;i=77 as user name 'operator' with token policy 'user' failed");
        assertThat(fake.received(CloseSessionRequest.class)).hasSize(1);
    }

    @Test
    void read_carries_the_authentication_token_and_close_deletes_subscriptions_once() throws Exception {
        FakeSessionServer fake = fake(SecurityPolicy.Basic256Sha256);
        ClientSession session = open(fake, ClientIdentity.anonymous());

        DataValue[] values = session.read(new ReadValueId(NodeId.ns0(NodeIds.Server_ServerStatus_State),
                AttributeIds.Value, null, QualifiedName.NULL)).get(5, TimeUnit.SECONDS);
        session.close().get(5, TimeUnit.SECONDS);
        session.close().get(5, TimeUnit.SECONDS);

        assertThat(values).hasSize(1);
        ReadRequest read = fake.received(ReadRequest.class).get(0);
        assertThat(read.requestHeader().authenticationToken()).isEqualTo(FakeSessionServer.AUTHENTICATION_TOKEN);
        assertThat(read.requestHeader().timeoutHint()).isEqualTo(5_000);
        List<CloseSessionRequest> closes = fake.received(CloseSessionRequest.class);
        assertThat(closes).hasSize(1);
        assertThat(closes.get(0).deleteSubscriptions()).isTrue();
        assertThat(closes.get(0).requestHeader().authenticationToken()).isEqualTo(FakeSessionServer.AUTHENTICATION_TOKEN);
        assertThat(session.isClosed()).isTrue();
        assertStatus(session.read(new ReadValueId(NodeId.ns0(NodeIds.Server_ServerStatus_State), AttributeIds.Value,
                null, QualifiedName.NULL)), StatusCodes.BadSessionClosed, "is closed");
        assertStatus(session.activate(ClientIdentity.anonymous()), StatusCodes.BadSessionClosed, "is closed");
    }

    @Test
    void identities_never_show_their_secrets() {
        assertThat(ClientIdentity.userName("operator", PASSWORD).toString()).doesNotContain(PASSWORD)
                .contains("operator");
        assertThat(ClientIdentity.x509(user).toString()).contains("CN=session-user").contains("thumbprint");
        assertThat(options(ClientIdentity.userName("operator", PASSWORD)).toString()).doesNotContain(PASSWORD);
    }

    @Test
    void options_need_an_application_uri_and_positive_timeouts() {
        assertThatThrownBy(() -> SessionOptions.builder().build()).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("applicationUri");
        assertThatThrownBy(() -> SessionOptions.builder().applicationUri("urn:x")
                .sessionTimeout(Duration.ZERO).build()).hasMessageContaining("sessionTimeout");
        SessionOptions defaults = SessionOptions.builder().applicationUri("urn:x").build();
        assertThat(defaults.applicationName()).isEqualTo("urn:x");
        assertThat(defaults.sessionName()).isEqualTo("urn:x");
        assertThat(defaults.identity().tokenType()).isEqualTo(UserTokenType.Anonymous);
    }

    // --- helpers

    private static FakeSessionServer fake(SecurityPolicy policy) {
        return new FakeSessionServer(server, FakeSessionServer.secured(policy));
    }

    private static ClientChannelSecurity channelSecurity(FakeSessionServer fake) {
        return new ClientChannelSecurity(fake.security, client, List.of(server.certificate()),
                CertificateValidator.acceptAll());
    }

    private static SessionOptions options(ClientIdentity identity) {
        return SessionOptions.builder().applicationUri(TestCertificates.applicationUri("session-client"))
                .applicationName("session tests").sessionTimeout(Duration.ofMinutes(1))
                .requestTimeout(Duration.ofSeconds(5)).identity(identity).build();
    }

    private static ClientSession open(FakeSessionServer fake, ClientIdentity identity) throws Exception {
        return open(fake, channelSecurity(fake), identity);
    }

    private static ClientSession open(FakeSessionServer fake, ClientChannelSecurity security, ClientIdentity identity)
            throws Exception {
        return ClientSession.open(fake, security, options(identity)).get(5, TimeUnit.SECONDS);
    }

    private static void assertFailsWith(FakeSessionServer fake, ClientIdentity identity, int status, String message) {
        assertStatus(ClientSession.open(fake, channelSecurity(fake), options(identity)), status, message);
    }

    private static void assertStatus(CompletableFuture<?> future, int status, String message) {
        assertThatThrownBy(() -> future.get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(UaException.class)
                .hasMessageContaining(message)
                .satisfies((Consumer<Throwable>) e -> assertThat(((UaException) e).statusCode().value())
                        .isEqualTo(status));
    }

    private static UserNameIdentityToken userNameToken(FakeSessionServer fake, int activation) {
        return (UserNameIdentityToken) fake.received(ActivateSessionRequest.class).get(activation)
                .userIdentityToken().decoded();
    }

    /** Decrypts with the server's key and checks Part 4, 7.41.2: UInt32 LE length, password, nonce. */
    private static void assertLegacySecret(SecurityPolicy policy, UserNameIdentityToken token, byte[] nonce) {
        byte[] encrypted = token.password().unsafeBytes();
        byte[] plain = AsymmetricCrypto.decrypt(policy, server.privateKey(), encrypted, 0, encrypted.length);
        byte[] password = PASSWORD.getBytes(StandardCharsets.UTF_8);
        ByteBuffer secret = ByteBuffer.wrap(plain).order(ByteOrder.LITTLE_ENDIAN);
        assertThat(secret.getInt()).isEqualTo(password.length + nonce.length);
        assertThat(plain).hasSize(4 + password.length + nonce.length);
        assertThat(Arrays.copyOfRange(plain, 4, 4 + password.length)).isEqualTo(password);
        assertThat(Arrays.copyOfRange(plain, 4 + password.length, plain.length)).isEqualTo(nonce);
    }

    private static CreateSessionResponse withSignature(CreateSessionResponse r, SignatureData signature) {
        return new CreateSessionResponse(r.responseHeader(), r.sessionId(), r.authenticationToken(),
                r.revisedSessionTimeout(), r.serverNonce(), r.serverCertificate(), r.serverEndpoints(), null, signature,
                0);
    }
}
