package dev.opcua.stack.server.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.server.transport.uasc.ServerChannelSecurity;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.FindServersRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.transport.UaTcpServer;
import java.security.KeyPair;
import java.security.Security;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.sdk.client.identity.X509IdentityProvider;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client opens sessions on secure channels of our server (Part 4, 5.6.2 and
 * 5.6.3): it verifies our serverSignature, we verify its clientSignature, and it sends passwords
 * encrypted for our certificate (legacy secret format, Part 4, 7.41.2.2) and X.509 user tokens with
 * their signature (Part 4, 7.41.5).
 */
class MiloSecureSessionInteropIT {

    /** How long the server may take to see Milo's session change, and how often the test looks. */
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(10);

    private static ApplicationCertificate server;
    private static ApplicationCertificate client;
    /** Not an application certificate: only its certificate and key are used, by the X.509 user. */
    private static ApplicationCertificate user;
    private static ServiceDispatcher dispatcher;
    private static SessionManager sessions;
    private static UaTcpServer transport;
    private static String endpointUrl;

    @BeforeAll
    static void startServer() {
        LeakWatch.install();
        Security.addProvider(new BouncyCastleProvider()); // Milo signs RSA-PSS through BouncyCastle
        server = TestKeys.SERVER; // keys shared with the other session tests of this JVM
        client = new ApplicationCertificate(TestKeys.CLIENT, List.of(), TestKeys.CLIENT_KEYS.getPrivate());
        user = new ApplicationCertificate(TestKeys.USER, List.of(), TestKeys.USER_KEYS.getPrivate());
        List<EndpointSecurity> endpoints = List.of(EndpointSecurity.NONE,
                new EndpointSecurity(dev.opcua.stack.core.security.SecurityPolicy.Basic256Sha256,
                        dev.opcua.stack.core.types.enumerated.MessageSecurityMode.SignAndEncrypt),
                new EndpointSecurity(dev.opcua.stack.core.security.SecurityPolicy.Aes128_Sha256_RsaOaep,
                        dev.opcua.stack.core.types.enumerated.MessageSecurityMode.SignAndEncrypt),
                new EndpointSecurity(dev.opcua.stack.core.security.SecurityPolicy.Aes256_Sha256_RsaPss,
                        dev.opcua.stack.core.types.enumerated.MessageSecurityMode.Sign));
        AtomicReference<DiscoveryServices> discovery = new AtomicReference<>();
        sessions = SessionManager.builder()
                .identityValidator(IdentityValidator.anyOf(UserNameIdentityValidator.of(Map.of("alice", "secret"), true),
                        X509IdentityValidator.anyTrusted()))
                .userCertificateValidator(chain -> {
                    if (!chain.get(0).equals(user.certificate())) {
                        throw new UaException(StatusCodes.BadCertificateUntrusted, "not a known user");
                    }
                })
                .applicationCertificate(server)
                .discoveryEndpoints(discovery::get)
                .build();
        dispatcher = sessions.registerWith(ServiceDispatcher.builder().minThreads(2).maxThreads(4)
                .registerSync(GetEndpointsRequest.class, (channel, request) -> discovery.get().getEndpoints(request))
                .registerSync(FindServersRequest.class, (channel, request) -> discovery.get().findServers(request)))
                .build();
        transport = UaTcpServer.builder().bindAddress("127.0.0.1").port(0).ioThreads(2)
                .security(new ServerChannelSecurity(endpoints, server, CertificateValidator.acceptAll()))
                .requestListener(dispatcher).build().start();
        endpointUrl = "opc.tcp://localhost:" + transport.port() + "/";
        discovery.set(DiscoveryServices.builder()
                .application(TestKeys.SERVER_URI, "urn:dev.opcua:stack", "dev.opcua secure session test server")
                .endpointUrls(List.of(endpointUrl))
                .security(endpoints, server)
                .userTokenTypes(List.of(UserTokenType.Anonymous, UserTokenType.UserName, UserTokenType.Certificate))
                .build());
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        transport.close();
        dispatcher.close();
        sessions.close();
        LeakWatch.assertNoLeaks();
    }

