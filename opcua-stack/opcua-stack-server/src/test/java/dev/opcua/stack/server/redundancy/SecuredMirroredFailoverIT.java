package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.TrustList;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.session.X509IdentityValidator;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * HotAndMirrored takeover (Part 4, 6.6.2.4.5) over secured channels with user identities, on the in-memory store:
 * the client's session, created on A over SignAndEncrypt, is activated on B over a new channel to B. B checks what
 * Part 4, 5.6.3 asks of an ActivateSession on another SecureChannel: the channel's client certificate is the one the
 * session was created with, the clientSignature signs B's own certificate and the last serverNonce (the one A handed
 * out, from the stored state), and the user identity token is valid and names the session's user. Then B claims the
 * session and every value goes on. Refused: another application's certificate presenting the session's token, and a
 * password B does not accept; the session is not claimed, and B keeps nothing of it.
 */
class SecuredMirroredFailoverIT {

    private static final String USER = "operator";
    private static final String PASSWORD = "line1-operator";

    @TempDir
    Path pki;

    @ParameterizedTest
    @EnumSource(value = SecurityPolicy.class, names = {"Basic256Sha256", "Aes128_Sha256_RsaOaep"})
    void a_user_name_session_on_a_sign_and_encrypt_channel_goes_on_at_the_partner_with_every_value(
            SecurityPolicy policy) throws Exception {
        InMemorySessionStateStore store = new InMemorySessionStateStore();
        try (MirroredPair pair = new MirroredPair(store, new Secured(pki, policy))) {
            int fromQueue = pair.crashAndFailOver(200, 20);

            assertThat(fromQueue).as("values A had queued at the crash, delivered by B").isPositive();
            assertThat(pair.client.endpoint().securityPolicyUri()).isEqualTo(policy.uri());
            assertThat(pair.client.endpoint().securityMode()).isEqualTo(MessageSecurityMode.SignAndEncrypt);
            assertThat(store.owner(pair.client.session().sessionId())).isEqualTo("urn:test:mirrored:b");
            assertThat(identityOnB(pair)).isEqualTo(Identity.user(USER));
        }
    }

    @Test
    void an_x509_user_session_goes_on_at_the_partner_with_every_value() throws Exception {
        ApplicationCertificate user = CertificateBuilder.forApplication("line operator")
                .keyPair(CertificateBuilder.generateKeyPair(2048)).build();
        InMemorySessionStateStore store = new InMemorySessionStateStore();
        try (MirroredPair pair = new MirroredPair(store, new Secured(pki, SecurityPolicy.Basic256Sha256,
                ClientIdentity.x509(user), null, null, user))) {
            pair.crashAndFailOver(200, 20);

            assertThat(store.owner(pair.client.session().sessionId())).isEqualTo("urn:test:mirrored:b");
            assertThat(identityOnB(pair)).isEqualTo(Identity.certificate(user.certificate()));
        }
    }

    @Test
    void another_applications_certificate_presenting_the_sessions_token_is_refused_and_claims_nothing()
            throws Exception {
        InMemorySessionStateStore store = new InMemorySessionStateStore();
        try (MirroredPair pair = new MirroredPair(store, new Secured(pki, SecurityPolicy.Basic256Sha256));
                ClientResources resources = ClientResources.builder().ioThreads(1).build()) {
            NodeId sessionId = pair.client.session().sessionId();
            NodeId token = pair.client.session().authenticationToken();
            await().atMost(MirroredPair.WAIT).until(() -> "urn:test:mirrored:a".equals(store.owner(sessionId)));
            // an application with a certificate of its own, a session of its own on B, and the victim's token:
            // Part 4, 5.6.3, the certificate of the new SecureChannel must be the one of the original SecureChannel
            assertThat(activationFailure(resources, pair, "intruder", "urn:test:mirrored:intruder", "intruder",
                    token))
                    .isEqualTo(StatusCodes.BadSecureChannelIdInvalid);
            // the session's own application certificate, but no clientSignature over B's certificate and the
            // session's last serverNonce (only the session's client knows that nonce)
            assertThat(activationFailure(resources, pair, "client", "urn:test:mirrored:client",
                    "mirrored failover client", token))
                    .isEqualTo(StatusCodes.BadApplicationSignatureInvalid);
            assertThat(store.owner(sessionId)).as("the session stays A's").isEqualTo("urn:test:mirrored:a");
            assertThat(pair.b.sessionMirror().takenOverSessions()).isZero();
            assertThat(pair.b.statistics().sessions()).as("B keeps nothing of the refused session")
                    .noneMatch(s -> s.sessionId().equals(sessionId));
            // and the session's own client still takes it over
            int fromQueue = pair.crashAndFailOver(200, 20);
            assertThat(fromQueue).isPositive();
        }
    }

