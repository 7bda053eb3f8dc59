package dev.opcua.cli;

import static dev.opcua.cli.CliTestServer.node;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a person sees when the connection fails: the host, the port, the user or the certificate file named, exit
 * code 2; and the connection options that succeed: a user with a password or password file, security with a PKI
 * directory once the server's certificate is trusted, a profile file.
 */
@ExtendWith(SharedServer.class)
class ConnectionFailuresIT {

    private final CliTestServer server = SharedServer.get();
    private final String url = server.endpointUrl();

    @Test
    void an_unknown_host_is_named() {
        CliRun run = CliRun.of("read", "opc.tcp://no-such-host.invalid:4840", "i=2258");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CONNECTION);
        assertThat(run.err()).contains("unknown host 'no-such-host.invalid'");
    }

    @Test
    void a_port_where_nothing_listens_is_named() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        CliRun run = CliRun.of("read", "opc.tcp://127.0.0.1:" + port, "i=2258");

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CONNECTION);
        assertThat(run.err()).contains("127.0.0.1:" + port);
    }

    @Test
    void a_port_where_no_opc_ua_server_answers_times_out_naming_host_and_port() throws IOException {
        List<Socket> accepted = new ArrayList<>();
        try (ServerSocket silent = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
            Thread acceptor = new Thread(() -> {
                try {
                    while (true) {
                        accepted.add(silent.accept()); // accepts and never answers
                    }
                } catch (IOException closed) {
                    // the test is over
                }
            }, "silent-acceptor");
            acceptor.start();
            long start = System.nanoTime();
            CliRun run = CliRun.of("read", "opc.tcp://127.0.0.1:" + silent.getLocalPort(), "i=2258", "--timeout", "1s");
            long millis = (System.nanoTime() - start) / 1_000_000;

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CONNECTION);
            assertThat(run.err()).contains("127.0.0.1:" + silent.getLocalPort());
            assertThat(millis).isLessThan(10_000);
        } finally {
            for (Socket s : accepted) {
                s.close();
            }
        }
    }

    @Test
    void a_wrong_password_is_told_in_words(@TempDir Path dir) throws IOException {
        CliRun run = CliRun.of("read", url, "i=2258", "--user", CliTestServer.USER, "--password", "wrong", "--pki",
                server.trustingPki(dir).toString());

        assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CONNECTION);
        assertThat(run.err()).contains("refused user 'operator'").contains("wrong user name or password")
                .containsPattern("BadUserAccessDenied|BadIdentityTokenRejected");
    }

    @Test
    void the_right_password_from_a_file_connects(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("password"), CliTestServer.PASSWORD + "\n");

        CliRun run = CliRun.of("read", url, node("Plant.Fixed"), "--user", CliTestServer.USER, "--password-file",
                file.toString(), "--pki", server.trustingPki(dir.resolve("pki")).toString());

        assertThat(run.exitCode()).as(run.toString()).isZero();
    }

    @Test
    void a_user_without_password_and_no_terminal_to_ask_is_bad_usage() {
        CliRun run = CliRun.of("read", url, "i=2258", "--user", CliTestServer.USER);

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("--password", "--password-file");
    }

    @Test
    void an_untrusted_server_certificate_names_the_file_to_move_and_once_moved_connects(@TempDir Path pki)
            throws IOException {
        CliRun rejected = CliRun.of("read", url, node("Plant.Fixed"), "--pki", pki.toString(), "--policy",
                "Basic256Sha256", "--mode", "SignAndEncrypt");

        assertThat(rejected.exitCode()).as(rejected.toString()).isEqualTo(ExitCodes.CONNECTION);
        Path rejectedDir = pki.resolve("rejected");
        List<Path> files;
        try (var list = Files.list(rejectedDir)) {
            files = list.toList();
        }
        assertThat(files).hasSize(1);
        assertThat(rejected.err()).contains("not trusted", "move " + files.get(0),
                pki.resolve("trusted").resolve("certs").toString());

        CliRun trust = CliRun.of("cert", "trust", "--pki", pki.toString(), files.get(0).toString());
        assertThat(trust.exitCode()).as(trust.toString()).isZero();
        CliRun secure = CliRun.of("read", url, node("Plant.Fixed"), "--pki", pki.toString(), "--policy",
                "Basic256Sha256", "--mode", "SignAndEncrypt");
        assertThat(secure.exitCode()).as(secure.toString()).isZero();
        assertThat(secure.out()).contains("= 3  Good");
    }

    @Test
    void a_server_that_does_not_trust_this_client_says_which_certificate_to_trust_on_the_server(@TempDir Path dir)
            throws IOException {
        try (CliTestServer strict = new CliTestServer(dir.resolve("server"), false)) {
            Path pki = strict.trustingPki(dir.resolve("client"));

            CliRun run = CliRun.of("read", strict.endpointUrl(), "i=2258", "--pki", pki.toString(), "--policy",
                    "Basic256Sha256", "--mode", "SignAndEncrypt");

            assertThat(run.exitCode()).as(run.toString()).isEqualTo(ExitCodes.CONNECTION);
            assertThat(run.err()).contains("the server did not accept this client's certificate",
                    "on the server, trust " + pki.resolve("own/certs/opcua-cli.der"), "--add-trusted");
        }
    }

    @Test
    void a_bad_node_id_says_what_is_expected_before_connecting() {
        CliRun run = CliRun.of("read", "opc.tcp://no-such-host.invalid:4840", "ns=2;x=Speed");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("'ns=2;x=Speed' is not a node id", "ns=<index>;<i|s|g|b>=<id>",
                "nsu=<namespace URI>");
    }

    @Test
    void a_namespace_uri_the_server_does_not_have_is_named() {
        CliRun run = CliRun.of("read", url, "nsu=urn:nowhere;s=X");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("the server has no namespace 'urn:nowhere'", CliTestServer.NS);
    }

    @Test
    void the_options_of_a_profile_apply_and_options_given_win(@TempDir Path dir) throws Exception {
        String pki = server.trustingPki(dir.resolve("pki")).toString();
        Path yaml = Files.writeString(dir.resolve("plant.yaml"), "# the plant\nuser: " + CliTestServer.USER
                + "\npassword: \"" + CliTestServer.PASSWORD + "\"\njson: true\ntimeout: 5s\npki: " + pki + "\n");
        Path properties = Files.writeString(dir.resolve("plant.properties"), "user=" + CliTestServer.USER
                + "\npassword=wrong\npki=" + pki + "\n");

        CliRun fromYaml = CliRun.of("read", url, node("Plant.Fixed"), "--profile", yaml.toString());
        CliRun overridden = CliRun.of("read", url, node("Plant.Fixed"), "--profile", properties.toString(),
                "--password", CliTestServer.PASSWORD);

        assertThat(fromYaml.exitCode()).as(fromYaml.toString()).isZero();
        assertThat(fromYaml.json().get(0).get("value").asInt()).isEqualTo(3);
        assertThat(overridden.exitCode()).as(overridden.toString()).isZero();
    }

    @Test
    void a_profile_key_that_is_no_option_is_named_with_the_allowed_keys(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("bad.properties"), "usr=operator\n");

        CliRun run = CliRun.of("read", url, "i=2258", "--profile", file.toString());

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("[usr]", "allowed:", "user", "password-file", "pki");
    }
}
