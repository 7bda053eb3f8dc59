package dev.opcua.stack.server.discovery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.opcua.stack.client.discovery.DiscoveryClient;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.testing.TestSessions;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server that offers no None endpoint still answers GetEndpoints and FindServers over a None
 * channel (Part 4, 5.4.1: DiscoveryEndpoints shall not require message security), so that clients
 * can discover its secure endpoints; every other service on such a channel is refused with
 * BadSecurityPolicyRejected. Checked with our discovery client here, with Eclipse Milo 1.1.2's in
 * {@code MiloDiscoveryInteropIT}.
 */
class DiscoveryOverNoneTest {

    private static OpcUaServer server;
    private static ClientResources resources;

    @BeforeAll
    static void start() {
        server = OpcUaServer.builder()
                .applicationUri("urn:test:secure-only")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .security(List.of(new EndpointSecurity(SecurityPolicy.Basic256Sha256,
                        MessageSecurityMode.SignAndEncrypt)))
                .certificate(CertificateBuilder.forApplication("secure only").applicationUri("urn:test:secure-only")
                        .build())
                .clientCertificateValidator(CertificateValidator.acceptAll())
                .build()
                .start();
        resources = ClientResources.create();
    }

    @AfterAll
    static void stop() {
        if (resources != null) {
            resources.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void get_endpoints_over_none_lists_only_the_secure_endpoints() throws Exception {
        EndpointDescription[] endpoints = DiscoveryClient.getEndpoints(server.endpointUrl()).get(10, TimeUnit.SECONDS);
        assertThat(endpoints).isNotEmpty().allSatisfy(e -> {
            assertThat(e.securityPolicyUri()).isEqualTo(SecurityPolicy.Basic256Sha256.uri());
            assertThat(e.securityMode()).isEqualTo(MessageSecurityMode.SignAndEncrypt);
        });
        assertThat(DiscoveryClient.findServers(server.endpointUrl()).get(10, TimeUnit.SECONDS))
                .extracting(a -> a.applicationUri()).containsExactly("urn:test:secure-only");
    }

    @Test
    void a_session_over_none_is_refused_with_bad_security_policy_rejected() throws Exception {
        UaTcpClientChannel channel = UaTcpClientChannel.connect(server.endpointUrl(), TransportQuotas.DEFAULT,
                resources).get(10, TimeUnit.SECONDS);
        try {
            Throwable refused = catchThrowable(() -> TestSessions.open(channel, server.endpointUrl()));
            Throwable cause = refused;
            while (cause != null && !(cause instanceof UaException)) {
                cause = cause.getCause();
            }
            assertThat(cause).as("failure of CreateSession over None: %s", refused).isInstanceOf(UaException.class);
            assertThat(((UaException) cause).statusCode())
                    .isEqualTo(StatusCode.of(StatusCodes.BadSecurityPolicyRejected));
            assertThat(server.statistics().sessions()).isEmpty();
        } finally {
            channel.close().get(10, TimeUnit.SECONDS);
        }
    }
}
