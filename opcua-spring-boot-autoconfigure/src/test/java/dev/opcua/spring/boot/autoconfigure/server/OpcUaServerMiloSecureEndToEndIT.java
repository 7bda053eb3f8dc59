package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.spring.boot.testing.MiloClients;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.eclipse.milo.opcua.sdk.client.DiscoveryClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClientConfig;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The auto-configured server with {@code security.pki-dir} and no {@code security.policies}: Eclipse
 * Milo 1.1.2's client connects over Basic256Sha256 SignAndEncrypt with a certificate the application
 * put in {@code trusted/certs}, as a configured user; an untrusted client is refused and its
 * certificate lands in {@code rejected/}.
 */
class OpcUaServerMiloSecureEndToEndIT {

    private static final String NS = "urn:test:e2e:secure";
    private static final String CLIENT_URI = "urn:test:e2e:milo-client";

    @TempDir
    static Path pkiDir;

    private static ApplicationCertificate trustedClient;
    private static ApplicationCertificate strangerClient;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class))
            .withUserConfiguration(Line.class)
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=urn:test:e2e:secure-server",
                    "opcua.server.security.pki-dir=" + pkiDir,
                    "opcua.server.identity.users[0].username=operator",
                    "opcua.server.identity.users[0].password=secret");

    @Configuration(proxyBeanMethods = false)
    static class Line {

        @Bean
        InMemoryNodeManager line() {
            return InMemoryNodeManager.builder(NS).folder("Line1")
                    .variable("Line1.Speed", BuiltinType.Double,
                            v -> v.value(dev.opcua.stack.core.types.builtin.Variant.ofDouble(7.5)))
                    .build();
        }
    }

    @BeforeAll
    static void certificates() throws Exception {
        trustedClient = CertificateBuilder.forApplication("milo trusted client").applicationUri(CLIENT_URI).build();
        strangerClient = CertificateBuilder.forApplication("milo stranger").applicationUri(CLIENT_URI).build();
        Path trusted = Files.createDirectories(pkiDir.resolve("trusted").resolve("certs"));
        Files.write(trusted.resolve("milo-trusted-client.der"), trustedClient.certificate().getEncoded());
    }

    @Test
    void with_a_pki_directory_the_server_offers_only_secure_endpoints_and_milo_reads_over_sign_and_encrypt() {
        contextRunner.run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            List<EndpointDescription> endpoints = DiscoveryClient.getEndpoints(server.endpointUrl()).get();
            assertThat(endpoints).extracting(EndpointDescription::getSecurityPolicyUri)
                    .doesNotContain(SecurityPolicy.None.getUri())
                    .contains(SecurityPolicy.Basic256Sha256.getUri(), SecurityPolicy.Aes128_Sha256_RsaOaep.getUri(),
                            SecurityPolicy.Aes256_Sha256_RsaPss.getUri());

            OpcUaClient milo = connect(server, endpoints, trustedClient);
            try {
                int ns = server.namespaces().indexOf(NS);
                DataValue value = milo.readValue(0, TimestampsToReturn.Both, new NodeId(ns, "Line1.Speed"));
                assertThat(value.getValue().getValue()).isEqualTo(7.5);
            } finally {
                milo.disconnect();
            }
        });
    }

    @Test
    void an_untrusted_client_is_refused_and_its_certificate_lands_in_rejected() {
        contextRunner.run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            List<EndpointDescription> endpoints = DiscoveryClient.getEndpoints(server.endpointUrl()).get();
            assertThatThrownBy(() -> connect(server, endpoints, strangerClient)).isInstanceOf(Exception.class);
            try (Stream<Path> rejected = Files.list(pkiDir.resolve("rejected"))) {
                assertThat(rejected).isNotEmpty();
            }
        });
    }

    private static OpcUaClient connect(OpcUaServer server, List<EndpointDescription> endpoints,
            ApplicationCertificate certificate) throws Exception {
        EndpointDescription endpoint = endpoints.stream()
                .filter(e -> SecurityPolicy.Basic256Sha256.getUri().equals(e.getSecurityPolicyUri())
                        && e.getSecurityMode() == MessageSecurityMode.SignAndEncrypt)
                .findFirst().orElseThrow();
        OpcUaClientConfig config = MiloClients.secureConfig(endpoint, endpoints,
                server.applicationCertificate().certificate(), certificate, "milo secure e2e client", CLIENT_URI,
                new UsernameProvider("operator", "secret"));
        OpcUaClient milo = OpcUaClient.create(config);
        try {
            return milo.connect();
        } catch (Exception e) {
            milo.disconnect();
            throw e;
        }
    }
}
