package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.TrustList;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.testing.MiloClients;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.session.X509IdentityValidator;
import dev.opcua.stack.server.testing.LeakWatch;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.eclipse.milo.opcua.sdk.client.DiscoveryClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClientConfig;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.SignedIdentityToken;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.sdk.client.identity.X509IdentityProvider;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.ServerState;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.UserNameIdentityToken;
import org.eclipse.milo.opcua.stack.core.types.structured.UserTokenPolicy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Eclipse Milo 1.1.2's SDK client against our {@link OpcUaServer} with every security policy and mode
 * ({@link EndpointSecurity#every()} but the ECC ones, which Milo 1.1.2 does not implement) and a PKI directory (Part 12, F.1 layout): the server creates its
 * certificate in own/, and Milo's certificate, untrusted at first, is refused and copied to rejected/
 * (Part 4, 6.1.3) until the test moves it to trusted/certs, which the running server picks up. Then
 * anonymous sessions read and write on every endpoint (Part 4, 5.6), passwords encrypted per the token
 * policy (Part 4, 7.41.4) and X.509 users (Part 4, 7.41.5) log in, wrong passwords are refused and lock
 * the client certificate out for a while, and GetEndpoints (Part 4, 5.4.4) lists every endpoint with our
 * certificate and a security level that ranks it (Part 4, 7.14).
 *
 * <p>Milo checks our certificate with its own validator (a trust list holding our certificate, every
 * optional check on: host name, validity, key usages, application URI, revocation). Milo's client signs
 * RSA-PSS through BouncyCastle, so the BC provider is registered for the lifetime of the class.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class MiloSecureClientOnOpcUaServerIT {

    /** Every pair Milo 1.1.2 can open: no ECC policy. */
    private static final List<EndpointSecurity> MILO_POLICIES =
            EndpointSecurity.every().stream().filter(e -> !e.policy().isEcc()).toList();

    private static final String SERVER_URI = "urn:test:milo-secure:server";
    private static final String NS = "urn:test:milo-secure:line1";
    private static final String CLIENT_URI = "urn:test:milo-secure:client";
    private static final String LOCKOUT_CLIENT_URI = "urn:test:milo-secure:lockout-client";
    private static final String USER = "operator";
    private static final String PASSWORD = "secret";
    private static final int MAX_FAILED_ATTEMPTS = 3;
    private static final Duration LOCKOUT = Duration.ofSeconds(1);
    /** Short, so that a certificate moved to trusted/certs counts within a test. */
    private static final Duration PKI_RELOAD = Duration.ofMillis(200);
    /** The non-None policies, weakest first: the order their endpoints' security levels must follow. */
    private static final List<String> POLICIES_BY_STRENGTH = List.of(SecurityPolicy.Basic128Rsa15.getUri(),
            SecurityPolicy.Basic256.getUri(), SecurityPolicy.Basic256Sha256.getUri(),
            SecurityPolicy.Aes128_Sha256_RsaOaep.getUri(), SecurityPolicy.Aes256_Sha256_RsaPss.getUri());

    @TempDir
    static Path pkiRoot;

    private static boolean addedBouncyCastle;
    private static ApplicationCertificate miloCertificate;
    private static ApplicationCertificate lockoutClientCertificate;
    private static ApplicationCertificate userCertificate;
    private static PkiDirectory pki;
    private static InMemoryNodeManager line;
    private static OpcUaServer server;
    private static X509Certificate serverCertificate;
    private static List<EndpointDescription> endpoints;
    private static NodeId speed;
    private static boolean miloTrusted;

    @BeforeAll
    static void startServer() throws Exception {
        LeakWatch.install();
        addedBouncyCastle = Security.addProvider(new BouncyCastleProvider()) != -1;
        // three 2048-bit keys for the class; the server's own key is made by the PKI directory
        List<KeyPair> keys = IntStream.range(0, 3).parallel()
                .mapToObj(i -> CertificateBuilder.generateKeyPair(2048)).toList();
        miloCertificate = CertificateBuilder.forApplication("milo secure client").applicationUri(CLIENT_URI)
                .hostNames("localhost").keyPair(keys.get(0)).build();
        lockoutClientCertificate = CertificateBuilder.forApplication("milo lockout client")
                .applicationUri(LOCKOUT_CLIENT_URI).hostNames("localhost").keyPair(keys.get(1)).build();
        userCertificate = CertificateBuilder.forApplication("line operator").keyPair(keys.get(2)).build();

        pki = new PkiDirectory(pkiRoot, PKI_RELOAD, PkiDirectory.DEFAULT_MAX_REJECTED);
        // the lock-out test's client is trusted from the start; Milo's main certificate is not
        Files.write(pki.trustedCertsDir().resolve("milo-lockout-client.der"),
                lockoutClientCertificate.certificate().getEncoded());
        pki.reload();
        line = InMemoryNodeManager.builder(NS)
                .folder("Line1")
                .variable("Line1.Speed", BuiltinType.Double,
                        v -> v.value(dev.opcua.stack.core.types.builtin.Variant.ofDouble(1.5)).writable())
                .variable("Line1.Mode", BuiltinType.String,
                        v -> v.value(dev.opcua.stack.core.types.builtin.Variant.ofString("auto")))
                .build();
        server = OpcUaServer.builder()
                .applicationUri(SERVER_URI)
                .applicationName("milo secure interop server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .security(MILO_POLICIES)
                .pki(pki)
                .identityTypes(IdentityValidator.anyOf(UserNameIdentityValidator.of(Map.of(USER, PASSWORD), true),
                        X509IdentityValidator.anyTrusted()),
                        EnumSet.of(UserTokenType.Anonymous, UserTokenType.UserName, UserTokenType.Certificate))
                .userCertificateValidator(new PkiCertificateValidator(TrustList.trusting(userCertificate.certificate()),
                        ValidationOptions.defaults()))
                .sessionSettings(new SessionSettings(100, Duration.ofSeconds(10), Duration.ofHours(1),
                        MAX_FAILED_ATTEMPTS, LOCKOUT))
                .nodeManager(line)
                .build()
                .start();
        serverCertificate = ownCertificate();
        speed = new NodeId(line.namespaceIndex(), "Line1.Speed");
        endpoints = DiscoveryClient.getEndpoints(server.endpointUrl()).get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (addedBouncyCastle) {
                Security.removeProvider(BouncyCastleProvider.PROVIDER_NAME);
            }
        }
        LeakWatch.assertNoLeaks();
    }

    // ---- trust through the PKI directory

    @Test
    @Order(1)
    void an_untrusted_milo_certificate_is_refused_copied_to_rejected_and_trusted_once_moved_to_trusted_certs() throws Exception {
        rejectThenTrustMiloCertificate();
    }

    /**
     * The first connection fails with BadCertificateUntrusted and leaves Milo's certificate in rejected/;
     * moved to trusted/certs, it is accepted by the running server.
     */
    private static synchronized void rejectThenTrustMiloCertificate() throws Exception {
        assertThat(files(pki.rejectedDir())).isEmpty();

        assertRefused(() -> connect(miloCertificate, CLIENT_URI, basic256Sha256SignAndEncrypt(),
                new AnonymousProvider()), StatusCodes.Bad_CertificateUntrusted);

        List<Path> rejected = files(pki.rejectedDir());
        assertThat(rejected).hasSize(1);
        assertThat(Files.readAllBytes(rejected.get(0))).isEqualTo(miloCertificate.certificate().getEncoded());
        Path trusted = pki.trustedCertsDir().resolve(rejected.get(0).getFileName());
        Files.move(rejected.get(0), trusted);
        // the server's PKI directory looks again once its reload interval has passed
        await("Milo's certificate trusted").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                .until(() -> pki.trustList().isTrusted(miloCertificate.certificate()));

        OpcUaClient milo = connect(miloCertificate, CLIENT_URI, basic256Sha256SignAndEncrypt(),
                new AnonymousProvider());
        try {
            assertServerIsRunning(milo);
        } finally {
            milo.disconnect();
        }
        assertThat(files(pki.rejectedDir())).isEmpty();
        miloTrusted = true;
    }

    /** Makes the tests independent of their order: a test run alone trusts Milo's certificate first. */
    private static synchronized void trustMiloCertificate() throws Exception {
        if (!miloTrusted) {
            rejectThenTrustMiloCertificate();
        }
    }

    // ---- anonymous sessions on every endpoint

    static Stream<Arguments> everyPolicyAndMode() {
        return MILO_POLICIES.stream().map(Arguments::of);
    }

    @Order(2)
    @ParameterizedTest(name = "{0}")
    @MethodSource("everyPolicyAndMode")
    void an_anonymous_milo_session_reads_and_writes_on_every_endpoint(EndpointSecurity security) throws Exception {
        trustMiloCertificate();
        OpcUaClient milo = connect(miloCertificate, CLIENT_URI, endpoint(security), new AnonymousProvider());
        try {
            assertThat(activatedIdentities()).contains(Identity.ANONYMOUS);
            assertServerIsRunning(milo);
            double value = 100 + MILO_POLICIES.indexOf(security);
            StatusCode written = milo.writeValues(List.of(speed), List.of(new DataValue(new Variant(value)))).get(0);
            assertThat(written.isGood()).as("write status %s", written).isTrue();
            assertThat(milo.readValue(0, TimestampsToReturn.Both, speed).getValue().getValue()).isEqualTo(value);
        } finally {
            milo.disconnect();
        }
    }

    // ---- users

    static Stream<Arguments> userSecurity() {
        return Stream.of(Arguments.of(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt),
                Arguments.of(SecurityPolicy.Aes256_Sha256_RsaPss, MessageSecurityMode.Sign));
    }

    @Order(3)
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("userSecurity")
    void a_user_name_logs_in_with_the_password_encrypted_as_its_token_policy_says(SecurityPolicy policy, MessageSecurityMode mode)
            throws Exception {
        trustMiloCertificate();
        AtomicReference<SignedIdentityToken> sent = new AtomicReference<>();
        EndpointDescription endpoint = endpoint(policy, mode);
        OpcUaClient milo = connect(miloCertificate, CLIENT_URI, endpoint,
                recording(new UsernameProvider(USER, PASSWORD), sent));
        try {
            assertThat(activatedIdentities()).contains(Identity.user(USER));
            assertThat(milo.readValue(0, TimestampsToReturn.Both, speed).getStatusCode().isGood()).isTrue();
        } finally {
            milo.disconnect();
        }
        UserTokenPolicy tokenPolicy = tokenPolicy(endpoint, "username_");
        assertThat(tokenPolicy.getSecurityPolicyUri()).isEqualTo(policy.getUri());
        UserNameIdentityToken token = (UserNameIdentityToken) sent.get().getToken();
        assertThat(token.getPolicyId()).isEqualTo(tokenPolicy.getPolicyId());
        assertThat(token.getEncryptionAlgorithm()).isEqualTo(policy.getAsymmetricEncryptionAlgorithm().getUri());
        assertThat(new String(token.getPassword().bytesOrEmpty(), StandardCharsets.ISO_8859_1))
                .as("the password leaves Milo encrypted").doesNotContain(PASSWORD);
    }

    @Order(3)
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("userSecurity")
    void an_X509_user_logs_in_with_its_signature(SecurityPolicy policy, MessageSecurityMode mode) throws Exception {
        trustMiloCertificate();
        OpcUaClient milo = connect(miloCertificate, CLIENT_URI, endpoint(policy, mode),
                new X509IdentityProvider(userCertificate.certificate(), userCertificate.privateKey()));
        try {
            assertThat(activatedIdentities()).contains(Identity.certificate(userCertificate.certificate()));
            assertThat(milo.readValue(0, TimestampsToReturn.Both, speed).getStatusCode().isGood()).isTrue();
        } finally {
            milo.disconnect();
        }
    }

    @Test
    @Order(4)
    void a_wrong_password_is_refused_with_bad_user_access_denied() throws Exception {
        trustMiloCertificate();
        long failures = server.statistics().sessionCounters().failedAuthentications();

        assertRefused(() -> connect(miloCertificate, CLIENT_URI, basic256Sha256SignAndEncrypt(),
                new UsernameProvider(USER, "wrong")), StatusCodes.Bad_UserAccessDenied);

        assertThat(server.statistics().sessionCounters().failedAuthentications()).as("one failure, not retried by Milo")
                .isEqualTo(failures + 1);
        // a success resets the count of this certificate, so that the next tests start afresh
        connect(miloCertificate, CLIENT_URI, basic256Sha256SignAndEncrypt(), new UsernameProvider(USER, PASSWORD))
                .disconnect();
    }

    @Test
    @Order(5)
    void repeated_wrong_passwords_lock_the_client_certificate_out_until_the_lockout_passes() throws Exception {
        trustMiloCertificate();
        EndpointDescription endpoint = basic256Sha256SignAndEncrypt();
        long failures = server.statistics().sessionCounters().failedAuthentications();
        long lockedOut = server.statistics().sessionCounters().sessionsLockedOut();
        for (int i = 0; i < MAX_FAILED_ATTEMPTS; i++) {
            assertRefused(() -> connect(lockoutClientCertificate, LOCKOUT_CLIENT_URI, endpoint,
                    new UsernameProvider(USER, "wrong")), StatusCodes.Bad_UserAccessDenied);
        }
        long lockedAt = System.nanoTime();

        assertRefused(() -> connect(lockoutClientCertificate, LOCKOUT_CLIENT_URI, endpoint,
                new UsernameProvider(USER, PASSWORD)), StatusCodes.Bad_UserAccessDenied);
        assertThat(System.nanoTime() - lockedAt).as("refused within the lock-out").isLessThan(LOCKOUT.toNanos());
        assertThat(server.statistics().sessionCounters().sessionsLockedOut()).isEqualTo(lockedOut + 1);
        assertThat(server.statistics().sessionCounters().failedAuthentications()).as("a refusal while locked out is no failure")
                .isEqualTo(failures + MAX_FAILED_ATTEMPTS);
        // the lock-out holds one client certificate, not the user
        connect(miloCertificate, CLIENT_URI, endpoint, new UsernameProvider(USER, PASSWORD)).disconnect();

        // the scenario: the lock-out's time passes; one attempt right after it must succeed (a wait that
        // retried would let a lock-out longer than configured pass)
        long remaining = LOCKOUT.toNanos() - (System.nanoTime() - lockedAt);
        Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(remaining)) + 100);
        OpcUaClient milo = connect(lockoutClientCertificate, LOCKOUT_CLIENT_URI, endpoint,
                new UsernameProvider(USER, PASSWORD));
        try {
            assertThat(milo.readValue(0, TimestampsToReturn.Both, speed).getStatusCode().isGood()).isTrue();
        } finally {
            milo.disconnect();
        }
    }

    // ---- discovery

    @Test
    @Order(6)
    void get_endpoints_through_milo_lists_every_endpoint_with_our_certificate_ranked_by_security() throws Exception {
        List<EndpointDescription> listed = DiscoveryClient.getEndpoints(server.endpointUrl()).get(10, TimeUnit.SECONDS);

        assertThat(listed).hasSize(1 + 2 * POLICIES_BY_STRENGTH.size());
        assertThat(listed).allSatisfy(e -> assertThat(e.getEndpointUrl()).isEqualTo(server.endpointUrl()));
        EndpointDescription none = endpoint(listed, SecurityPolicy.None.getUri(), MessageSecurityMode.None);
        assertThat(none.getSecurityLevel().intValue()).isZero();
        int previousSign = 0;
        int previousEncrypt = 0;
        for (String policy : POLICIES_BY_STRENGTH) {
            EndpointDescription sign = endpoint(listed, policy, MessageSecurityMode.Sign);
            EndpointDescription encrypt = endpoint(listed, policy, MessageSecurityMode.SignAndEncrypt);
            for (EndpointDescription e : List.of(sign, encrypt)) {
                assertThat(e.getServerCertificate().bytesOrEmpty()).as("certificate of %s", policy)
                        .isEqualTo(serverCertificate.getEncoded());
                assertThat(e.getUserIdentityTokens()).extracting(UserTokenPolicy::getPolicyId)
                        .as("token policies of %s", policy).hasSize(3).contains("anonymous");
            }
            int signLevel = sign.getSecurityLevel().intValue();
            int encryptLevel = encrypt.getSecurityLevel().intValue();
            assertThat(encryptLevel).as("SignAndEncrypt above Sign for %s", policy).isGreaterThan(signLevel);
            assertThat(signLevel).as("Sign of %s above the weaker policies", policy).isGreaterThan(previousSign);
            assertThat(encryptLevel).as("SignAndEncrypt of %s above the weaker policies", policy)
                    .isGreaterThan(previousEncrypt);
            previousSign = signLevel;
            previousEncrypt = encryptLevel;
        }
    }

    // ---- helpers

    /** Opens a Milo session on the endpoint; a failed connect is disconnected so that Milo does not retry it. */
    private static OpcUaClient connect(ApplicationCertificate certificate, String applicationUri,
            EndpointDescription endpoint, IdentityProvider identity) throws UaException {
        OpcUaClientConfig config = MiloClients.secureConfig(endpoint, endpoints, serverCertificate, certificate,
                "milo secure interop client", applicationUri, identity);
        OpcUaClient milo = OpcUaClient.create(config);
        try {
            return milo.connect();
        } catch (UaException | RuntimeException e) {
            try {
                milo.disconnect();
            } catch (UaException | RuntimeException ignored) {
                // the connect failure is what the caller needs
            }
            throw e;
        }
    }

    private interface Connect {
        OpcUaClient connect() throws Exception;
    }

    /** The connect fails with a Milo UaException of {@code status} somewhere in its causes. */
    private static void assertRefused(Connect connect, long status) {
        assertThatThrownBy(() -> connect.connect().disconnect()).satisfies(e -> {
            Throwable cause = e;
            while (!(cause instanceof UaException) && cause.getCause() != null) {
                cause = cause.getCause();
            }
            assertThat(cause).as("cause of %s", e).isInstanceOf(UaException.class);
            assertThat(((UaException) cause).getStatusCode())
                    .as("status of %s", cause).isEqualTo(new StatusCode(status));
        });
    }

    /** Passes the token Milo builds through, keeping a copy. */
    private static IdentityProvider recording(IdentityProvider provider, AtomicReference<SignedIdentityToken> sent) {
        return (endpoint, serverNonce) -> {
            SignedIdentityToken token = provider.getIdentityToken(endpoint, serverNonce);
            sent.set(token);
            return token;
        };
    }

    private static List<Identity> activatedIdentities() {
        return server.statistics().sessions().stream().filter(Session::isActivated).map(Session::identity).toList();
    }

    private static void assertServerIsRunning(OpcUaClient milo) throws UaException {
        DataValue state = milo.readValue(0, TimestampsToReturn.Both, Identifiers.Server_ServerStatus_State);
        assertThat(state.getValue().getValue()).isEqualTo(ServerState.Running.getValue());
    }

    private static EndpointDescription basic256Sha256SignAndEncrypt() {
        return endpoint(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt);
    }

    private static EndpointDescription endpoint(EndpointSecurity security) {
        return endpoint(endpoints, security.policy().uri(), MessageSecurityMode.valueOf(security.mode().name()));
    }

    private static EndpointDescription endpoint(SecurityPolicy policy, MessageSecurityMode mode) {
        return endpoint(endpoints, policy.getUri(), mode);
    }

    private static EndpointDescription endpoint(List<EndpointDescription> list, String policyUri,
            MessageSecurityMode mode) {
        List<EndpointDescription> matching = list.stream()
                .filter(e -> policyUri.equals(e.getSecurityPolicyUri()) && e.getSecurityMode() == mode).toList();
        assertThat(matching).as("endpoints %s %s", policyUri, mode).hasSize(1);
        return matching.get(0);
    }

    private static UserTokenPolicy tokenPolicy(EndpointDescription endpoint, String prefix) {
        for (UserTokenPolicy p : endpoint.getUserIdentityTokens()) {
            if (p.getPolicyId().startsWith(prefix)) {
                return p;
            }
        }
        throw new AssertionError("no token policy " + prefix + "* on " + endpoint.getSecurityPolicyUri());
    }

    /** The certificate the server created in own/certs on its first start. */
    private static X509Certificate ownCertificate() throws IOException {
        List<Path> own = files(pki.ownCertsDir());
        assertThat(own).as("own/certs").hasSize(1);
        return CertificateLoader.readCertificates(own.get(0)).get(0);
    }

    private static List<Path> files(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> list = Files.list(dir)) {
            list.filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        return files;
    }
}
