package dev.opcua.spring.boot.autoconfigure.ssl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.diagnostics.InvalidOpcUaPropertyFailureAnalyzer;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import dev.opcua.stack.server.OpcUaServer;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.time.Duration;
import java.util.List;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Application certificates of the server and of client connections from Spring SSL bundles (PEM and
 * PKCS#12), and a renewed certificate taken over when a bundle with reload-on-update reloads.
 */
class SslBundleCertificatesTest {

    private static final String SERVER_URI = "urn:test:ssl:server";
    private static final String CLIENT_URI = "urn:test:ssl:client";
    private static final String PLANT = "opcua.client.connections.plant.";

    @TempDir
    Path dir;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, OpcUaServerAutoConfiguration.class,
                    OpcUaClientAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=" + SERVER_URI, "opcua.server.security.auto-accept-untrusted=true");

    private static ApplicationCertificate certificate(String uri) {
        return CertificateBuilder.forApplication("ssl bundle test").applicationUri(uri).hostNames("localhost").build();
    }

    private Path pem(String name, ApplicationCertificate certificate) {
        Path certificateFile = dir.resolve(name + ".pem");
        CertificateLoader.writeCertificatesPem(List.of(certificate.certificate()), certificateFile);
        CertificateLoader.writePrivateKeyPem(certificate.privateKey(), dir.resolve(name + ".key"));
        return certificateFile;
    }

    private Path pkcs12(String name, ApplicationCertificate certificate) throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry(name, certificate.privateKey(), "secret".toCharArray(),
                new Certificate[] {certificate.certificate()});
        Path file = dir.resolve(name + ".p12");
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, "secret".toCharArray());
        }
        return file;
    }

    /** A wait for a bundle's reload: the file watcher's quiet period, then the reload, on a busy machine too. */
    private static ConditionFactory awaitReload(String what) {
        return await(what).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20));
    }

    @Test
    void the_server_takes_its_certificate_from_a_pem_bundle() {
        ApplicationCertificate own = certificate(SERVER_URI);
        pem("server", own);
        contextRunner.withPropertyValues(
                "spring.ssl.bundle.pem.opcua.keystore.certificate=file:" + dir.resolve("server.pem"),
                "spring.ssl.bundle.pem.opcua.keystore.private-key=file:" + dir.resolve("server.key"),
                "opcua.server.security.certificate.bundle=opcua",
                "opcua.server.security.pki-dir=" + dir.resolve("pki")).run(context -> {
                    assertThat(context).hasNotFailed();
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.applicationCertificate().certificate()).isEqualTo(own.certificate());
                    assertThat(server.endpoints()).isNotEmpty().allSatisfy(e -> assertThat(e.serverCertificate())
                            .isEqualTo(own.der()));
                });
    }

    @Test
    void the_server_takes_its_certificate_from_a_pkcs12_bundle_by_alias() throws Exception {
        ApplicationCertificate own = certificate(SERVER_URI);
        Path store = pkcs12("opcua", own);
        contextRunner.withPropertyValues(
                "spring.ssl.bundle.jks.opcua.keystore.location=file:" + store,
                "spring.ssl.bundle.jks.opcua.keystore.password=secret",
                "spring.ssl.bundle.jks.opcua.keystore.type=PKCS12",
                "spring.ssl.bundle.jks.opcua.key.alias=opcua",
                "opcua.server.security.certificate.bundle=opcua",
                "opcua.server.security.pki-dir=" + dir.resolve("pki")).run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(OpcUaServer.class).applicationCertificate().certificate())
                            .isEqualTo(own.certificate());
                });
    }

    @Test
    void a_reloaded_pem_bundle_replaces_the_servers_certificate() throws Exception {
        ApplicationCertificate first = certificate(SERVER_URI);
        ApplicationCertificate renewed = certificate(SERVER_URI);
        pem("server", first);
        contextRunner.withPropertyValues(
                "spring.ssl.bundle.watch.file.quiet-period=100ms",
                "spring.ssl.bundle.pem.opcua.reload-on-update=true",
                "spring.ssl.bundle.pem.opcua.keystore.certificate=file:" + dir.resolve("server.pem"),
                "spring.ssl.bundle.pem.opcua.keystore.private-key=file:" + dir.resolve("server.key"),
                "opcua.server.security.certificate.bundle=opcua",
                "opcua.server.security.pki-dir=" + dir.resolve("pki")).run(context -> {
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.applicationCertificate().certificate()).isEqualTo(first.certificate());

                    pem("server", renewed);

                    awaitReload("the renewed certificate in use")
                            .until(() -> server.applicationCertificate().certificate().equals(renewed.certificate()));
                    assertThat(server.endpoints()).allSatisfy(e -> assertThat(e.serverCertificate())
                            .isEqualTo(renewed.der()));
                });
    }

    @Test
    void a_client_connection_takes_its_certificate_from_a_bundle_and_a_reload() throws Exception {
        ApplicationCertificate first = certificate(CLIENT_URI);
        ApplicationCertificate renewed = certificate(CLIENT_URI);
        pem("client", first);
        contextRunner.withPropertyValues("opcua.server.enabled=false",
                "spring.ssl.bundle.watch.file.quiet-period=100ms",
                "spring.ssl.bundle.pem.client.reload-on-update=true",
                "spring.ssl.bundle.pem.client.keystore.certificate=file:" + dir.resolve("client.pem"),
                "spring.ssl.bundle.pem.client.keystore.private-key=file:" + dir.resolve("client.key"),
                PLANT + "endpoint-url=opc.tcp://localhost:4840/", PLANT + "connect-on-start=false",
                PLANT + "application-uri=" + CLIENT_URI, PLANT + "certificate.bundle=client").run(context -> {
                    OpcUaClient client = context.getBean(OpcUaClient.class);
                    assertThat(client.config().certificate().certificate()).isEqualTo(first.certificate());

                    pem("client", renewed);

                    awaitReload("the renewed client certificate for the next connection")
                            .until(() -> client.certificate().certificate().equals(renewed.certificate()));
                });
    }

    @Test
    void a_bundle_together_with_pem_files_is_refused_naming_both() {
        contextRunner.withPropertyValues("opcua.server.security.certificate.bundle=opcua",
                "opcua.server.security.certificate.pem-certificate=" + dir.resolve("x.pem"),
                "opcua.server.security.certificate.pem-private-key=" + dir.resolve("x.key")).run(context -> {
                    FailureAnalysis analysis = new InvalidOpcUaPropertyFailureAnalyzer()
                            .analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains("opcua.server.security.certificate.bundle")
                            .contains("pem-certificate or keystore is set too");
                });
    }

    @Test
    void an_unknown_bundle_is_refused_naming_it() {
        contextRunner.withPropertyValues("opcua.server.enabled=false",
                PLANT + "endpoint-url=opc.tcp://localhost:4840/", PLANT + "connect-on-start=false",
                PLANT + "certificate.bundle=missing").run(context -> {
                    FailureAnalysis analysis = new InvalidOpcUaPropertyFailureAnalyzer()
                            .analyze(context.getStartupFailure());
                    assertThat(analysis.getDescription()).contains(PLANT + "certificate.bundle")
                            .contains("\"missing\"").contains("there is no SSL bundle of that name");
                });
    }
}
