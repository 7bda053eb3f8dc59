package dev.opcua.stack.server.session;

import static dev.opcua.stack.server.session.SecureSessionFixture.DISCOVERY;
import static dev.opcua.stack.server.session.SecureSessionFixture.SIGN_AND_ENCRYPT;
import static dev.opcua.stack.server.session.SecureSessionFixture.activateRequest;
import static dev.opcua.stack.server.session.SecureSessionFixture.assertStatus;
import static dev.opcua.stack.server.session.SecureSessionFixture.create;
import static dev.opcua.stack.server.session.SecureSessionFixture.header;
import static dev.opcua.stack.server.session.SecureSessionFixture.nonce;
import static dev.opcua.stack.server.session.TestClientCrypto.encrypt;
import static dev.opcua.stack.server.session.TestClientCrypto.encryptedPassword;
import static dev.opcua.stack.server.session.TestClientCrypto.legacySecret;
import static dev.opcua.stack.server.session.TestClientCrypto.sign;
import static dev.opcua.stack.server.session.TestKeys.CLIENT;
import static dev.opcua.stack.server.session.TestKeys.CLIENT_KEYS;
import static dev.opcua.stack.server.session.TestKeys.CLIENT_URI;
import static dev.opcua.stack.server.session.TestKeys.OTHER_CLIENT_KEYS;
import static dev.opcua.stack.server.session.TestKeys.SERVER;
import static dev.opcua.stack.server.session.TestKeys.USER;
import static dev.opcua.stack.server.session.TestKeys.USER_KEYS;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.X509IdentityToken;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * ActivateSession on a secure channel (Part 4, 5.6.3): the client application's signature, encrypted
 * passwords (Part 4, 7.41.2.2 and 7.41.4) and X.509 user tokens (Part 4, 7.41.5).
 */
class SecureActivateSessionTest {

    private static final String USERNAME = "username_basic256sha256";
    private static final String X509 = "x509_basic256sha256";
    private static final SecurityPolicy POLICY = SecurityPolicy.Basic256Sha256;

    /** Trusts the user certificate only, the way a PKI directory of users would. */
    private static final CertificateValidator USERS = chain -> {
        if (!chain.get(0).equals(USER)) {
            throw new UaException(StatusCodes.BadCertificateUntrusted, "not in the user trust list");
        }
    };

    private final AtomicReference<UserIdentityToken> seen = new AtomicReference<>();
    private final AtomicReference<byte[]> seenPassword = new AtomicReference<>();
    private final IdentityValidator users = IdentityValidator.anyOf((token, policy) -> {
        seen.set(token);
        if (token instanceof UserNameIdentityToken userName) {
            seenPassword.set(userName.password().unsafeBytes());
        }
        throw new UaException(StatusCodes.BadIdentityTokenRejected, "only recording");
    }, UserNameIdentityValidator.of(Map.of("alice", "secret"), true), X509IdentityValidator.anyTrusted());

    private SessionManager manager = manager(SERVER);
    private final TestChannel channel = new TestChannel(7, SIGN_AND_ENCRYPT, CLIENT);

    @AfterEach
    void close() {
        manager.close();
    }

    private SessionManager manager(ApplicationCertificate server) {
        return SessionManager.builder()
                .identityValidator(users)
                .userCertificateValidator(USERS)
                .discoveryEndpoints(() -> DISCOVERY)
                .applicationCertificate(server)
                .build();
    }

    private CreateSessionResponse created(TestChannel on) {
        return manager.createSession(on, create(CLIENT, CLIENT_URI, nonce(32)));
    }

    private static SignatureData clientSignature(SecurityPolicy policy, ByteString serverNonce) {
        return sign(policy, CLIENT_KEYS.getPrivate(), SERVER.der(), serverNonce);
    }

    private ActivateSessionResponse activate(TestChannel on, CreateSessionResponse session, ByteString serverNonce,
            UserIdentityToken identity, SignatureData userTokenSignature) {
        return manager.activateSession(on, activateRequest(session.authenticationToken(),
                clientSignature(on.security().policy(), serverNonce), identity, userTokenSignature));
    }

