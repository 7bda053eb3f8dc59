package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our {@link OpcUaClient} against open62541 1.5.7's server ({@code interop_server}, see {@link Open62541Peer}):
 * for each {@link Open62541Case} the client connects (GetEndpoints, secure channel, session; Part 4, 5.4 to 5.6),
 * reads the server's Int32 {@code ns=1;s=the.answer}, writes it and reads the written value back. The client
 * validates the server certificate through its PKI directory (trusted/certs holds it; the host name is checked);
 * the server trusts only the client's certificate and, for X.509 users ({@code --user-trust-dir}), only the user
 * certificates of this test. Skipped when the C programs are not built.
 */
class OpcUaClientOpen62541IT {

    static final String SERVER_URI = "urn:open62541:interop:server";
    static final String CLIENT_URI = "urn:test:open62541:our-client";
    static final NodeId THE_ANSWER = NodeId.parse("ns=1;s=the.answer");
    private static final long WAIT_SECONDS = Open62541Peer.WAIT.toSeconds();

    @TempDir
    static Path files;

    private static Open62541Peer server;
    private static String endpointUrl;
    private static final Map<PeerKey, ApplicationCertificate> clientCertificates = new EnumMap<>(PeerKey.class);
    private static final Map<PeerKey, ApplicationCertificate> userCertificates = new EnumMap<>(PeerKey.class);
    private static Path clientPki;
    private static final AtomicInteger nextValue = new AtomicInteger(2000);

    @BeforeAll
    static void startServer() throws Exception {
        if (!Open62541Peer.available()) {
            return; // each test is skipped with the reason
        }
        List<String> args = new ArrayList<>();
        List<X509Certificate> serverCertificates = new ArrayList<>();
        for (PeerKey key : Open62541Case.sessions().map(Open62541Case::key).distinct().toList()) {
            ApplicationCertificate certificate = key.certificate("open62541 server", SERVER_URI);
            PeerKey.KeyFiles written = PeerKey.write(files, "server-" + key, certificate);
            args.addAll(List.of("--cert", written.certificate().toString(), "--key", written.privateKey().toString()));
            serverCertificates.add(certificate.certificate());
            clientCertificates.put(key, key.certificate("our client", CLIENT_URI));
            userCertificates.put(key, Open62541Case.userCertificate(key));
        }
        clientPki = files.resolve("client-pki");
        PkiDirectory pki = new PkiDirectory(clientPki);
        for (int i = 0; i < serverCertificates.size(); i++) {
            Files.write(pki.trustedCertsDir().resolve("open62541-server-" + i + ".der"),
                    serverCertificates.get(i).getEncoded());
        }
        Path serverTrust = PeerKey.trustDirectory(files.resolve("server-trust"),
                clientCertificates.values().stream().map(ApplicationCertificate::certificate)
                        .toArray(X509Certificate[]::new));
        Path userTrust = PeerKey.trustDirectory(files.resolve("user-trust"),
                userCertificates.values().stream().map(ApplicationCertificate::certificate)
                        .toArray(X509Certificate[]::new));

        int port = freePort();
        args.addAll(List.of("--port", String.valueOf(port), "--host", "localhost", "--application-uri", SERVER_URI,
                "--trust-dir", serverTrust.toString(), "--user-trust-dir", userTrust.toString(),
                "--user", Open62541Case.USER + ":" + Open62541Case.PASSWORD));
        server = Open62541Peer.start("interop_server", args);
        server.awaitLine("READY ");
        endpointUrl = "opc.tcp://localhost:" + port;
    }

    @BeforeEach
    void peerBuilt() {
        Open62541Peer.assumeAvailable();
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        if (server != null) {
            server.close();
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        }
    }

    /**
     * Our client's configuration for a case: its certificate, PKI directory, policy, mode and identity ({@code user}
     * is the X.509 user's certificate, used only for {@link Open62541Case.Identity#X509}).
     */
    static OpcUaClientConfig.Builder clientConfig(String url, Open62541Case session, ApplicationCertificate certificate,
            ApplicationCertificate user, Path pkiDir) {
        return OpcUaClientConfig.builder(url)
                .applicationUri(CLIENT_URI)
                .certificate(certificate)
                .pkiDir(pkiDir)
                .security(session.securityPolicy(), session.mode())
                .identity(switch (session.identity()) {
                    case ANONYMOUS -> ClientIdentity.anonymous();
                    case USER_NAME -> ClientIdentity.userName(Open62541Case.USER, Open62541Case.PASSWORD);
                    case X509 -> ClientIdentity.x509(user);
                });
    }

    /** Reads the answer, writes {@code value} and reads it back; checks the endpoint the session runs on. */
    static void readWriteRead(OpcUaClient client, Open62541Case session, int value) throws Exception {
        assertThat(client.endpoint().securityPolicyUri()).isEqualTo(session.securityPolicy().uri());
        assertThat(client.endpoint().securityMode()).isEqualTo(session.mode());
        assertThat(client.session().userTokenPolicy().tokenType()).isEqualTo(session.tokenType());
        assertThat(client.readValue(THE_ANSWER).get(WAIT_SECONDS, TimeUnit.SECONDS).value().value())
                .isInstanceOf(Integer.class);
        StatusCode write = client.writeValue(THE_ANSWER, value).get(WAIT_SECONDS, TimeUnit.SECONDS);
        assertThat(write.isGood()).as("write answered %s", write).isTrue();
        assertThat(client.readValue(THE_ANSWER).get(WAIT_SECONDS, TimeUnit.SECONDS).value().value())
                .isEqualTo(value);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.opcua.stack.server.interop.Open62541Case#sessions")
    void our_client_reads_and_writes_over_a_session_with_open62541_s_server(Open62541Case session) throws Exception {
        OpcUaClient client = OpcUaClient.create(
                clientConfig(endpointUrl, session, clientCertificates.get(session.key()),
                        userCertificates.get(session.key()), clientPki).build());
        try {
            client.connect().get(WAIT_SECONDS, TimeUnit.SECONDS);
            readWriteRead(client, session, nextValue.incrementAndGet());
        } catch (Exception | AssertionError e) {
            throw new AssertionError(session + " failed: " + e + "\nopen62541 server " + server.output(), e);
        } finally {
            client.disconnect().get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
    }
}
