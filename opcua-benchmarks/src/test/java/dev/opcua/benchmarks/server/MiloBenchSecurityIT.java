package dev.opcua.benchmarks.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.discovery.DiscoveryClient;
import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.session.SessionOptions;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link MiloBenchServer} with {@code --pki}: endpoints, certificate and Milo's trust list. */
class MiloBenchSecurityIT {

    private static final String CLIENT_URI = "urn:dev.opcua:bench:test-client";

    @Test
    void with_a_pki_it_offers_every_policy_and_trusts_only_the_clients_in_trusted(@TempDir Path pki)
            throws Exception {
        ApplicationCertificate trusted = client("trusted client");
        ApplicationCertificate stranger = client("stranger");
        Path trustedCerts = Files.createDirectories(pki.resolve("trusted/certs"));
        Files.write(trustedCerts.resolve("trusted client.der"), Certificates.encode(trusted.certificate()));
        try (RunningBenchServer milo = MiloBenchServer.start(AddressSpaceChecks.options().withPki(pki, false));
                ClientResources resources = ClientResources.create()) {
            EndpointDescription[] endpoints = DiscoveryClient.getEndpoints(milo.endpointUrl(), TransportQuotas.DEFAULT,
                    resources).get(10, TimeUnit.SECONDS);
            List<String> offered = new ArrayList<>();
            for (EndpointDescription e : endpoints) {
                offered.add(SecurityPolicy.fromUri(e.securityPolicyUri()) + "/" + e.securityMode());
            }
            assertThat(offered).containsExactlyInAnyOrder("None/None", "Basic128Rsa15/Sign",
                    "Basic128Rsa15/SignAndEncrypt", "Basic256/Sign", "Basic256/SignAndEncrypt", "Basic256Sha256/Sign",
                    "Basic256Sha256/SignAndEncrypt", "Aes128_Sha256_RsaOaep/Sign",
                    "Aes128_Sha256_RsaOaep/SignAndEncrypt", "Aes256_Sha256_RsaPss/Sign",
                    "Aes256_Sha256_RsaPss/SignAndEncrypt");
            EndpointDescription encrypt = endpoints[offered.indexOf("Basic256Sha256/SignAndEncrypt")];
            List<X509Certificate> server = Certificates.decodeChain(encrypt.serverCertificate().unsafeBytes());
            assertThat(PkiCertificateValidator.applicationUriOf(server.get(0)))
                    .isEqualTo(MiloBenchServer.APPLICATION_URI);
            try (Stream<Path> own = Files.list(pki.resolve("own/certs"))) {
                assertThat(own).hasSize(1);
            }

            ClientChannelSecurity security = security(trusted, server);
            UaTcpClientChannel channel = UaTcpClientChannel.connect(milo.endpointUrl(), TransportQuotas.DEFAULT,
                    security, resources).get(10, TimeUnit.SECONDS);
            try {
                ClientSession session = ClientSession.open(channel, SessionOptions.builder()
                        .applicationUri(CLIENT_URI).build()).get(10, TimeUnit.SECONDS);
                session.close().get(10, TimeUnit.SECONDS);
            } finally {
                channel.close().get(10, TimeUnit.SECONDS);
            }
            assertThatThrownBy(() -> UaTcpClientChannel.connect(milo.endpointUrl(), TransportQuotas.DEFAULT,
                    security(stranger, server), resources).get(10, TimeUnit.SECONDS))
                    .isInstanceOf(ExecutionException.class);
        }
    }

    private static ApplicationCertificate client(String name) {
        return CertificateBuilder.forApplication(name).applicationUri(CLIENT_URI).build();
    }

    private static ClientChannelSecurity security(ApplicationCertificate client, List<X509Certificate> server) {
        return new ClientChannelSecurity(new EndpointSecurity(SecurityPolicy.Basic256Sha256,
                MessageSecurityMode.SignAndEncrypt), client, server, CertificateValidator.acceptAll());
    }
}