    private static UserNameIdentityToken password(String policyId, SecurityPolicy policy, String password,
            ByteString serverNonce) {
        return new UserNameIdentityToken(policyId, "alice", encryptedPassword(policy, SERVER.certificate(), password,
                serverNonce), policy.asymmetricEncryptionUri());
    }

    private static X509IdentityToken x509(X509Certificate user) {
        return new X509IdentityToken(X509, ByteString.wrap(Certificates.encode(user)));
    }

    private static SignatureData userSignature(PrivateKey key, ByteString serverNonce) {
        return sign(POLICY, key, SERVER.der(), serverNonce);
    }

    private Session session(CreateSessionResponse created, TestChannel on) {
        return manager.resolve(on, header(created.authenticationToken()));
    }

    // --- the client application's signature

    @Test
    void a_client_signature_over_the_server_certificate_and_nonce_activates() {
        CreateSessionResponse created = created(channel);

        ActivateSessionResponse response = activate(channel, created, created.serverNonce(), null, null);

        assertThat(response.serverNonce().length()).isEqualTo(32);
        assertThat(response.serverNonce()).isNotEqualTo(created.serverNonce());
        assertThat(session(created, channel).identity()).isEqualTo(Identity.ANONYMOUS);
    }

    @Test
    void each_activation_must_sign_the_last_server_nonce() {
        CreateSessionResponse created = created(channel);
        ActivateSessionResponse first = activate(channel, created, created.serverNonce(), null, null);

        assertStatus(() -> activate(channel, created, created.serverNonce(), null, null),
                StatusCodes.BadApplicationSignatureInvalid);
        ActivateSessionResponse second = activate(channel, created, first.serverNonce(), null, null);

        assertThat(second.serverNonce()).isNotEqualTo(first.serverNonce());
    }

    @Test
    void a_missing_client_signature_is_bad_application_signature_invalid_and_does_not_activate() {
        CreateSessionResponse created = created(channel);
        NodeId token = created.authenticationToken();

        assertStatus(() -> manager.activateSession(channel, activateRequest(token, null, null, null)),
                StatusCodes.BadApplicationSignatureInvalid);
        assertStatus(() -> manager.activateSession(channel, activateRequest(token,
                new SignatureData(POLICY.asymmetricSignatureUri(), ByteString.NULL), null, null)),
                StatusCodes.BadApplicationSignatureInvalid);
        assertStatus(() -> manager.resolve(channel, header(token)), StatusCodes.BadSessionNotActivated);
    }

    @Test
    void a_signature_with_another_key_or_algorithm_is_bad_application_signature_invalid() {
        CreateSessionResponse created = created(channel);
        NodeId token = created.authenticationToken();
        SignatureData otherKey = sign(POLICY, OTHER_CLIENT_KEYS.getPrivate(), SERVER.der(), created.serverNonce());
        SignatureData otherAlgorithm = sign(SecurityPolicy.Aes256_Sha256_RsaPss, CLIENT_KEYS.getPrivate(), SERVER.der(),
                created.serverNonce());

        assertStatus(() -> manager.activateSession(channel, activateRequest(token, otherKey, null, null)),
                StatusCodes.BadApplicationSignatureInvalid);
        assertStatus(() -> manager.activateSession(channel, activateRequest(token, otherAlgorithm, null, null)),
                StatusCodes.BadApplicationSignatureInvalid);
        assertThat(manager.counters().failedAuthentications()).isZero();
    }

    @Test
    void a_signature_over_the_server_certificate_chain_is_accepted_for_older_clients() {
        manager.close();
        X509Certificate issued = TestX509.issued(TestKeys.SERVER_KEYS.getPublic(), "Issued Server",
                TestKeys.SERVER_URI, TestKeys.CA, TestKeys.CA_KEYS.getPrivate());
        ApplicationCertificate server = new ApplicationCertificate(issued, List.of(TestKeys.CA),
                TestKeys.SERVER_KEYS.getPrivate());
        manager = manager(server);
        CreateSessionResponse created = created(channel);
        NodeId token = created.authenticationToken();
        SignatureData overChain = sign(POLICY, CLIENT_KEYS.getPrivate(), server.chainDer(), created.serverNonce());

        manager.activateSession(channel, activateRequest(token, overChain, null, null));

        assertThat(created.serverCertificate()).isEqualTo(server.der());
    }

