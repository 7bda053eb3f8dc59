package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.ReverseConnectListener;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.TrustList;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
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
 * Reverse connect (Part 6, 7.1.3) with open62541 1.5.7 in both roles, for each {@link Open62541Case}: our server
 * dials {@code interop_client --reverse-listen}, which opens its session over the connections our server makes;
 * {@code interop_server --reverse-connect} dials our {@link ReverseConnectListener}, over which our
 * {@link OpcUaClient} opens its session. Either client reads and writes an Int32 variable. open62541's client
 * calls GetEndpoints over a None channel on the first connection and, for a secure endpoint, closes it and takes
 * the server's next connection for the secure channel, so our server must dial again (it keeps one connection
 * ready). Skipped when the C programs are not built.
 */
class ReverseConnectOpen62541IT {

    private static final String OUR_SERVER_URI = "urn:test:open62541:our-reverse-server";
    private static final String THEIR_CLIENT_URI = "urn:open62541:interop:client";
    private static final long WAIT_SECONDS = Open62541Peer.WAIT.toSeconds();

    @TempDir
    static Path files;

    private static ClientResources resources;
    private static final AtomicInteger nextValue = new AtomicInteger(3000);

    @BeforeAll
    static void resources() {
        if (!Open62541Peer.available()) {
            return; // each test is skipped with the reason
        }
        resources = ClientResources.builder().threadNamePrefix("open62541-reverse-it").build();
    }

    @BeforeEach
    void peerBuilt() {
        Open62541Peer.assumeAvailable();
    }

    @AfterAll
    static void closeResources() {
        if (resources != null) {
            resources.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.opcua.stack.server.interop.Open62541Case#sessionsWithoutX509")
    void our_server_dials_open62541_s_listening_client_which_reads_and_writes_over_a_session(Open62541Case session)
            throws Exception {
        Path dir = Files.createTempDirectory(files, "server-dials");
        ApplicationCertificate ours = session.key().certificate("our reverse server", OUR_SERVER_URI);
        ApplicationCertificate theirs = session.key().certificate("open62541 reverse client", THEIR_CLIENT_URI);
        PeerKey.KeyFiles theirFiles = PeerKey.write(dir, "client", theirs);
        Path clientTrust = PeerKey.trustDirectory(dir.resolve("client-trust"), ours.certificate());
        InMemoryNodeManager answers = InMemoryNodeManager.builder("urn:test:open62541:reverse-answers").folder("the")
                .variable("the.answer", BuiltinType.Int32, v -> v.value(Variant.ofInt32(42)).writable())
                .build();

        // our server dials until the client listens (every 200 ms), so it can start first and name the node's
        // namespace index
        int port = OpcUaClientOpen62541IT.freePort();
        OpcUaServer server = OpcUaServer.builder().applicationUri(OUR_SERVER_URI)
                .bindAddress("127.0.0.1").port(0).hostnames(List.of("localhost"))
                .security(Open62541Case.endpoints(java.util.stream.Stream.of(session)))
                .certificate(ours)
                .clientCertificateValidator(new PkiCertificateValidator(TrustList.trusting(theirs.certificate()),
                        ValidationOptions.defaults()))
                .identityTypes(UserNameIdentityValidator.of(Map.of(Open62541Case.USER, Open62541Case.PASSWORD), true),
                        EnumSet.of(UserTokenType.Anonymous, UserTokenType.UserName))
                .nodeManager(answers)
                .reverseConnect(List.of("opc.tcp://127.0.0.1:" + port), Duration.ofMillis(200), 1)
                .build().start();
        int value = nextValue.incrementAndGet();
        List<String> args = new ArrayList<>(List.of("--reverse-listen", String.valueOf(port),
                "--trust-dir", clientTrust.toString(), "--write", String.valueOf(value), "--timeout", "40",
                "--node", "ns=" + answers.namespaceIndex() + ";s=the.answer"));
        args.addAll(session.clientArguments(theirFiles, null));
        try (Open62541Peer client = Open62541Peer.start("interop_client", args)) {
            assertThat(client.awaitLine("RESULT ")).as(client.output()).matches("RESULT read=42 write=Good");
            assertThat(client.awaitLine("CHANNEL ")).isEqualTo(session.channelLine());
            assertThat(client.exitCode()).as(client.output()).isZero();
            // a secure session needs a second connection: the first carried open62541's GetEndpoints
            long connections = session.mode() == MessageSecurityMode.None ? 1 : 2;
            assertThat(server.statistics().reverseConnect().taken()).isGreaterThanOrEqualTo(connections);
        } finally {
            server.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.opcua.stack.server.interop.Open62541Case#sessionsWithoutX509")
    void open62541_s_server_dials_our_listener_over_which_our_client_reads_and_writes(Open62541Case session)
            throws Exception {
        Path dir = Files.createTempDirectory(files, "listener");
        ApplicationCertificate theirs = session.key().certificate("open62541 reverse server",
                OpcUaClientOpen62541IT.SERVER_URI);
        ApplicationCertificate ours = session.key().certificate("our reverse client", OpcUaClientOpen62541IT.CLIENT_URI);
        PeerKey.KeyFiles theirFiles = PeerKey.write(dir, "server", theirs);
        Path serverTrust = PeerKey.trustDirectory(dir.resolve("server-trust"), ours.certificate());
        Path pkiDir = dir.resolve("client-pki");
        Files.write(new PkiDirectory(pkiDir).trustedCertsDir().resolve("open62541-server.der"),
                theirs.certificate().getEncoded());

        int port = OpcUaClientOpen62541IT.freePort();
        try (ReverseConnectListener listener = ReverseConnectListener.listen("127.0.0.1", 0, resources)) {
            listener.expect(OpcUaClientOpen62541IT.SERVER_URI, null);
            try (Open62541Peer server = Open62541Peer.start("interop_server", List.of("--port", String.valueOf(port),
                    "--host", "localhost", "--application-uri", OpcUaClientOpen62541IT.SERVER_URI,
                    "--cert", theirFiles.certificate().toString(), "--key", theirFiles.privateKey().toString(),
                    "--trust-dir", serverTrust.toString(),
                    "--user", Open62541Case.USER + ":" + Open62541Case.PASSWORD,
                    "--reverse-connect", "opc.tcp://127.0.0.1:" + listener.port(), "--reverse-interval", "200"))) {
                server.awaitLine("READY ");
                OpcUaClient client = OpcUaClient.create(OpcUaClientOpen62541IT.clientConfig(
                        "opc.tcp://localhost:" + port, session, ours, null, pkiDir)
                        .reverseConnect(listener, OpcUaClientOpen62541IT.SERVER_URI).resources(resources).build());
                try {
                    client.connect().get(WAIT_SECONDS, TimeUnit.SECONDS);
                    OpcUaClientOpen62541IT.readWriteRead(client, session, nextValue.incrementAndGet());
                } catch (Exception | AssertionError e) {
                    throw new AssertionError(session + " failed: " + e + "\nopen62541 server " + server.output(), e);
                } finally {
                    client.disconnect().get(WAIT_SECONDS, TimeUnit.SECONDS);
                }
                assertThat(listener.statistics().accepted()).isGreaterThanOrEqualTo(1);
            }
        }
    }
}
