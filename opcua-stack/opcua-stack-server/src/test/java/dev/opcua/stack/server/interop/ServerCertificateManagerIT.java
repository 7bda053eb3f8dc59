package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.certificates.ServerCertificateManager;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.roles.RoleMapper;
import dev.opcua.stack.server.roles.WellKnownRole;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.testing.TestSigningCa;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Our own client's {@link ServerCertificateManager} against our server: the push round trip of Part 12, 7.10. */
class ServerCertificateManagerIT {

    private static final String SERVER_URI = "urn:test:push-client:server";
    private static final String CLIENT_URI = "urn:test:push-client:client";
    private static final NodeId SERVER_STATE = NodeId.ns0(NodeIds.Server_ServerStatus_State);

    private final ApplicationCertificate ca = CertificateBuilder.forApplication("push client test CA").ca(true).build();
    private final ApplicationCertificate clientCertificate = CertificateBuilder.forApplication("push client")
            .applicationUri(CLIENT_URI).build();
    @TempDir
    Path pkiRoot;
    private PkiDirectory pki;
    private ClientResources resources;
    private OpcUaServer server;

    @BeforeEach
    void start() {
        resources = ClientResources.builder().ioThreads(1).build();
        pki = new PkiDirectory(pkiRoot, Duration.ZERO, PkiDirectory.DEFAULT_MAX_REJECTED);
        pki.addCertificate(clientCertificate.certificate(), true);
        server = OpcUaServer.builder()
                .applicationUri(SERVER_URI)
                .applicationName("push client test server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .security(List.of(new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt),
                        new EndpointSecurity(SecurityPolicy.ECC_nistP256, MessageSecurityMode.SignAndEncrypt)))
                .pki(pki)
                .identityTypes(UserNameIdentityValidator.of(Map.of("admin", "a-secret", "operator", "o-secret"), true),
                        EnumSet.of(UserTokenType.UserName))
                .roleMapper(RoleMapper.byUserName(Map.of("admin", EnumSet.of(WellKnownRole.SECURITY_ADMIN))))
                .build()
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
        resources.close();
    }

    private OpcUaClient connected(String user, String password) throws Exception {
        OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                .applicationUri(CLIENT_URI)
                .certificate(clientCertificate)
                .acceptAnyServerCertificate(true)
                .identity(ClientIdentity.userName(user, password))
                .resources(resources)
                .build());
        client.connect().get(10, TimeUnit.SECONDS);
        return client;
    }

    @Test
    void an_admin_reads_and_extends_the_trust_list_and_renews_the_certificate_with_the_current_key() throws Exception {
        OpcUaClient client = connected("admin", "a-secret");
        try {
            ServerCertificateManager manager = new ServerCertificateManager(client);
            assertThat(manager.readTrustList().get(10, TimeUnit.SECONDS).trustedCertificates())
                    .containsExactly(ByteString.wrap(clientCertificate.certificate().getEncoded()));
            ApplicationCertificate stranger = CertificateBuilder.forApplication("stranger").build();
            pki.reject(stranger.certificate());
            assertThat(manager.getRejectedList().get(10, TimeUnit.SECONDS))
                    .containsExactly(stranger.certificate().getEncoded());
            manager.addCertificate(stranger.certificate().getEncoded()).get(10, TimeUnit.SECONDS);
            assertThat(pki.trustList().isTrusted(stranger.certificate())).isTrue();

            byte[] request = manager.createSigningRequest(null, false, null).get(10, TimeUnit.SECONDS);
            X509Certificate renewed = TestSigningCa.sign(ca, request);
            assertThat(renewed.getPublicKey()).isEqualTo(server.applicationCertificate().certificate().getPublicKey());
            assertThat(manager.updateCertificate(renewed.getEncoded(), List.of(ca.certificate().getEncoded()))
                    .get(10, TimeUnit.SECONDS)).isTrue();
            manager.applyChanges().get(10, TimeUnit.SECONDS);

            assertThat(server.applicationCertificate().certificate()).isEqualTo(renewed);
            assertThat(server.applicationCertificate().issuers()).containsExactly(ca.certificate());
            assertThat(client.readValue(SERVER_STATE).get(10, TimeUnit.SECONDS).value().value()).isEqualTo(0);
        } finally {
            client.close();
        }
    }

    @Test
    void an_admin_renews_the_ecc_certificate_with_a_new_key_and_a_new_ecc_channel_presents_it() throws Exception {
        OpcUaClient client = connected("admin", "a-secret");
        try {
            ApplicationCertificate before = server.applicationCertificate(CertificateType.ECC_NIST_P256);
            ApplicationCertificate rsaBefore = server.applicationCertificate(CertificateType.RSA_SHA256);
            ServerCertificateManager manager = new ServerCertificateManager(client);
            byte[] nonce = new byte[32];
            new java.security.SecureRandom().nextBytes(nonce);
            byte[] request = manager.createSigningRequest(CertificateType.ECC_NIST_P256, null, true, nonce)
                    .get(10, TimeUnit.SECONDS);
            X509Certificate renewed = TestSigningCa.sign(ca, request);
            assertThat(CertificateType.of(renewed.getPublicKey())).isEqualTo(CertificateType.ECC_NIST_P256);
            assertThat(renewed.getPublicKey()).isNotEqualTo(before.certificate().getPublicKey());
            assertThat(manager.updateCertificate(CertificateType.ECC_NIST_P256, renewed.getEncoded(),
                    List.of(ca.certificate().getEncoded()), null, null).get(10, TimeUnit.SECONDS)).isTrue();
            manager.applyChanges().get(10, TimeUnit.SECONDS);

            assertThat(server.applicationCertificate(CertificateType.ECC_NIST_P256).certificate()).isEqualTo(renewed);
            assertThat(server.applicationCertificate(CertificateType.RSA_SHA256)).isSameAs(rsaBefore);
        } finally {
            client.close();
        }
        // a new ECC channel: the endpoint and the OpenSecureChannel carry the renewed certificate
        ApplicationCertificate eccClient = CertificateBuilder.forApplication("push client test client (P-256)")
                .type(CertificateType.ECC_NIST_P256).applicationUri(CLIENT_URI).build();
        pki.addCertificate(eccClient.certificate(), true);
        OpcUaClient ecc = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                .applicationUri(CLIENT_URI).certificate(eccClient).acceptAnyServerCertificate(true)
                .identity(ClientIdentity.userName("operator", "o-secret"))
                .security(SecurityPolicy.ECC_nistP256, MessageSecurityMode.SignAndEncrypt).resources(resources)
                .build());
        try {
            ecc.connect().get(10, TimeUnit.SECONDS);
            assertThat(ecc.endpoint().serverCertificate().bytes()).isEqualTo(
                    server.applicationCertificate(CertificateType.ECC_NIST_P256).certificate().getEncoded());
        } finally {
            ecc.close();
        }
    }

    @Test
    void a_user_without_the_security_admin_role_is_denied() throws Exception {
        OpcUaClient client = connected("operator", "o-secret");
        try {
            assertThatThrownBy(() -> new ServerCertificateManager(client).readTrustList().get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class).cause().isInstanceOfSatisfying(UaException.class,
                            e -> assertThat(e.statusCode().value()).isEqualTo(StatusCodes.BadUserAccessDenied));
        } finally {
            client.close();
        }
    }
}
