package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.core.types.structured.BrowsePath;
import dev.opcua.stack.core.types.structured.BrowsePathResult;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import dev.opcua.stack.core.types.structured.RelativePath;
import dev.opcua.stack.core.types.structured.RelativePathElement;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.InMemoryNodeManagerBuilder;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.testing.LeakWatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Our {@link OpcUaClient} against our {@link OpcUaServer}: endpoint selection and server-certificate
 * trust through the client's PKI directory, the services with requests split by the server's
 * OperationLimits, BrowseNext followed, Java values converted (or refused) before a Write, {@code nsu=}
 * node ids, and reconnect after the server restarts on the same port.
 */
class OpcUaClientOnOpcUaServerIT {

    /** How long a reconnect or a data change may take, and how often the test looks. */
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final Duration POLL = Duration.ofMillis(10);

    private static final String NS = "urn:test:client:plant";
    private static final int READ_LIMIT = 4;
    private static final int CHILDREN = 30;
    private static final String USER = "operator";
    private static final String PASSWORD = "secret";

    @TempDir
    static Path serverPki;
    @TempDir
    Path clientPki;

    private static ClientResources resources;
    private static OpcUaServer server;
    private static int port;
    private static final AtomicInteger writes = new AtomicInteger();
    private OpcUaClient client;

    @BeforeAll
    static void startServer() {
        LeakWatch.install();
        resources = ClientResources.builder().ioThreads(1).build();
        server = startServer(0);
        port = server.port();
    }

