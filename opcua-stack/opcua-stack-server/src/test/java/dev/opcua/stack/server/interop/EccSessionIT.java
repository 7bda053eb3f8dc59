package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.session.X509IdentityValidator;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.TrustList;
import java.util.EnumSet;
import java.util.Map;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our {@link OpcUaClient} against our {@link OpcUaServer} over every ECC policy in Sign and
 * SignAndEncrypt (Part 6, 6.8.1; Part 4, 5.6.2 and 5.6.3 signed with ECDSA): the server creates one
 * certificate per curve in its PKI directory on first start, lists each endpoint with the certificate
 * of its curve beside the RSA one, and the client creates its own certificate of the curve it needs.
 */
class EccSessionIT {

    private static final String NS = "urn:test:ecc:plant";

    @TempDir
    static Path serverPki;
    @TempDir
    static Path clientPki;

    private static ClientResources resources;
    /** A user certificate per curve: an X.509 user of an ECC policy signs with a key on its curve. */
    private static final Map<SecurityPolicy, ApplicationCertificate> USERS = new java.util.EnumMap<>(
            SecurityPolicy.class);
    private static OpcUaServer server;

    @BeforeAll
    static void start() {
        resources = ClientResources.builder().ioThreads(1).build();
        eccPolicies().forEach(p -> USERS.put(p, CertificateBuilder.forApplication("ecc user " + p)
                .type(p.certificateType()).applicationUri("urn:test:ecc:user").build()));
        List<EndpointSecurity> endpoints = new ArrayList<>();
        endpoints.add(EndpointSecurity.NONE);
        endpoints.add(new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt));
        for (SecurityPolicy p : eccPolicies().toList()) {
            endpoints.add(new EndpointSecurity(p, MessageSecurityMode.Sign));
            endpoints.add(new EndpointSecurity(p, MessageSecurityMode.SignAndEncrypt));
        }
        server = OpcUaServer.builder()
                .applicationUri("urn:test:ecc:server")
                .applicationName("ecc test server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .security(endpoints)
                .pki(new PkiDirectory(serverPki))
                .certificateValidation(ValidationOptions.builder().autoAcceptUntrusted(true).build())
                .identityTypes(IdentityValidator.anyOf(IdentityValidator.anonymousOnly(),
                        UserNameIdentityValidator.of(Map.of("operator", "secret"), true),
                        X509IdentityValidator.anyTrusted()),
                        EnumSet.of(UserTokenType.Anonymous, UserTokenType.UserName, UserTokenType.Certificate))
                .userCertificateValidator(new PkiCertificateValidator(TrustList.trusting(USERS.values().stream()
                        .map(ApplicationCertificate::certificate).toArray(X509Certificate[]::new)),
                        ValidationOptions.defaults()))
                .nodeManager(InMemoryNodeManager.builder(NS)
                        .variable("Count", BuiltinType.Int32, v -> v.value(Variant.ofInt32(7)).writable())
                        .build())
                .build()
                .start();
    }