    // --- passwords

    @ParameterizedTest
    @EnumSource(value = SecurityPolicy.class, names = {"Basic256Sha256", "Aes128_Sha256_RsaOaep", "Aes256_Sha256_RsaPss"})
    void an_encrypted_password_is_decrypted_and_handed_over_in_plain_text(SecurityPolicy policy) {
        TestChannel secure = new TestChannel(9, new EndpointSecurity(policy, MessageSecurityMode.SignAndEncrypt), CLIENT);
        CreateSessionResponse created = created(secure);
        String policyId = DiscoveryServices.userTokenPolicy(UserTokenType.UserName, policy).policyId();

        activate(secure, created, created.serverNonce(), password(policyId, policy, "secret", created.serverNonce()),
                null);

        assertThat(session(created, secure).identity()).isEqualTo(Identity.user("alice"));
        assertThat(seen.get()).isInstanceOfSatisfying(UserNameIdentityToken.class,
                t -> assertThat(t.encryptionAlgorithm()).isNull());
        assertThat(seenPassword.get()).as("zeroed after use").containsOnly(0).hasSize("secret".length());
    }

    @Test
    void a_password_with_zero_padding_is_accepted() {
        CreateSessionResponse created = created(channel);
        ByteString encrypted = encrypt(POLICY, SERVER.certificate().getPublicKey(),
                legacySecret("secret", created.serverNonce(), new byte[7]));

        activate(channel, created, created.serverNonce(),
                new UserNameIdentityToken(USERNAME, "alice", encrypted, POLICY.asymmetricEncryptionUri()), null);

        assertThat(session(created, channel).identity()).isEqualTo(Identity.user("alice"));
    }

    @Test
    void a_wrong_password_is_bad_user_access_denied() {
        CreateSessionResponse created = created(channel);

        assertStatus(() -> activate(channel, created, created.serverNonce(),
                password(USERNAME, POLICY, "wrong", created.serverNonce()), null), StatusCodes.BadUserAccessDenied);
        assertThat(manager.counters().failedAuthentications()).isEqualTo(1);
    }

    @Test
    void a_password_encrypted_with_another_nonce_is_bad_identity_token_invalid() {
        CreateSessionResponse created = created(channel);

        assertStatus(() -> activate(channel, created, created.serverNonce(),
                password(USERNAME, POLICY, "secret", nonce(32)), null), StatusCodes.BadIdentityTokenInvalid);
        assertThat(manager.counters().failedAuthentications()).as("a replay counts").isEqualTo(1);
    }

    @Test
    void a_password_of_an_earlier_nonce_is_bad_identity_token_invalid() {
        CreateSessionResponse created = created(channel);
        ActivateSessionResponse first = activate(channel, created, created.serverNonce(),
                password(USERNAME, POLICY, "secret", created.serverNonce()), null);

        assertStatus(() -> activate(channel, created, first.serverNonce(),
                password(USERNAME, POLICY, "secret", created.serverNonce()), null), StatusCodes.BadIdentityTokenInvalid);
    }

    @Test
    void an_encryption_algorithm_other_than_the_policys_is_bad_identity_token_invalid() {
        CreateSessionResponse created = created(channel);
        ByteString encrypted = encryptedPassword(POLICY, SERVER.certificate(), "secret", created.serverNonce());

        assertStatus(() -> activate(channel, created, created.serverNonce(), new UserNameIdentityToken(USERNAME,
                "alice", encrypted, SecurityPolicy.Aes256_Sha256_RsaPss.asymmetricEncryptionUri()), null),
                StatusCodes.BadIdentityTokenInvalid);
        assertThat(manager.counters().failedAuthentications()).isZero();
    }

