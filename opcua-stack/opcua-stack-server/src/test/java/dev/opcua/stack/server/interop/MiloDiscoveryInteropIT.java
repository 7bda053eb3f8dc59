package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.testing.DiscoveryServerFixture;
import dev.opcua.stack.server.testing.LeakWatch;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.client.DiscoveryClient;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.structured.ApplicationDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client discovers our server over opc.tcp: Hello, OpenSecureChannel with
 * SecurityPolicy None, GetEndpoints or FindServers, CloseSecureChannel (Part 4, 5.4), also from a server
 * that offers secure endpoints only (Part 4, 5.4.1: discovery needs no message security).
 */
class MiloDiscoveryInteropIT {

    private static DiscoveryServerFixture server;

    @BeforeAll
    static void startServer() {
        LeakWatch.install();
        server = DiscoveryServerFixture.start();
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        server.close();
        LeakWatch.assertNoLeaks();
    }

    @Test
    void milo_gets_the_endpoints_of_our_server() throws Exception {
        List<EndpointDescription> endpoints = DiscoveryClient.getEndpoints(server.endpointUrl()).get(10, TimeUnit.SECONDS);

        assertThat(endpoints).singleElement().satisfies(endpoint -> {
            assertThat(endpoint.getEndpointUrl()).isEqualTo(server.endpointUrl());
            assertThat(endpoint.getSecurityPolicyUri()).isEqualTo(SecurityPolicy.None.getUri());
            assertThat(endpoint.getSecurityMode()).isEqualTo(MessageSecurityMode.None);
            assertThat(endpoint.getTransportProfileUri())
                    .isEqualTo("http://opcfoundation.org/UA-Profile/Transport/uatcp-uasc-uabinary");
            assertThat(endpoint.getServer().getApplicationUri()).isEqualTo(DiscoveryServerFixture.APPLICATION_URI);
            assertThat(endpoint.getServer().getApplicationName().text())
                    .isEqualTo(DiscoveryServerFixture.APPLICATION_NAME);
        });
    }

    @Test
    void endpoint_urls_name_the_host_milo_connected_to() throws Exception {
        String byAddress = "opc.tcp://127.0.0.1:" + server.port() + "/";

        List<EndpointDescription> endpoints = DiscoveryClient.getEndpoints(byAddress).get(10, TimeUnit.SECONDS);

        assertThat(endpoints).extracting(EndpointDescription::getEndpointUrl).containsExactly(byAddress);
    }

    @Test
    void milo_finds_our_server() throws Exception {
        List<ApplicationDescription> servers = DiscoveryClient.findServers(server.endpointUrl()).get(10, TimeUnit.SECONDS);

        assertThat(servers).singleElement().satisfies(description -> {
            assertThat(description.getApplicationUri()).isEqualTo(DiscoveryServerFixture.APPLICATION_URI);
            assertThat(description.getProductUri()).isEqualTo(DiscoveryServerFixture.PRODUCT_URI);
            assertThat(description.getDiscoveryUrls()).containsExactly(server.endpointUrl());
        });
    }

    @Test
    void milo_discovers_the_secure_endpoints_of_a_server_without_a_none_endpoint_over_none() throws Exception {
        try (OpcUaServer secureOnly = OpcUaServer.builder()
                .applicationUri("urn:test:secure-only")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .security(List.of(new EndpointSecurity(dev.opcua.stack.core.security.SecurityPolicy.Basic256Sha256,
                        dev.opcua.stack.core.types.enumerated.MessageSecurityMode.SignAndEncrypt)))
                .certificate(CertificateBuilder.forApplication("secure only").applicationUri("urn:test:secure-only")
                        .build())
                .clientCertificateValidator(CertificateValidator.acceptAll())
                .build()
                .start()) {
            List<EndpointDescription> endpoints = DiscoveryClient.getEndpoints(secureOnly.endpointUrl())
                    .get(10, TimeUnit.SECONDS);

            assertThat(endpoints).extracting(EndpointDescription::getSecurityPolicyUri)
                    .containsOnly(SecurityPolicy.Basic256Sha256.getUri());
        }
    }

    @Test
    void milo_leaves_no_connection_or_channel_behind() throws Exception {
        DiscoveryClient.getEndpoints(server.endpointUrl()).get(10, TimeUnit.SECONDS);

        // Milo closes its channel after the answer: the server sees the socket close a moment later
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).untilAsserted(() -> {
            assertThat(server.server().openConnections()).as("open connections").isZero();
            assertThat(server.server().secureChannels()).as("secure channels").isZero();
        });
    }
}
