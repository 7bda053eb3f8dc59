package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.discovery.DiscoveryClient;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.session.SessionOptions;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import dev.opcua.stack.core.security.pki.CrlBuilder;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.TrustList;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.session.X509IdentityValidator;
import dev.opcua.stack.server.testing.LeakWatch;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Our client against our {@link OpcUaServer} with a PKI directory (Part 12, F.1 layout): the application
 * certificates created in own/ on first start (RSA, and ECC for the ECC_nistP256 endpoint, Part 12, 7.8.4) and
 * read back after a restart, each proven by a SignAndEncrypt channel that needs its private key; sessions (Part 4, 5.6) of each
 * user identity on Aes128_Sha256_RsaOaep/SignAndEncrypt; and client certificates the server refuses with
 * the status of the failed check of Part 4, 6.1.3: expired (BadCertificateTimeInvalid), revoked by a CRL of
 * a trusted CA (BadCertificateRevoked), and naming another application URI than CreateSession's
 * clientDescription (Part 4, 5.6.2, BadCertificateUriInvalid).
 */
class OpcUaServerSecurityTest {

    private static final String SERVER_URI = "urn:test:security:server";
    private static final String SERVER_NAME = "security test server";
    private static final String CLIENT_URI = "urn:test:security:client";
    private static final String NS = "urn:test:security:plant";
    private static final String USER = "operator";
    private static final String PASSWORD = "secret";
    private static final double TEMPERATURE = 21.5;
    private static final EndpointSecurity AES128_ENCRYPT =
            new EndpointSecurity(SecurityPolicy.Aes128_Sha256_RsaOaep, MessageSecurityMode.SignAndEncrypt);
    private static final EndpointSecurity ECC_ENCRYPT =
            new EndpointSecurity(SecurityPolicy.ECC_nistP256, MessageSecurityMode.SignAndEncrypt);
    private static final TransportQuotas QUOTAS = TransportQuotas.builder()
            .operationTimeout(Duration.ofSeconds(10)).build();

    @TempDir
    static Path pkiRoot;

    private static ClientResources resources;
    private static ApplicationCertificate client;
    private static ApplicationCertificate eccClient;
    private static ApplicationCertificate expiredClient;
    private static ApplicationCertificate otherUriClient;
    private static ApplicationCertificate caIssuedClient;
    private static ApplicationCertificate revokedClient;
    private static ApplicationCertificate user;
    private static List<Path> ownCertificatesBeforeFirstStart;
    private static InMemoryNodeManager plant;
    private static OpcUaServer server;
    /** The server's RSA certificate as its Aes128_Sha256_RsaOaep endpoint describes it. */
    private static X509Certificate serverCertificate;
    /** The server's ECC certificate as its ECC_nistP256 endpoint describes it. */
    private static X509Certificate eccServerCertificate;