    @Test
    void garbled_or_truncated_ciphertext_is_bad_identity_token_invalid() {
        CreateSessionResponse created = created(channel);
        ByteString encrypted = encryptedPassword(POLICY, SERVER.certificate(), "secret", created.serverNonce());
        byte[] garbled = encrypted.bytes();
        garbled[10] ^= 0x55;
        byte[] truncated = java.util.Arrays.copyOf(encrypted.unsafeBytes(), 100);

        for (byte[] bytes : List.of(garbled, truncated, new byte[0])) {
            assertStatus(() -> activate(channel, created, created.serverNonce(), new UserNameIdentityToken(USERNAME,
                    "alice", ByteString.of(bytes), POLICY.asymmetricEncryptionUri()), null),
                    StatusCodes.BadIdentityTokenInvalid);
        }
    }

    @Test
    void a_secret_with_non_zero_padding_or_a_bad_length_is_bad_identity_token_invalid() {
        CreateSessionResponse created = created(channel);
        byte[] badPadding = legacySecret("secret", created.serverNonce(), new byte[] {0, 1});
        byte[] badLength = legacySecret("secret", created.serverNonce(), new byte[0]);
        badLength[0] += 1;

        for (byte[] plain : List.of(badPadding, badLength)) {
            ByteString encrypted = encrypt(POLICY, SERVER.certificate().getPublicKey(), plain);
            assertStatus(() -> activate(channel, created, created.serverNonce(), new UserNameIdentityToken(USERNAME,
                    "alice", encrypted, POLICY.asymmetricEncryptionUri()), null), StatusCodes.BadIdentityTokenInvalid);
        }
    }

    @Test
    void a_plain_password_where_the_policy_encrypts_is_bad_identity_token_invalid() {
        CreateSessionResponse created = created(channel);

        assertStatus(() -> activate(channel, created, created.serverNonce(), new UserNameIdentityToken(USERNAME, "alice",
                ByteString.of("secret".getBytes(StandardCharsets.UTF_8)), null), null),
                StatusCodes.BadIdentityTokenInvalid);
    }

    @Test
    void on_a_none_channel_the_password_is_encrypted_with_the_strongest_offered_policy() {
        TestChannel none = new TestChannel(11);
        CreateSessionResponse created = manager.createSession(none, SessionManagerTest.create(60_000));
        SecurityPolicy strongest = SecurityPolicy.Aes256_Sha256_RsaPss;
        UserNameIdentityToken token = password("username_aes256_sha256_rsapss", strongest, "secret",
                created.serverNonce());

        manager.activateSession(none, activateRequest(created.authenticationToken(), null, token, null));

        assertThat(manager.resolve(none, header(created.authenticationToken())).identity())
                .isEqualTo(Identity.user("alice"));
    }

    @Test
    void a_plain_text_policy_on_a_sign_only_channel_is_bad_identity_token_invalid() {
        manager.close();
        EndpointSecurity sign = new EndpointSecurity(POLICY, MessageSecurityMode.Sign);
        DiscoveryServices plainOnSign = DiscoveryServices.builder()
                .application(TestKeys.SERVER_URI, null, "test")
                .endpointUrls(List.of(SecureSessionFixture.URL))
                .security(List.of(sign), SERVER)
                .userTokenPolicies(List.of(DiscoveryServices.userTokenPolicy(UserTokenType.UserName, SecurityPolicy.None)))
                .build();
        manager = SessionManager.builder().identityValidator(users).discoveryEndpoints(() -> plainOnSign)
                .applicationCertificate(SERVER).build();
        TestChannel signOnly = new TestChannel(9, sign, CLIENT);
        CreateSessionResponse created = created(signOnly);

        assertStatus(() -> activate(signOnly, created, created.serverNonce(), new UserNameIdentityToken("username_none",
                "alice", ByteString.of("secret".getBytes(StandardCharsets.UTF_8)), null), null),
                StatusCodes.BadIdentityTokenInvalid);
    }

    // --- X.509 users

