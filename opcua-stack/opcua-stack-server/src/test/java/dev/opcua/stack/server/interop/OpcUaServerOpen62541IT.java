package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.TrustList;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.session.X509IdentityValidator;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * open62541 1.5.7's client ({@code interop_client}, see {@link Open62541Peer}) against our {@link OpcUaServer}:
 * for each {@link Open62541Case} it opens a session (Part 4, 5.6), reads an Int32 variable and writes it. Trust
 * goes both ways: our server accepts only the peer's certificate, the peer only ours; X.509 users must hold one of
 * the user certificates our server trusts (one per key kind). Skipped when the C programs
 * are not built.
 */
class OpcUaServerOpen62541IT {

    private static final String SERVER_URI = "urn:test:open62541:our-server";
    private static final String CLIENT_URI = "urn:open62541:interop:client";
    private static final String NAMESPACE = "urn:test:open62541:answers";

    @TempDir
    static Path files;

    private static OpcUaServer server;
    private static InMemoryNodeManager answers;
    private static final BlockingQueue<Object> written = new LinkedBlockingQueue<>();
    /** The session identity of each write, beside {@link #written}. */
    private static final BlockingQueue<Identity> writers = new LinkedBlockingQueue<>();
    private static final Map<PeerKey, java.security.cert.X509Certificate> users = new EnumMap<>(PeerKey.class);
    private static final AtomicInteger nextValue = new AtomicInteger(1000);
    private static final Map<PeerKey, PeerKey.KeyFiles> clientFiles = new EnumMap<>(PeerKey.class);
    private static final Map<PeerKey, PeerKey.KeyFiles> userFiles = new EnumMap<>(PeerKey.class);
    private static Path clientTrust;

    @BeforeAll
    static void startServer() {
        if (!Open62541Peer.available()) {
            return; // each test is skipped with the reason
        }
        List<ApplicationCertificate> serverCertificates = new ArrayList<>();
        List<java.security.cert.X509Certificate> clientCertificates = new ArrayList<>();
        List<java.security.cert.X509Certificate> userCertificates = new ArrayList<>();
        Open62541Case.sessions().map(Open62541Case::key).distinct().forEach(key -> {
            serverCertificates.add(key.certificate("our server", SERVER_URI));
            ApplicationCertificate certificate = key.certificate("open62541 client", CLIENT_URI);
            clientFiles.put(key, PeerKey.write(files, "client-" + key, certificate));
            clientCertificates.add(certificate.certificate());
            ApplicationCertificate user = Open62541Case.userCertificate(key);
            userFiles.put(key, PeerKey.write(files, "user-" + key, user));
            userCertificates.add(user.certificate());
            users.put(key, user.certificate());
        });
        clientTrust = PeerKey.trustDirectory(files.resolve("client-trust"), serverCertificates.stream()
                .map(ApplicationCertificate::certificate).toArray(java.security.cert.X509Certificate[]::new));

        answers = InMemoryNodeManager.builder(NAMESPACE).folder("the")
                .variable("the.answer", BuiltinType.Int32, v -> v.value(Variant.ofInt32(42)).writable()
                        .onWrite((context, value) -> {
                            writers.add(context.session().identity());
                            written.add(value.value());
                        }))
                .build();
        OpcUaServer.Builder builder = OpcUaServer.builder();
        serverCertificates.forEach(builder::certificate); // one per key kind: the ECC policies each need their curve's
        server = builder
                .applicationUri(SERVER_URI)
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .security(Open62541Case.endpoints(Open62541Case.sessions()))
                .clientCertificateValidator(new PkiCertificateValidator(
                        TrustList.trusting(clientCertificates.toArray(java.security.cert.X509Certificate[]::new)),
                        ValidationOptions.defaults()))
                .identityTypes(IdentityValidator.anyOf(IdentityValidator.anonymousOnly(),
                        UserNameIdentityValidator.of(Map.of(Open62541Case.USER, Open62541Case.PASSWORD), true),
                        X509IdentityValidator.anyTrusted()),
                        EnumSet.of(UserTokenType.Anonymous, UserTokenType.UserName, UserTokenType.Certificate))
                .userCertificateValidator(new PkiCertificateValidator(TrustList.trusting(userCertificates.toArray(
                        java.security.cert.X509Certificate[]::new)), ValidationOptions.defaults()))
                .nodeManager(answers)
                .build()
                .start();
    }

    @BeforeEach
    void peerBuilt() {
        Open62541Peer.assumeAvailable();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dev.opcua.stack.server.interop.Open62541Case#sessions")
    void open62541_s_client_reads_and_writes_over_a_session_with_our_server(Open62541Case session) throws Exception {
        int value = nextValue.incrementAndGet();
        List<String> args = new ArrayList<>(List.of("--endpoint", server.endpointUrl(),
                "--trust-dir", clientTrust.toString(),
                "--node", "ns=" + answers.namespaceIndex() + ";s=the.answer",
                "--write", String.valueOf(value), "--timeout", "30"));
        args.addAll(session.clientArguments(clientFiles.get(session.key()), userFiles.get(session.key())));
        written.clear();
        writers.clear();
        try (Open62541Peer client = Open62541Peer.start("interop_client", args)) {
            String result = client.awaitLine("RESULT ");
            assertThat(result).as(client.output()).matches("RESULT read=-?\\d+ write=Good");
            assertThat(client.awaitLine("CHANNEL ")).isEqualTo(session.channelLine());
            assertThat(client.exitCode()).as(client.output()).isZero();
        }
        assertThat(written.poll(Open62541Peer.WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(value);
        Identity writer = writers.poll();
        assertThat(writer.tokenType()).isEqualTo(session.tokenType());
        if (session.identity() == Open62541Case.Identity.X509) {
            assertThat(writer).isEqualTo(Identity.certificate(users.get(session.key())));
        }
    }
}