    @BeforeAll
    static void startServer() throws Exception {
        LeakWatch.install();
        resources = ClientResources.builder().ioThreads(1).build();
        // three 2048-bit keys for the class: every client certificate shares the first
        List<KeyPair> keys = IntStream.range(0, 3).parallel()
                .mapToObj(i -> CertificateBuilder.generateKeyPair(2048)).toList();
        client = clientCertificate("security test client", CLIENT_URI, keys.get(0)).build();
        eccClient = CertificateBuilder.forApplication("security test ecc client").applicationUri(CLIENT_URI)
                .hostNames("localhost").type(CertificateType.ECC_NIST_P256).build();
        Instant now = Instant.now();
        expiredClient = clientCertificate("expired client", CLIENT_URI, keys.get(0))
                .validityWindow(now.minus(Duration.ofDays(30)), now.minus(Duration.ofDays(1))).build();
        otherUriClient = clientCertificate("other uri client", "urn:test:security:someone-else", keys.get(0)).build();
        ApplicationCertificate ca = CertificateBuilder.forApplication("security test CA").ca(true)
                .keyPair(keys.get(1)).build();
        caIssuedClient = clientCertificate("ca issued client", CLIENT_URI, keys.get(0)).issuedBy(ca).build();
        revokedClient = clientCertificate("revoked client", CLIENT_URI, keys.get(0)).issuedBy(ca).build();
        user = CertificateBuilder.forApplication("security test user").keyPair(keys.get(2)).build();

        PkiDirectory pki = new PkiDirectory(pkiRoot);
        for (ApplicationCertificate trusted : List.of(client, eccClient, expiredClient, otherUriClient, ca)) {
            Files.write(pki.trustedCertsDir().resolve(trusted.certificate().getSerialNumber().toString(16) + ".der"),
                    trusted.certificate().getEncoded());
        }
        Files.write(pki.trustedCrlDir().resolve("security-test-ca.crl"),
                CrlBuilder.issuedBy(ca).revoke(revokedClient.certificate()).build().getEncoded());
        pki.reload(); // now, rather than once the reload interval has passed
        ownCertificatesBeforeFirstStart = files(pki.ownCertsDir());
        start(pki);
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            if (resources != null) {
                resources.close();
            }
        }
        LeakWatch.assertNoLeaks();
    }

    /** Builds and starts the server on a PKI directory, as a new process would. */
    private static void start(PkiDirectory pki) throws Exception {
        plant = InMemoryNodeManager.builder(NS)
                .variable("Temperature", BuiltinType.Double, v -> v.value(Variant.ofDouble(TEMPERATURE)))
                .build();
        server = OpcUaServer.builder()
                .applicationUri(SERVER_URI)
                .applicationName(SERVER_NAME)
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 4, 100)
                .security(List.of(EndpointSecurity.NONE, AES128_ENCRYPT, ECC_ENCRYPT))
                .pki(pki)
                .identityTypes(IdentityValidator.anyOf(UserNameIdentityValidator.of(Map.of(USER, PASSWORD), true),
                        X509IdentityValidator.anyTrusted()),
                        EnumSet.of(UserTokenType.Anonymous, UserTokenType.UserName, UserTokenType.Certificate))
                .userCertificateValidator(new PkiCertificateValidator(TrustList.trusting(user.certificate()),
                        ValidationOptions.defaults()))
                .nodeManager(plant)
                .build()
                .start();
        EndpointDescription[] endpoints = DiscoveryClient.getEndpoints(server.endpointUrl(), QUOTAS, resources)
                .get(10, TimeUnit.SECONDS);
        serverCertificate = certificateOf(endpoints, AES128_ENCRYPT);
        eccServerCertificate = certificateOf(endpoints, ECC_ENCRYPT);
    }

    private static X509Certificate certificateOf(EndpointDescription[] endpoints, EndpointSecurity security)
            throws Exception {
        EndpointDescription endpoint = Arrays.stream(endpoints)
                .filter(e -> security.policy().uri().equals(e.securityPolicyUri()) && e.securityMode() == security.mode())
                .findFirst().orElseThrow(() -> new AssertionError("no endpoint " + security));
        return Certificates.decodeChain(endpoint.serverCertificate().unsafeBytes()).get(0);
    }

    // ---- the application certificate

    @Test
    void the_certificates_created_in_own_on_first_start_are_read_back_and_used_after_a_restart() throws Exception {
        PkiDirectory pki = new PkiDirectory(pkiRoot);
        assertThat(ownCertificatesBeforeFirstStart).as("own/certs before the first start").isEmpty();
        List<Path> created = files(pki.ownCertsDir());
        assertThat(created).as("own/certs after the first start: RSA and ECC P-256").hasSize(2);
        List<Path> keys = files(pki.ownPrivateDir());
        assertThat(keys).as("own/private").hasSize(2);
        List<X509Certificate> first = new ArrayList<>();
        for (Path file : created) {
            first.add(CertificateLoader.readCertificates(file).get(0));
        }
        assertThat(first).containsExactlyInAnyOrder(serverCertificate, eccServerCertificate);
        assertThat(first).allSatisfy(c -> assertThat(PkiCertificateValidator.applicationUriOf(c)).isEqualTo(SERVER_URI));

        server.close();
        start(new PkiDirectory(pkiRoot)); // what a restarted process does: certificates and keys read from own/

        assertThat(List.of(serverCertificate, eccServerCertificate)).containsExactlyInAnyOrderElementsOf(first);
        assertThat(files(pki.ownCertsDir())).isEqualTo(created);
        assertThat(files(pki.ownPrivateDir())).isEqualTo(keys);
        // SignAndEncrypt needs the server's private key (it decrypts and signs the handshake): one session each
        withSession(AES128_ENCRYPT, client, ClientIdentity.anonymous(),
                OpcUaServerSecurityTest::assertReadsTheTemperature);
        withSession(ECC_ENCRYPT, eccClient, ClientIdentity.anonymous(),
                OpcUaServerSecurityTest::assertReadsTheTemperature);
    }

    @Test
    void a_secure_policy_without_certificate_or_pki_fails_at_build() {
        OpcUaServer.Builder builder = OpcUaServer.builder().security(List.of(EndpointSecurity.NONE, AES128_ENCRYPT));

        assertThatThrownBy(builder::build)
                .isInstanceOfSatisfying(InvalidSettingException.class,
                        e -> assertThat(e.setting()).isEqualTo("opcUaServer.security"))
                .hasMessageContaining("Aes128_Sha256_RsaOaep")
                .hasMessageContaining("certificate(...)")
                .hasMessageContaining("pki(...)");
    }

    // ---- sessions of each identity

    @ParameterizedTest
    @EnumSource(value = UserTokenType.class, names = {"Anonymous", "UserName", "Certificate"})
    void a_session_of_each_identity_reads_the_variable(UserTokenType type) throws Exception {
        ClientIdentity identity = switch (type) {
            case Anonymous -> ClientIdentity.anonymous();
            case UserName -> ClientIdentity.userName(USER, PASSWORD);
            case Certificate -> ClientIdentity.x509(user);
            default -> throw new IllegalArgumentException(type.toString());
        };
        Identity expected = switch (type) {
            case Anonymous -> Identity.ANONYMOUS;
            case UserName -> Identity.user(USER);
            default -> Identity.certificate(user.certificate());
        };

        withSession(client, identity, session -> {
            assertThat(session.userTokenPolicy().tokenType()).isEqualTo(type);
            assertThat(server.statistics().sessions()).anySatisfy(s -> {
                assertThat(s.isActivated()).isTrue();
                assertThat(s.identity()).isEqualTo(expected);
                assertThat(s.clientCertificate()).isEqualTo(client.certificate());
            });
            assertReadsTheTemperature(session);
        });
    }

    // ---- client certificates

    @Test
    void a_client_certificate_issued_by_a_trusted_ca_is_accepted_while_the_ca_crl_does_not_list_it() throws Exception {
        withSession(caIssuedClient, ClientIdentity.anonymous(), OpcUaServerSecurityTest::assertReadsTheTemperature);
    }

    @Test
    void an_expired_client_certificate_is_refused_with_bad_certificate_time_invalid() {
        assertFailsWith(() -> connect(AES128_ENCRYPT, expiredClient), StatusCodes.BadCertificateTimeInvalid, "expired client");
    }

    @Test
    void a_client_certificate_revoked_by_the_crl_of_a_trusted_ca_is_refused_with_bad_certificate_revoked() {
        assertFailsWith(() -> connect(AES128_ENCRYPT, revokedClient), StatusCodes.BadCertificateRevoked, "revoked client");
    }

    @Test
    void a_client_certificate_of_another_application_uri_is_refused_at_create_session_with_bad_certificate_uri_invalid()
            throws Exception {
        UaTcpClientChannel channel = connect(AES128_ENCRYPT, otherUriClient);
        try {
            assertFailsWith(() -> ClientSession.open(channel, options(ClientIdentity.anonymous()))
                    .get(10, TimeUnit.SECONDS), StatusCodes.BadCertificateUriInvalid, "CreateSession");
            assertThat(channel.isOpen()).as("the channel stays open").isTrue();
        } finally {
            channel.close().get(10, TimeUnit.SECONDS);
        }
    }

    // ---- helpers

    private static CertificateBuilder clientCertificate(String name, String applicationUri, KeyPair keys) {
        return CertificateBuilder.forApplication(name).applicationUri(applicationUri).hostNames("localhost")
                .keyPair(keys);
    }

    private interface SessionCheck {
        void accept(ClientSession session) throws Exception;
    }

    /** A channel with this client certificate, a session of the identity on it; both closed afterwards. */
    private static void withSession(ApplicationCertificate certificate, ClientIdentity identity, SessionCheck check)
            throws Exception {
        withSession(AES128_ENCRYPT, certificate, identity, check);
    }

    private static void withSession(EndpointSecurity security, ApplicationCertificate certificate,
            ClientIdentity identity, SessionCheck check) throws Exception {
        UaTcpClientChannel channel = connect(security, certificate);
        try {
            ClientSession session = ClientSession.open(channel, options(identity)).get(10, TimeUnit.SECONDS);
            try {
                check.accept(session);
            } finally {
                session.close().get(10, TimeUnit.SECONDS);
            }
        } finally {
            channel.close().get(10, TimeUnit.SECONDS);
        }
    }

    /** Opens a channel of this policy and mode, trusting exactly the server's certificate of its type. */
    private static UaTcpClientChannel connect(EndpointSecurity endpoint, ApplicationCertificate certificate)
            throws Exception {
        X509Certificate trusted = endpoint == ECC_ENCRYPT ? eccServerCertificate : serverCertificate;
        ClientChannelSecurity security = new ClientChannelSecurity(endpoint, certificate, List.of(trusted),
                new PkiCertificateValidator(TrustList.trusting(trusted), ValidationOptions.defaults()));
        return UaTcpClientChannel.connect(server.endpointUrl(), QUOTAS, security, resources)
                .get(10, TimeUnit.SECONDS);
    }

    private static SessionOptions options(ClientIdentity identity) {
        return SessionOptions.builder().applicationUri(CLIENT_URI).applicationName("security test client")
                .identity(identity).build();
    }

    private static void assertReadsTheTemperature(ClientSession session) throws Exception {
        DataValue[] values = session.read(new ReadValueId(plant.nodeId("Temperature"), AttributeIds.Value, null,
                QualifiedName.NULL)).get(10, TimeUnit.SECONDS);
        assertThat(values).hasSize(1);
        assertThat(values[0].statusCode().isGood()).as("status %s", values[0].statusCode()).isTrue();
        assertThat(values[0].value().value()).isEqualTo(TEMPERATURE);
    }

    private static void assertFailsWith(ThrowingCallable call, int status, String messagePart) {
        assertThatThrownBy(call)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(UaException.class)
                .hasMessageContaining(messagePart)
                .satisfies((Consumer<Throwable>) e -> assertThat(((UaException) e).statusCode().value())
                        .as("status of %s", e).isEqualTo(status));
    }

    private static List<Path> files(Path dir) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> list = Files.list(dir)) {
            list.filter(Files::isRegularFile).sorted().forEach(files::add);
        }
        return files;
    }
}