    @Test
    void a_trusted_user_certificate_with_its_signature_activates_as_that_user() {
        CreateSessionResponse created = created(channel);

        activate(channel, created, created.serverNonce(), x509(USER),
                userSignature(USER_KEYS.getPrivate(), created.serverNonce()));

        Identity identity = session(created, channel).identity();
        assertThat(identity).isEqualTo(Identity.certificate(USER));
        assertThat(identity.tokenType()).isEqualTo(UserTokenType.Certificate);
        assertThat(identity.userName()).isEqualTo("CN=alice");
        assertThat(identity.certificateThumbprint()).isEqualTo(Certificates.hex(Certificates.thumbprint(USER)));
    }

    @Test
    void an_untrusted_user_certificate_is_bad_identity_token_rejected() {
        CreateSessionResponse created = created(channel);
        X509Certificate stranger = TestX509.selfSigned(OTHER_CLIENT_KEYS, "mallory", null);

        assertStatus(() -> activate(channel, created, created.serverNonce(), x509(stranger),
                userSignature(OTHER_CLIENT_KEYS.getPrivate(), created.serverNonce())), StatusCodes.BadIdentityTokenRejected);
        assertThat(manager.counters().failedAuthentications()).isEqualTo(1);
    }

    @Test
    void without_a_user_certificate_validator_every_user_certificate_is_rejected() {
        manager.close();
        manager = SessionManager.builder().identityValidator(users).discoveryEndpoints(() -> DISCOVERY)
                .applicationCertificate(SERVER).build();
        CreateSessionResponse created = created(channel);

        assertStatus(() -> activate(channel, created, created.serverNonce(), x509(USER),
                userSignature(USER_KEYS.getPrivate(), created.serverNonce())), StatusCodes.BadIdentityTokenRejected);
    }

    @Test
    void a_wrong_or_missing_user_signature_is_bad_user_signature_invalid() {
        CreateSessionResponse created = created(channel);

        assertStatus(() -> activate(channel, created, created.serverNonce(), x509(USER),
                userSignature(CLIENT_KEYS.getPrivate(), created.serverNonce())), StatusCodes.BadUserSignatureInvalid);
        assertStatus(() -> activate(channel, created, created.serverNonce(), x509(USER),
                userSignature(USER_KEYS.getPrivate(), nonce(32))), StatusCodes.BadUserSignatureInvalid);
        assertStatus(() -> activate(channel, created, created.serverNonce(), x509(USER), null),
                StatusCodes.BadUserSignatureInvalid);
        assertThat(manager.counters().failedAuthentications()).isEqualTo(3);
    }

    @Test
    void unparseable_certificate_data_is_bad_identity_token_invalid() {
        CreateSessionResponse created = created(channel);
        X509IdentityToken garbage = new X509IdentityToken(X509, ByteString.of(new byte[] {0x30, 3, 1, 2, 3}));

        assertStatus(() -> activate(channel, created, created.serverNonce(), garbage,
                userSignature(USER_KEYS.getPrivate(), created.serverNonce())), StatusCodes.BadIdentityTokenInvalid);
    }

    // --- moving to another channel

    @Test
    void a_session_moves_only_to_a_channel_of_the_same_client_certificate() {
        CreateSessionResponse created = created(channel);
        ActivateSessionResponse first = activate(channel, created, created.serverNonce(), new AnonymousIdentityToken(
                "anonymous"), null);
        TestChannel otherClient = new TestChannel(8, SIGN_AND_ENCRYPT, TestKeys.OTHER_CLIENT);
        TestChannel none = new TestChannel(10);
        TestChannel sameClient = new TestChannel(9, SIGN_AND_ENCRYPT, CLIENT);

        assertStatus(() -> activate(otherClient, created, first.serverNonce(), null, null),
                StatusCodes.BadSecureChannelIdInvalid);
        assertStatus(() -> manager.activateSession(none, activateRequest(created.authenticationToken(), null, null, null)),
                StatusCodes.BadSecureChannelIdInvalid);
        activate(sameClient, created, first.serverNonce(), null, null);

        assertThat(session(created, sameClient).secureChannelId()).isEqualTo(9);
    }
}
