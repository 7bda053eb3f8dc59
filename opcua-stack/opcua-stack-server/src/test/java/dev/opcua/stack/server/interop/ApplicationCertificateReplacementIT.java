package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A server's application certificate replaced while it runs (a renewed certificate): new channels,
 * GetEndpoints and CreateSession present the new one and decrypt passwords with its key, while a
 * channel opened before keeps renewing its security token with the certificate it was opened with.
 */
class ApplicationCertificateReplacementIT {

    private static final String SERVER_URI = "urn:test:replacement:server";
    private static final String CLIENT_URI = "urn:test:replacement:client";
    private static final NodeId SERVER_STATE = NodeId.ns0(NodeIds.Server_ServerStatus_State);

    private final ApplicationCertificate first = CertificateBuilder.forApplication("replacement server")
            .applicationUri(SERVER_URI).hostNames("localhost").build();
    private final ApplicationCertificate renewed = CertificateBuilder.forApplication("replacement server")
            .applicationUri(SERVER_URI).hostNames("localhost").build();
    private final ApplicationCertificate clientCertificate = CertificateBuilder.forApplication("replacement client")
            .applicationUri(CLIENT_URI).build();
    private ClientResources resources;
    private OpcUaServer server;

    @BeforeEach
    void start() {
        resources = ClientResources.builder().ioThreads(1).build();
        server = OpcUaServer.builder()
                .applicationUri(SERVER_URI)
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .security(List.of(new EndpointSecurity(SecurityPolicy.Basic256Sha256,
                        MessageSecurityMode.SignAndEncrypt)))
                .certificate(first)
                .clientCertificateValidator(CertificateValidator.acceptAll())
                .identityTypes(UserNameIdentityValidator.of(Map.of("operator", "secret"), true),
                        EnumSet.of(UserTokenType.UserName))
                .build()
                .start();
    }

    @AfterEach
    void stop() {
        server.close();
        resources.close();
    }

    private OpcUaClient connected() throws Exception {
        OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder(server.endpointUrl())
                .applicationUri(CLIENT_URI)
                .certificate(clientCertificate)
                .acceptAnyServerCertificate(true)
                .identity(ClientIdentity.userName("operator", "secret"))
                .resources(resources)
                // renewals every 1.5 s: the first channel renews its token after the replacement
                .quotas(TransportQuotas.builder().securityTokenLifetime(Duration.ofSeconds(2)).build())
                .build());
        client.connect().get(10, TimeUnit.SECONDS);
        return client;
    }

    @Test
    void new_connections_get_the_new_certificate_while_an_open_channel_renews_with_its_own() throws Exception {
        OpcUaClient before = connected();
        try {
            assertThat(before.endpoint().serverCertificate()).isEqualTo(first.der());

            server.replaceApplicationCertificate(renewed);

            assertThat(server.applicationCertificate()).isSameAs(renewed);
            assertThat(server.endpoints()).allSatisfy(e -> assertThat(e.serverCertificate()).isEqualTo(renewed.der()));
            OpcUaClient after = connected();
            try {
                assertThat(after.endpoint().serverCertificate()).isEqualTo(renewed.der());
                assertThat(after.readValue(SERVER_STATE).get(10, TimeUnit.SECONDS).value().value()).isEqualTo(0);
            } finally {
                after.close();
            }
            // the first channel renews its token twice in 3.5 s (every 1.5 s), encrypted for the first certificate:
            // it stays connected all along, without a reconnect
            await("the first channel kept through two renewals").during(Duration.ofMillis(3_500))
                    .atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
                    .until(() -> before.state() == ClientState.CONNECTED && before.reconnects() == 0);
            assertThat(before.readValue(SERVER_STATE).get(10, TimeUnit.SECONDS).value().value()).isEqualTo(0);
        } finally {
            before.close();
        }
    }

    @Test
    void a_certificate_for_another_application_uri_is_refused() {
        ApplicationCertificate stranger = CertificateBuilder.forApplication("stranger")
                .applicationUri("urn:test:stranger").build();

        assertThatIllegalArgumentException().isThrownBy(() -> server.replaceApplicationCertificate(stranger))
                .withMessageContaining("urn:test:stranger").withMessageContaining(SERVER_URI);
        assertThat(server.applicationCertificate()).isSameAs(first);
    }
}