    /** The server as a process would start it, on {@code port} (0: any). */
    private static OpcUaServer startServer(int port) {
        InMemoryNodeManagerBuilder plant = InMemoryNodeManager.builder(NS)
                .object("Plant")
                .variable("Plant.Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(1.5))
                        .onWrite((context, value) -> writes.incrementAndGet()))
                .variable("Plant.Count", BuiltinType.Int32, v -> v.value(Variant.ofInt32(0)).writable())
                .variable("Plant.Small", BuiltinType.Byte, v -> v.value(Variant.ofByte(1)).writable())
                .variable("Plant.Timeout", NodeId.ns0(NodeIds.Duration), v -> v.value(Variant.ofDouble(1000)).writable())
                .variable("Plant.Curve", BuiltinType.Double, v -> v.valueRank(1)
                        .value(Variant.ofArray(BuiltinType.Double, new double[] {1, 2})).writable())
                .folder("Plant.Parts")
                .method("Plant.Add", new Argument[] {argument("a"), argument("b")}, new Argument[] {argument("sum")},
                        (context, in) -> new Variant[] {Variant.ofInt32((Integer) in[0].value() + (Integer) in[1].value())});
        for (int i = 0; i < CHILDREN; i++) {
            int value = i;
            plant.variable("Plant.Parts.P" + i, BuiltinType.Int32, v -> v.value(Variant.ofInt32(value)));
        }
        return OpcUaServer.builder()
                .applicationUri("urn:test:client:server")
                .applicationName("client test server")
                .bindAddress("127.0.0.1")
                .port(port)
                .hostnames(List.of("localhost"))
                .requests(2, 4, 100)
                .security(List.of(EndpointSecurity.NONE,
                        new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.Sign),
                        new EndpointSecurity(SecurityPolicy.Aes128_Sha256_RsaOaep, MessageSecurityMode.SignAndEncrypt)))
                .pki(new PkiDirectory(serverPki))
                .certificateValidation(dev.opcua.stack.core.security.pki.ValidationOptions.builder()
                        .autoAcceptUntrusted(true).build())
                .identityTypes(IdentityValidator.anyOf(IdentityValidator.anonymousOnly(),
                        UserNameIdentityValidator.of(Map.of(USER, PASSWORD), true)),
                        EnumSet.of(UserTokenType.Anonymous, UserTokenType.UserName))
                .operationLimits(new OperationLimits(READ_LIMIT, 3, 2, 2, 2, 2, 0))
                .nodeManager(plant.build())
                .build()
                .start();
    }

    private static Argument argument(String name) {
        return new Argument(name, BuiltinType.Int32.dataTypeId(), -1, null, null);
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        try {
            if (server != null) {
                server.close();
            }
        } finally {
            resources.close();
        }
        LeakWatch.assertNoLeaks();
    }

    @BeforeEach
    void noClientYet() {
        client = null;
    }

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    private OpcUaClientConfig.Builder config() {
        return OpcUaClientConfig.builder(server.endpointUrl()).applicationUri("urn:test:client:client")
                .applicationName("client test client").resources(resources).requestTimeout(Duration.ofSeconds(5))
                .reconnectDelays(Duration.ofMillis(50), Duration.ofMillis(400));
    }

    private OpcUaClient connected(OpcUaClientConfig config) throws Exception {
        client = OpcUaClient.create(config);
        client.connect().get(10, TimeUnit.SECONDS);
        return client;
    }

    private NodeId node(String path) {
        return client.nodeId("nsu=" + NS + ";s=" + path);
    }

    // ---- endpoint selection and trust ---------------------------------------------------------------

    @Test
    void without_a_certificate_the_client_connects_over_none_and_tells_each_state_change() throws Exception {
        List<String> changes = Collections.synchronizedList(new ArrayList<>());
        client = OpcUaClient.create(config().build());
        client.addStateListener((previous, current, cause) -> changes.add(previous + "->" + current));

        client.connect().get(10, TimeUnit.SECONDS);

        assertThat(client.state()).isEqualTo(ClientState.CONNECTED);
        assertThat(client.endpoint().securityPolicyUri()).isEqualTo(SecurityPolicy.None.uri());
        assertThat(client.namespaces().indexOf(NS)).isPositive();
        assertThat(client.operationLimits().maxNodesPerRead()).isEqualTo(READ_LIMIT);
        client.disconnect().get(10, TimeUnit.SECONDS);
        await().atMost(WAIT).pollInterval(POLL).until(() -> changes.size() == 3);
        assertThat(changes).containsExactly("DISCONNECTED->CONNECTING", "CONNECTING->CONNECTED",
                "CONNECTED->DISCONNECTED");
        assertFailsWith(client.readValue(NodeId.ns0(NodeIds.Server_ServerStatus_State)), StatusCodes.BadNotConnected,
                "not connected");
    }

    @Test
    void an_untrusted_server_certificate_is_refused_and_copied_to_rejected_until_it_is_moved_to_trusted() throws Exception {
        client = OpcUaClient.create(config().pkiDir(clientPki).build());

        assertFailsWith(client.connect(), StatusCodes.BadCertificateUntrusted, "");
        assertThat(client.state()).isEqualTo(ClientState.DISCONNECTED);
        List<Path> rejected;
        try (Stream<Path> files = Files.list(clientPki.resolve("rejected"))) {
            rejected = files.toList();
        }
        assertThat(rejected).hasSize(1);

        Files.move(rejected.get(0), clientPki.resolve("trusted/certs").resolve(rejected.get(0).getFileName()));
        // the client's PKI directory looks again once its reload interval (1 s) has passed; until then the
        // certificate is refused as before
        await().atMost(WAIT).pollInterval(Duration.ofMillis(200))
                .ignoreExceptionsMatching(OpcUaClientOnOpcUaServerIT::untrusted)
                .untilAsserted(() -> client.connect().get(10, TimeUnit.SECONDS));

        // the most secure endpoint the server offers: Aes128_Sha256_RsaOaep SignAndEncrypt
        assertThat(client.endpoint().securityPolicyUri()).isEqualTo(SecurityPolicy.Aes128_Sha256_RsaOaep.uri());
        assertThat(client.endpoint().securityMode()).isEqualTo(MessageSecurityMode.SignAndEncrypt);
        assertThat(client.blocking().readValue(node("Plant.Count")).statusCode().isGood()).isTrue();
    }

    @Test
    void a_user_name_is_activated_over_the_chosen_secure_endpoint() throws Exception {
        connected(config().pkiDir(clientPki).acceptAnyServerCertificate(true)
                .security(SecurityPolicy.Basic256Sha256, MessageSecurityMode.Sign)
                .identity(ClientIdentity.userName(USER, PASSWORD)).build());

        UserTokenPolicy policy = client.session().userTokenPolicy();
        assertThat(policy.tokenType()).isEqualTo(UserTokenType.UserName);
        assertThat(client.endpoint().securityMode()).isEqualTo(MessageSecurityMode.Sign);
        assertThat(client.blocking().readValue(node("Plant.Count")).statusCode().isGood()).isTrue();
    }

    @Test
    void a_policy_the_server_does_not_offer_fails_the_connect_naming_what_it_offers() {
        client = OpcUaClient.create(config().pkiDir(clientPki).acceptAnyServerCertificate(true)
                .security(SecurityPolicy.Aes256_Sha256_RsaPss, MessageSecurityMode.SignAndEncrypt).build());

        assertFailsWith(client.connect(), StatusCodes.BadSecurityPolicyRejected, "Aes128_Sha256_RsaOaep/SignAndEncrypt");
    }

    // ---- services ---------------------------------------------------------------------------------

    @Test
    void reads_larger_than_max_nodes_per_read_are_split_and_joined_in_order() throws Exception {
        connected(config().build());
        List<NodeId> ids = IntStream.range(0, CHILDREN).mapToObj(i -> node("Plant.Parts.P" + i)).toList();

        List<DataValue> values = client.readValues(ids).get(10, TimeUnit.SECONDS);

        assertThat(values).extracting(v -> v.value().value())
                .containsExactlyElementsOf(IntStream.range(0, CHILDREN).boxed().toList());
    }

    @Test
    void write_value_converts_java_values_to_the_variables_data_type_and_refuses_what_does_not_fit_before_sending() throws Exception {
        connected(config().build());

        assertThat(client.blocking().writeValue(node("Plant.Speed"), 42)).isEqualTo(StatusCode.GOOD);
        assertThat(client.blocking().readValue(node("Plant.Speed")).value()).isEqualTo(Variant.ofDouble(42));
        assertThat(client.blocking().writeValue(node("Plant.Timeout"), 2500.0f)).isEqualTo(StatusCode.GOOD);
        assertThat(client.blocking().writeValue(node("Plant.Curve"), List.of(3, 4.5))).isEqualTo(StatusCode.GOOD);
        assertThat(client.blocking().readValue(node("Plant.Curve")).value())
                .isEqualTo(Variant.ofArray(BuiltinType.Double, new double[] {3, 4.5}));
        int writesBefore = writes.get();

        assertThatThrownBy(() -> client.blocking().writeValue(node("Plant.Speed"), "fast"))
                .isInstanceOf(UaException.class).hasMessageContaining("BadTypeMismatch")
                .hasMessageContaining("java.lang.String").hasMessageContaining("Double");
        assertThatThrownBy(() -> client.blocking().writeValue(node("Plant.Small"), 300))
                .isInstanceOf(UaException.class).hasMessageContaining("BadTypeMismatch").hasMessageContaining("Byte");
        assertThatThrownBy(() -> client.blocking().writeValue(node("Plant.Count"), 1.5))
                .isInstanceOf(UaException.class).hasMessageContaining("BadTypeMismatch");
        assertThat(writes.get()).as("writes that reached the server").isEqualTo(writesBefore);
    }

    @Test
    void browse_follows_browse_next_to_the_end_and_browse_each_delivers_page_by_page() throws Exception {
        connected(config().build());
        NodeId parts = node("Plant.Parts");

        List<BrowseResult> results = client.browse(List.of(OpcUaClient.hierarchical(parts)), 7).get(10, TimeUnit.SECONDS);
        List<Integer> pages = new ArrayList<>();
        List<ReferenceDescription> streamed = new ArrayList<>();
        client.browseEach(OpcUaClient.hierarchical(parts), 7, page -> {
            pages.add(page.size());
            streamed.addAll(page);
        }).get(10, TimeUnit.SECONDS);

        assertThat(results.get(0).references()).hasSize(CHILDREN);
        assertThat(results.get(0).continuationPoint().isNull()).isTrue();
        assertThat(pages).containsExactly(7, 7, 7, 7, 2);
        assertThat(streamed).extracting(r -> r.browseName().name())
                .containsExactlyInAnyOrderElementsOf(IntStream.range(0, CHILDREN).mapToObj(i -> "P" + i).toList());
        assertThat(client.browse(node("Plant")).get(10, TimeUnit.SECONDS)).extracting(r -> r.browseName().name())
                .contains("Speed", "Parts", "Add");
    }

    @Test
    void call_translate_and_register_work_over_their_limits() throws Exception {
        connected(config().build());
        int ns = client.namespaces().indexOf(NS);

        Variant[] sum = client.call(node("Plant"), node("Plant.Add"), 20, 22).get(10, TimeUnit.SECONDS);
        List<BrowsePath> paths = IntStream.range(0, 5).mapToObj(i -> new BrowsePath(node("Plant"),
                new RelativePath(new RelativePathElement[] {element(ns, "Parts"), element(ns, "P" + i)}))).toList();
        List<BrowsePathResult> translated = client.translateBrowsePaths(paths).get(10, TimeUnit.SECONDS);
        List<NodeId> registered = client.registerNodes(List.of(node("Plant.Speed"), node("Plant.Count"),
                node("Plant.Small"))).get(10, TimeUnit.SECONDS);

        assertThat(sum).containsExactly(Variant.ofInt32(42));
        assertThat(translated).extracting(r -> r.targets()[0].targetId().nodeId())
                .containsExactlyElementsOf(IntStream.range(0, 5).mapToObj(i -> node("Plant.Parts.P" + i)).toList());
        assertThat(registered).hasSize(3);
        client.unregisterNodes(registered).get(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> client.nodeId("nsu=urn:no:such;s=X")).isInstanceOf(UaException.class)
                .hasMessageContaining("BadNodeIdUnknown").hasMessageContaining("urn:no:such");
    }

    private static RelativePathElement element(int ns, String name) {
        return new RelativePathElement(NodeId.ns0(NodeIds.HierarchicalReferences), false, true,
                QualifiedName.of(ns, name));
    }

    // ---- reconnect --------------------------------------------------------------------------------

    @Test
    void after_the_server_restarts_the_client_reconnects_with_a_new_session_and_waiting_requests_go_through() throws Exception {
        connected(config().keepAliveInterval(Duration.ofMillis(200)).build());
        List<ClientState> states = Collections.synchronizedList(new ArrayList<>());
        client.addStateListener((previous, current, cause) -> states.add(current));
        NodeId before = client.session().sessionId();

        server.close();
        await().atMost(WAIT).pollInterval(POLL).until(() -> client.state() == ClientState.RECONNECTING);
        CompletableFuture<DataValue> waiting = client.readValue(NodeId.ns0(NodeIds.Server_ServerStatus_State));
        // the Read waits for the server: a client that answered it would have done so at once, well inside 300 ms
        await().during(Duration.ofMillis(300)).atMost(WAIT).pollInterval(POLL).until(() -> !waiting.isDone());
        server = startServer(port);

        assertThat(waiting.get(10, TimeUnit.SECONDS).statusCode().isGood()).isTrue();
        await().atMost(WAIT).pollInterval(POLL).until(() -> client.state() == ClientState.CONNECTED);
        assertThat(client.session().sessionId()).isNotEqualTo(before);
        assertThat(client.reconnects()).isEqualTo(1);
        assertThat(client.blocking().readValue(node("Plant.Count")).statusCode().isGood()).isTrue();
        assertThat(states).startsWith(ClientState.RECONNECTING).endsWith(ClientState.CONNECTED);
    }

    @Test
    void requests_fail_fast_while_reconnecting_when_configured_so() throws Exception {
        connected(config().whileReconnecting(OpcUaClientConfig.WhileReconnecting.FAIL_FAST)
                .keepAliveInterval(Duration.ofMillis(200)).build());

        server.close();
        try {
            await().atMost(WAIT).pollInterval(POLL).until(() -> client.state() == ClientState.RECONNECTING);
            assertFailsWith(client.readValue(NodeId.ns0(NodeIds.Server_ServerStatus_State)), StatusCodes.BadNotConnected,
                    "RECONNECTING");
        } finally {
            server = startServer(port);
        }
        await().atMost(WAIT).pollInterval(POLL).until(() -> client.state() == ClientState.CONNECTED);
    }

    @Test
    void a_subscription_delivers_data_changes_and_is_recreated_after_the_server_restarts() throws Exception {
        connected(config().keepAliveInterval(Duration.ofMillis(200)).build());
        List<Object> values = Collections.synchronizedList(new ArrayList<>());
        ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(50))
                .get(10, TimeUnit.SECONDS);
        subscription.createDataItem(DataItemRequest.of(node("Plant.Count"), 20,
                (item, value) -> values.add(value.value().value()))).get(10, TimeUnit.SECONDS);
        client.blocking().writeValue(node("Plant.Count"), 7);
        await().atMost(WAIT).pollInterval(POLL).until(() -> values.contains(7));
        long before = subscription.subscriptionId();

        server.close();
        await().atMost(WAIT).pollInterval(POLL).until(() -> client.state() == ClientState.RECONNECTING);
        server = startServer(port);
        await().atMost(WAIT).pollInterval(POLL).until(() -> client.state() == ClientState.CONNECTED);
        client.blocking().writeValue(node("Plant.Count"), 8);

        await().atMost(WAIT).pollInterval(POLL).until(() -> values.contains(8));
        assertThat(subscription.subscriptionId()).as("a new subscription at the restarted server")
                .isNotEqualTo(before).isNotZero();
        assertThat(client.subscriptions().list()).containsExactly(subscription);
    }

    // ---- helpers ----------------------------------------------------------------------------------

    /** The failure of a connect that the server's certificate is not trusted (yet). */
    private static boolean untrusted(Throwable failure) {
        return failure instanceof ExecutionException && failure.getCause() instanceof UaException e
                && e.statusCode().isSameCode(StatusCodes.BadCertificateUntrusted);
    }

    private static void assertFailsWith(CompletableFuture<?> future, int status, String text) {
        assertThatThrownBy(() -> future.get(15, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(UaException.class)
                .satisfies(e -> assertThat(((UaException) e).statusCode().isSameCode(status))
                        .as("status of %s", e).isTrue())
                .hasMessageContaining(text);
    }

}