    @AfterAll
    static void stop() {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            resources.close();
        }
    }

    static Stream<SecurityPolicy> eccPolicies() {
        return Stream.of(SecurityPolicy.values()).filter(SecurityPolicy::isEcc);
    }

    static Stream<Arguments> eccEndpoints() {
        return eccPolicies().flatMap(p -> Stream.of(Arguments.of(p, MessageSecurityMode.Sign),
                Arguments.of(p, MessageSecurityMode.SignAndEncrypt)));
    }

    @Test
    void each_endpoint_lists_the_certificate_of_its_policy_and_the_pki_directory_holds_one_per_curve()
            throws Exception {
        for (EndpointDescription e : server.endpoints()) {
            SecurityPolicy policy = SecurityPolicy.fromUri(e.securityPolicyUri());
            if (policy == SecurityPolicy.None) {
                continue;
            }
            X509Certificate certificate = Certificates.decodeChain(e.serverCertificate().unsafeBytes()).get(0);
            assertThat(CertificateType.of(certificate.getPublicKey())).as(e.securityPolicyUri())
                    .isEqualTo(policy.certificateType());
        }
        try (Stream<Path> files = Files.list(serverPki.resolve("own/certs"))) {
            assertThat(files.map(f -> f.getFileName().toString()).toList()).containsExactlyInAnyOrder(
                    "ecc test server.der", "ecc test server.ecc-nistP256.der", "ecc test server.ecc-nistP384.der",
                    "ecc test server.ecc-brainpoolP256r1.der", "ecc test server.ecc-brainpoolP384r1.der");
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("eccEndpoints")
    void a_user_name_is_encrypted_as_an_ecc_encrypted_secret_and_a_wrong_password_is_refused(SecurityPolicy policy,
            MessageSecurityMode mode) throws Exception {
        OpcUaClient client = OpcUaClient.create(config(policy, mode)
                .identity(ClientIdentity.userName("operator", "secret")).build());
        try {
            client.connect().get(20, TimeUnit.SECONDS);
            assertThat(client.session().userTokenPolicy().securityPolicyUri()).isEqualTo(policy.uri());
            assertThat(client.blocking().readValue(client.nodeId("nsu=" + NS + ";s=Count")).statusCode().isGood())
                    .isTrue();
        } finally {
            client.close();
        }
        OpcUaClient wrong = OpcUaClient.create(config(policy, mode)
                .identity(ClientIdentity.userName("operator", "wrong")).build());
        try {
            assertThatThrownBy(() -> wrong.connect().get(20, TimeUnit.SECONDS))
                    .hasRootCauseInstanceOf(UaException.class)
                    .rootCause().hasMessageContaining("Bad");
        } finally {
            wrong.close();
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("eccEndpoints")
    void an_x509_user_with_a_key_on_the_curve_signs_its_token(SecurityPolicy policy, MessageSecurityMode mode)
            throws Exception {
        OpcUaClient client = OpcUaClient.create(config(policy, mode)
                .identity(ClientIdentity.x509(USERS.get(policy))).build());
        try {
            client.connect().get(20, TimeUnit.SECONDS);
            assertThat(client.session().userTokenPolicy().tokenType()).isEqualTo(UserTokenType.Certificate);
            assertThat(client.blocking().readValue(client.nodeId("nsu=" + NS + ";s=Count")).statusCode().isGood())
                    .isTrue();
        } finally {
            client.close();
        }
    }

    private OpcUaClientConfig.Builder config(SecurityPolicy policy, MessageSecurityMode mode) {
        return OpcUaClientConfig.builder(server.endpointUrl())
                .applicationUri("urn:test:ecc:client").applicationName("ecc test client").resources(resources)
                .pkiDir(clientPki).acceptAnyServerCertificate(true).requestTimeout(Duration.ofSeconds(5))
                .reconnectDelays(Duration.ofMillis(50), Duration.ofMillis(200)).security(policy, mode);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("eccEndpoints")
    void an_anonymous_session_reads_and_writes_over_the_ecc_endpoint(SecurityPolicy policy, MessageSecurityMode mode)
            throws Exception {
        OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                .applicationUri("urn:test:ecc:client").applicationName("ecc test client").resources(resources)
                .pkiDir(clientPki).acceptAnyServerCertificate(true).requestTimeout(Duration.ofSeconds(5))
                .security(policy, mode).build());
        try {
            client.connect().get(20, TimeUnit.SECONDS);
            assertThat(client.endpoint().securityPolicyUri()).isEqualTo(policy.uri());
            assertThat(client.endpoint().securityMode()).isEqualTo(mode);
            NodeId count = client.nodeId("nsu=" + NS + ";s=Count");
            assertThat(client.blocking().writeValue(count, Variant.ofInt32(11)).isGood()).isTrue();
            DataValue value = client.blocking().readValue(count);
            assertThat(value.value().value()).isEqualTo(11);
        } finally {
            client.close();
        }
    }
}
