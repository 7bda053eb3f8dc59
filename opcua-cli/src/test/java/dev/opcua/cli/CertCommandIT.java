package dev.opcua.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/** cert: the client's own certificate, the rejected list, and push management of the server. */
@ExtendWith(SharedServer.class)
class CertCommandIT {

    @Test
    void create_makes_the_clients_certificate_once_and_keeps_it(@TempDir Path pki) throws Exception {

        CliRun first = CliRun.of("cert", "create", "--pki", pki.toString(), "--hostname", "localhost");
        CliRun second = CliRun.of("cert", "create", "--pki", pki.toString(), "--json");

        assertThat(first.exitCode()).as(first.toString()).isZero();
        assertThat(first.out()).startsWith("created: ").contains("CN=opcua-cli");
        assertThat(pki.resolve("own/certs/opcua-cli.der")).exists();
        assertThat(pki.resolve("own/private/opcua-cli.pem")).exists();
        JsonNode kept = second.json().get(0);
        assertThat(kept.get("result").asText()).isEqualTo("exists");
        assertThat(first.out()).contains(kept.get("thumbprint").asText());
    }

    @Test
    void rejected_lists_the_server_certificates_this_client_did_not_trust(@TempDir Path pki) {
        CliRun none = CliRun.of("cert", "rejected", "--pki", pki.toString());
        CliRun.of("read", SharedServer.get().endpointUrl(), "i=2258", "--pki", pki.toString(), "--policy",
                "Basic256Sha256");
        CliRun one = CliRun.of("cert", "rejected", "--pki", pki.toString());

        assertThat(none.exitCode()).isZero();
        assertThat(none.err()).contains("no rejected certificates");
        assertThat(one.lines()).hasSize(1);
        assertThat(one.out()).startsWith("rejected: ").contains("CN=cli test server", pki.resolve("rejected").toString());
    }

    @Test
    void push_adds_a_certificate_to_the_servers_trust_list_as_a_security_admin(@TempDir Path dir) throws Exception {
        CliTestServer server = SharedServer.get();
        ApplicationCertificate stranger = CertificateBuilder.forApplication("stranger")
                .applicationUri("urn:test:stranger").build();
        Path strangerFile = dir.resolve("stranger.der");
        Files.write(strangerFile, stranger.certificate().getEncoded());
        Path pki = server.trustingPki(dir.resolve("pki"));
        List<String> secure = List.of("--pki", pki.toString(), "--policy", "Basic256Sha256", "--mode",
                "SignAndEncrypt");

        CliRun push = CliRun.of(args(List.of("cert", "push", server.endpointUrl(), "--add-trusted",
                strangerFile.toString(), "--show-rejected", "--user", CliTestServer.ADMIN, "--password",
                CliTestServer.ADMIN_PASSWORD), secure));
        CliRun refused = CliRun.of(args(List.of("cert", "push", server.endpointUrl(), "--add-trusted",
                strangerFile.toString(), "--user", CliTestServer.USER, "--password", CliTestServer.PASSWORD), secure));

        assertThat(push.exitCode()).as(push.toString()).isZero();
        assertThat(push.out()).contains("added to the server's trust list: CN=stranger");
        try (Stream<Path> trusted = Files.list(server.pki().resolve("trusted").resolve("certs"))) {
            assertThat(trusted.map(p -> p.getFileName().toString())).anyMatch(name -> name.startsWith("stranger"));
        }
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.BAD_STATUS);
        assertThat(refused.err()).contains("BadUserAccessDenied");
        assertThat(CertificateLoader.readCertificates(strangerFile)).hasSize(1);
    }

    private static String[] args(List<String> first, List<String> more) {
        return Stream.concat(first.stream(), more.stream()).toArray(String[]::new);
    }
}