    @Test
    void a_password_the_partner_does_not_accept_is_refused_and_the_session_is_not_claimed() throws Exception {
        InMemorySessionStateStore store = new InMemorySessionStateStore();
        // the user's password on B, changed while the session runs on A (the client's monitor session on B, open
        // already, stays): the client's failover presents the old one to B
        AtomicReference<IdentityValidator> onB = new AtomicReference<>(users(PASSWORD));
        Secured secured = new Secured(pki, SecurityPolicy.Basic256Sha256, ClientIdentity.userName(USER, PASSWORD),
                users(PASSWORD), (token, policy) -> onB.get().validate(token, policy), null);
        try (MirroredPair pair = new MirroredPair(store, secured)) {
            NodeId sessionId = pair.client.session().sessionId();
            await().atMost(MirroredPair.WAIT).until(() -> "urn:test:mirrored:a".equals(store.owner(sessionId)));
            await().atMost(MirroredPair.WAIT).alias("the client sees B healthy").until(() -> pair.client.redundancy()
                    .servers().stream().anyMatch(s -> s.endpointUrl().contains(":" + pair.b.port() + "/") && s.reachable()
                            && s.serviceLevel() > 1));
            onB.set(users("changed-on-b"));

            pair.a.halt();

            // Part 4, 5.6.3: a user identity token the server does not accept is BadUserAccessDenied (it does not
            // tell whether the user name or the password was wrong)
            await().atMost(MirroredPair.WAIT).alias("B refused the client's activation")
                    .until(() -> failedWith(pair.client.lastError(), StatusCodes.BadUserAccessDenied));
            assertThat(store.owner(sessionId)).as("not claimed by B").isEqualTo("urn:test:mirrored:a");
            assertThat(pair.b.sessionMirror().takenOverSessions()).isZero();
            // the client tries again and again: each refused attempt leaves nothing behind on B
            await().atMost(MirroredPair.WAIT).alias("B keeps nothing of the refused session")
                    .until(() -> pair.b.statistics().sessions().stream().noneMatch(s -> s.sessionId().equals(sessionId)));
            assertThat(pair.failovers).noneMatch(e -> e.path()
                    == dev.opcua.stack.client.redundancy.FailoverPath.SESSION_REACTIVATED);
        }
    }

    /** The test's user with {@code password}. */
    private static IdentityValidator users(String password) {
        return UserNameIdentityValidator.of(Map.of(USER, password), false);
    }

    /** Whether {@code failure} or one of its causes is a UaException with {@code status}. */
    private static boolean failedWith(Throwable failure, int status) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof UaException ua && ua.statusCode().isSameCode(status)) {
                return true;
            }
        }
        return false;
    }

    /** The identity of the client's session on B. */
    private static Identity identityOnB(MirroredPair pair) {
        NodeId id = pair.client.session().sessionId();
        return pair.b.statistics().sessions().stream().filter(s -> s.sessionId().equals(id)).findFirst()
                .orElseThrow().identity();
    }

    /**
     * ActivateSession with {@code token}, sent by a client of {@code applicationUri} and {@code applicationName}
     * with the certificate in {@code pkiName} on a SignAndEncrypt channel and session of its own on B, with its own (wrong) clientSignature;
     * the status B refused it with.
     */
    private int activationFailure(ClientResources resources, MirroredPair pair, String pkiName,
            String applicationUri, String applicationName, NodeId token) throws Exception {
        try (OpcUaClient other = OpcUaClient.create(OpcUaClientConfig.builder(pair.b.endpointUrl())
                .applicationUri(applicationUri).applicationName(applicationName).resources(resources)
                .pkiDir(pki.resolve(pkiName)).acceptAnyServerCertificate(true)
                .security(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt)
                .identity(ClientIdentity.userName(USER, PASSWORD)).build())) {
            other.connect().get(10, TimeUnit.SECONDS);
            ActivateSessionResponse response = other.request(header -> new ActivateSessionRequest(
                    new RequestHeader(token, header.timestamp(), header.requestHandle(), header.returnDiagnostics(),
                            header.auditEntryId(), header.timeoutHint(), header.additionalHeader()),
                    new SignatureData(null, null), null, null,
                    ExtensionObject.of(new AnonymousIdentityToken("anonymous")), new SignatureData(null, null)),
                    ActivateSessionResponse.class).get(10, TimeUnit.SECONDS);
            throw new AssertionError("the partner activated the session for " + applicationUri + ": " + response);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(UaException.class);
            return ((UaException) e.getCause()).statusCode().value() & 0xFFFF0000;
        }
    }

    /**
     * Both servers SignAndEncrypt with {@code policy} only, each with its own certificate and a user name (or an
     * X.509 user) validator; every client certificate accepted (the test's client makes a new one); the client
     * with {@code identity}, trusting both servers.
     */
    private record Secured(Path pki, SecurityPolicy policy, ClientIdentity identity, IdentityValidator usersOnA,
            IdentityValidator usersOnB, ApplicationCertificate x509User) implements MirroredPair.Setup {

        /** The user name with its password on both servers. */
        Secured(Path pki, SecurityPolicy policy) {
            this(pki, policy, ClientIdentity.userName(USER, PASSWORD), users(PASSWORD), users(PASSWORD), null);
        }

        @Override
        public OpcUaServer.Builder server(String uri, OpcUaServer.Builder builder) {
            IdentityValidator users = uri.endsWith(":a") ? usersOnA : usersOnB;
            builder.security(List.of(new EndpointSecurity(policy, MessageSecurityMode.SignAndEncrypt)))
                    .pki(new PkiDirectory(pki.resolve(uri.substring(uri.lastIndexOf(':') + 1))))
                    .certificateValidation(ValidationOptions.builder().autoAcceptUntrusted(true).build());
            if (x509User != null) {
                return builder.identityTypes(X509IdentityValidator.anyTrusted(), EnumSet.of(UserTokenType.Certificate))
                        .userCertificateValidator(new PkiCertificateValidator(
                                TrustList.trusting(x509User.certificate()), ValidationOptions.defaults()));
            }
            return builder.identityTypes(users, EnumSet.of(UserTokenType.UserName));
        }

        @Override
        public OpcUaClientConfig.Builder client(OpcUaClientConfig.Builder builder) {
            return builder.pkiDir(pki.resolve("client")).acceptAnyServerCertificate(true)
                    .security(policy, MessageSecurityMode.SignAndEncrypt)
                    .identity(identity)
                    .requestTimeout(Duration.ofSeconds(5));
        }
    }
}