    private static OpcUaClient connect(SecurityPolicy policy, MessageSecurityMode mode, IdentityProvider identity)
            throws Exception {
        OpcUaClient milo = OpcUaClient.create(endpointUrl,
                endpoints -> endpoints.stream()
                        .filter(e -> policy.getUri().equals(e.getSecurityPolicyUri()) && e.getSecurityMode() == mode)
                        .findFirst(),
                transportConfig -> { },
                config -> config.setApplicationUri(TestKeys.CLIENT_URI)
                        .setCertificate(client.certificate())
                        .setCertificateChain(new java.security.cert.X509Certificate[] {client.certificate()})
                        .setKeyPair(new KeyPair(client.certificate().getPublicKey(), client.privateKey()))
                        .setCertificateValidator(
                                new org.eclipse.milo.opcua.stack.core.security.CertificateValidator
                                        .InsecureCertificateValidator())
                        .setIdentityProvider(identity)
                        .setRequestTimeout(uint(5_000))
                        .setKeepAliveInterval(uint(60_000)));
        milo.connect();
        return milo;
    }

    private static Session activated() {
        return sessions.sessions().stream().filter(Session::isActivated).findFirst().orElseThrow();
    }

    private static void disconnect(OpcUaClient milo) throws Exception {
        milo.disconnect();
        await().atMost(WAIT).pollInterval(POLL)
                .until(() -> sessions.sessions().stream().noneMatch(Session::isActivated));
    }

    @Test
    void milo_opens_an_anonymous_session_on_a_sign_and_encrypt_channel() throws Exception {
        OpcUaClient milo = connect(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt,
                new AnonymousProvider());
        try {
            assertThat(activated().identity()).isEqualTo(Identity.ANONYMOUS);
            assertThat(activated().clientCertificate()).isEqualTo(client.certificate());
        } finally {
            disconnect(milo);
        }
    }

    @Test
    void milo_sends_a_password_encrypted_with_rsa_oaep_sha256_on_a_sign_channel() throws Exception {
        OpcUaClient milo = connect(SecurityPolicy.Aes256_Sha256_RsaPss, MessageSecurityMode.Sign,
                new UsernameProvider("alice", "secret"));
        try {
            assertThat(activated().identity()).isEqualTo(Identity.user("alice"));
        } finally {
            disconnect(milo);
        }
    }

    @Test
    void milo_encrypts_the_password_for_our_certificate_on_a_none_channel() throws Exception {
        OpcUaClient milo = connect(SecurityPolicy.None, MessageSecurityMode.None, new UsernameProvider("alice", "secret"));
        try {
            assertThat(activated().identity()).isEqualTo(Identity.user("alice"));
        } finally {
            disconnect(milo);
        }
    }

    @Test
    void milo_proves_an_X509_user_with_its_signature() throws Exception {
        OpcUaClient milo = connect(SecurityPolicy.Aes128_Sha256_RsaOaep, MessageSecurityMode.SignAndEncrypt,
                new X509IdentityProvider(user.certificate(), user.privateKey()));
        try {
            assertThat(activated().identity()).isEqualTo(Identity.certificate(user.certificate()));
        } finally {
            disconnect(milo);
        }
    }

    @Test
    void a_wrong_encrypted_password_is_bad_user_access_denied_for_milo() {
        long failures = sessions.counters().failedAuthentications();

        assertThatThrownBy(() -> connect(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt,
                new UsernameProvider("alice", "wrong"))).satisfies(e -> {
                    Throwable cause = e;
                    while (!(cause instanceof org.eclipse.milo.opcua.stack.core.UaException) && cause.getCause() != null) {
                        cause = cause.getCause();
                    }
                    assertThat(((org.eclipse.milo.opcua.stack.core.UaException) cause).getStatusCode().getValue())
                            .isEqualTo(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_UserAccessDenied);
                });
        assertThat(sessions.counters().failedAuthentications()).isGreaterThan(failures);
    }
}
