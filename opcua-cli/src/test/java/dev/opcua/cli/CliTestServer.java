package dev.opcua.cli;

import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.history.HistorySample;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.InMemoryNodeManagerBuilder;
import dev.opcua.stack.server.roles.RoleMapper;
import dev.opcua.stack.server.roles.WellKnownRole;
import dev.opcua.stack.server.services.history.HistorySettings;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * Our server with a small plant for the commands to work on: variables of several types (writable), an array, a
 * folder of {@value #PARTS} parts to page through, a method, a historized variable with {@value #HISTORY} values
 * one second apart from {@link #T0}, a user {@value #USER}, a SecurityAdmin {@value #ADMIN}, and endpoints None and Basic256Sha256 SignAndEncrypt.
 */
final class CliTestServer implements AutoCloseable {

    static final String NS = "urn:test:cli:plant";
    static final String USER = "operator";
    static final String PASSWORD = "secret";
    /** A user with the SecurityAdmin role: may use push management. */
    static final String ADMIN = "admin";
    static final String ADMIN_PASSWORD = "a-secret";
    static final int PARTS = 30;
    static final int HISTORY = 20;
    static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final OpcUaServer server;
    private final AtomicLong ticks = new AtomicLong();
    private final Path pki;

    CliTestServer(Path pki) {
        this(pki, true);
    }

    /** @param acceptClients whether the server accepts client certificates it does not trust (else it rejects them) */
    CliTestServer(Path pki, boolean acceptClients) {
        this.pki = pki;
        InMemoryHistoryStore store = new InMemoryHistoryStore();
        InMemoryNodeManagerBuilder plant = InMemoryNodeManager.builder(NS)
                .object("Plant")
                .variable("Plant.Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(1.5)).writable()
                        .historizing())
                .variable("Plant.Count", BuiltinType.Int32, v -> v.value(Variant.ofInt32(7)).writable())
                .variable("Plant.Small", BuiltinType.Byte, v -> v.value(Variant.ofByte(1)).writable())
                .variable("Plant.Running", BuiltinType.Boolean, v -> v.value(Variant.ofBoolean(false)).writable())
                .variable("Plant.Name", BuiltinType.String, v -> v.value(Variant.ofString("line 1")).writable())
                .variable("Plant.Label", BuiltinType.LocalizedText, v -> v.value(Variant.ofScalar(
                        BuiltinType.LocalizedText, LocalizedText.of("en", "Line"))).writable())
                .variable("Plant.Curve", BuiltinType.Double, v -> v.valueRank(1)
                        .value(Variant.ofArray(BuiltinType.Double, new double[] {1, 2})).writable())
                .variable("Plant.Fixed", BuiltinType.Int32, v -> v.value(Variant.ofInt32(3)))
                .variable("Plant.Ticks", BuiltinType.Int64, v -> v.valueSupplier(
                        () -> Variant.ofInt64(ticks.incrementAndGet())))
                .folder("Plant.Parts")
                .method("Plant.Add", new Argument[] {argument("a"), argument("b")}, new Argument[] {argument("sum")},
                        (context, in) -> new Variant[] {Variant.ofInt32((Integer) in[0].value()
                                + (Integer) in[1].value())});
        for (int i = 0; i < PARTS; i++) {
            int value = i;
            plant.variable("Plant.Parts.P" + i, BuiltinType.Int32, v -> v.value(Variant.ofInt32(value)));
        }
        InMemoryNodeManager nodes = plant.build();
        server = OpcUaServer.builder()
                .applicationUri("urn:test:cli:server")
                .applicationName("cli test server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .security(List.of(EndpointSecurity.NONE,
                        new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt)))
                .pki(new PkiDirectory(pki))
                .certificateValidation(ValidationOptions.builder().autoAcceptUntrusted(acceptClients).build())
                .identityTypes(IdentityValidator.anyOf(IdentityValidator.anonymousOnly(),
                        UserNameIdentityValidator.of(Map.of(USER, PASSWORD, ADMIN, ADMIN_PASSWORD), true)),
                        EnumSet.of(UserTokenType.Anonymous, UserTokenType.UserName))
                .roleMapper(RoleMapper.byUserName(Map.of(ADMIN, EnumSet.of(WellKnownRole.SECURITY_ADMIN))))
                .history(store, HistorySettings.DEFAULT)
                .nodeManager(nodes)
                .build()
                .start();
        NodeId speed = nodes.nodeId("Plant.Speed");
        List<HistorySample> samples = new ArrayList<>();
        for (int i = 0; i < HISTORY; i++) {
            DateTime time = DateTime.ofInstant(T0.plusSeconds(i));
            samples.add(new HistorySample(speed, DataValue.of(Variant.ofDouble(i), StatusCode.GOOD, time, time)));
        }
        store.append(samples).join();
    }

    private static Argument argument(String name) {
        return new Argument(name, BuiltinType.Int32.dataTypeId(), -1, null, null);
    }

    String endpointUrl() {
        return server.endpointUrl();
    }

    int port() {
        return server.port();
    }

    OpcUaServer server() {
        return server;
    }

    /** A client PKI directory in {@code dir} that trusts this server's certificate. */
    Path trustingPki(Path dir) throws IOException {
        Path trusted = Files.createDirectories(dir.resolve("trusted").resolve("certs"));
        try (Stream<Path> own = Files.list(pki.resolve("own").resolve("certs"))) {
            for (Path certificate : own.toList()) {
                Files.copy(certificate, trusted.resolve(certificate.getFileName()));
            }
        }
        return dir;
    }

    /** The server's PKI directory. */
    Path pki() {
        return pki;
    }

    /** {@code nsu=<NS>;s=<path>}. */
    static String node(String path) {
        return "nsu=" + NS + ";s=" + path;
    }

    @Override
    public void close() {
        server.close();
    }
}
