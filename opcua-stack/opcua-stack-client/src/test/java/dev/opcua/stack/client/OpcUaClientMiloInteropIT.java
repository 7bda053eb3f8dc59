package dev.opcua.stack.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.discovery.DiscoveryClient;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.session.TestCertificates;
import dev.opcua.stack.client.testing.MiloPeer;
import dev.opcua.stack.client.testing.MiloPeerServer;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.BrowsePath;
import dev.opcua.stack.core.types.structured.BrowsePathResult;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import dev.opcua.stack.core.types.structured.RelativePath;
import dev.opcua.stack.core.types.structured.RelativePathElement;
import dev.opcua.stack.core.types.structured.WriteValue;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link OpcUaClient} against an Eclipse Milo 1.1.2 server ({@link MiloPeerServer}): every security
 * policy and mode Milo offers, with Milo's certificate trusted through the client's PKI directory
 * ({@code trusted/certs}); the three identities on the strongest policies; endpoint selection by
 * SecurityLevel; and every service of the client, with requests split by the small OperationLimits
 * Milo is given here (Milo refuses a larger request with BadTooManyOperations, so a success proves
 * the split).
 *
 * <p>Deprecated policies (Basic128Rsa15, Basic256) are outside
 * {@link OpcUaClientConfig#DEFAULT_ALLOWED_POLICIES}: naming one in {@code security(policy, mode)}
 * still connects (the named policy wins over the allowed set), while an open choice takes one only
 * when {@code allowedSecurityPolicies} lists it.
 */
class OpcUaClientMiloInteropIT {

    private static final String CLIENT = "interop-client";
    private static final int NS = MiloPeerServer.NAMESPACE_INDEX;
    private static final MiloPeerServer.OperationLimits LIMITS = new MiloPeerServer.OperationLimits(8, 7, 6, 5, 4, 3,
            10_000);
    private static final Set<SecurityPolicy> DEPRECATED = Set.of(SecurityPolicy.Basic128Rsa15, SecurityPolicy.Basic256);

    @TempDir
    static Path pki;

    private static final ApplicationCertificate MILO_CERTIFICATE = TestCertificates.get("milo-server");
    private static final ApplicationCertificate CLIENT_CERTIFICATE = TestCertificates.get(CLIENT);
    private static final ApplicationCertificate USER_CERTIFICATE = TestCertificates.get("interop-user");

    @RegisterExtension
    static final MiloPeer PEER = MiloPeer.serverWithInteropCertificates(b -> b.operationLimits(LIMITS)).watchingLeaks();

    private OpcUaClient client;

    @BeforeAll
    static void trustMilo() throws Exception {
        Files.createDirectories(pki.resolve("trusted/certs"));
        Files.write(pki.resolve("trusted/certs/milo-server.der"), MILO_CERTIFICATE.certificate().getEncoded());
    }

    @AfterEach
    void closeClient() {
        if (client != null) {
            client.close();
        }
    }

    /** Our client certificate, which Milo trusts, and Milo's certificate trusted through the PKI directory. */
    private static OpcUaClientConfig.Builder config() {
        return OpcUaClientConfig.builder(PEER.milo().endpointUrl())
                .applicationUri(TestCertificates.applicationUri(CLIENT))
                .applicationName("opcua-java interop client")
                .certificate(CLIENT_CERTIFICATE)
                .pkiDir(pki)
                .resources(PEER.clientResources())
                .requestTimeout(Duration.ofSeconds(10));
    }

    private OpcUaClient connected(OpcUaClientConfig config) throws Exception {
        client = OpcUaClient.create(config);
        client.connect().get(20, TimeUnit.SECONDS);
        return client;
    }

    private static NodeId node(String id) {
        return NodeId.string(NS, id);
    }

    // ---- security ---------------------------------------------------------------------------------

    static Stream<Arguments> everyPolicyAndModeMiloOffers() {
        List<Arguments> cases = new ArrayList<>();
        cases.add(Arguments.of(SecurityPolicy.None, MessageSecurityMode.None));
        for (SecurityPolicy policy : List.of(SecurityPolicy.Basic128Rsa15, SecurityPolicy.Basic256,
                SecurityPolicy.Basic256Sha256, SecurityPolicy.Aes128_Sha256_RsaOaep, SecurityPolicy.Aes256_Sha256_RsaPss)) {
            cases.add(Arguments.of(policy, MessageSecurityMode.Sign));
            cases.add(Arguments.of(policy, MessageSecurityMode.SignAndEncrypt));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyPolicyAndModeMiloOffers")
    void the_named_policy_and_mode_connect_through_the_pki_trust_list_and_read_and_write(SecurityPolicy policy,
            MessageSecurityMode mode) throws Exception {
        connected(config().security(policy, mode).build());
        int value = 1000 + policy.ordinal() * 10 + mode.ordinal();

        StatusCode written = client.blocking().writeValue(node(MiloPeerServer.INT32), value);
        DataValue read = client.blocking().readValue(node(MiloPeerServer.INT32));

        assertThat(client.state()).isEqualTo(ClientState.CONNECTED);
        assertThat(client.endpoint().securityPolicyUri()).isEqualTo(policy.uri());
        assertThat(client.endpoint().securityMode()).isEqualTo(mode);
        assertThat(written.isGood()).as("Write result %s", written).isTrue();
        assertThat(read.value().value()).isEqualTo(value);
        assertThat(PEER.milo().value(MiloPeerServer.INT32)).isEqualTo(value);
    }

    static Stream<Arguments> identitiesOnTheStrongestPolicies() {
        List<Arguments> cases = new ArrayList<>();
        for (SecurityPolicy policy : List.of(SecurityPolicy.Basic256Sha256, SecurityPolicy.Aes256_Sha256_RsaPss)) {
            cases.add(Arguments.of(policy, UserTokenType.Anonymous));
            cases.add(Arguments.of(policy, UserTokenType.UserName));
            cases.add(Arguments.of(policy, UserTokenType.Certificate));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("identitiesOnTheStrongestPolicies")
    void each_identity_is_activated_and_reads(SecurityPolicy policy, UserTokenType type) throws Exception {
        ClientIdentity identity = switch (type) {
            case Anonymous -> ClientIdentity.anonymous();
            case UserName -> ClientIdentity.userName(MiloPeerServer.USER, MiloPeerServer.PASSWORD);
            case Certificate -> ClientIdentity.x509(USER_CERTIFICATE);
            default -> throw new IllegalArgumentException(type.toString());
        };
        connected(config().security(policy, MessageSecurityMode.SignAndEncrypt).identity(identity).build());

        assertThat(client.session().userTokenPolicy().tokenType()).isEqualTo(type);
        assertThat(client.blocking().readValue(node(MiloPeerServer.READ_ONLY)).value().value())
                .isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
    }

    @Test
    void a_wrong_password_fails_the_connect_with_bad_user_access_denied_and_leaves_the_client_disconnected() {
        client = OpcUaClient.create(config().security(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt)
                .identity(ClientIdentity.userName(MiloPeerServer.USER, "wrong")).build());

        assertFailsWith(client.connect(), StatusCodes.BadUserAccessDenied, "");
        assertThat(client.state()).isEqualTo(ClientState.DISCONNECTED);
        assertThat(client.lastError()).isInstanceOf(UaException.class);
    }

    @Test
    void without_a_named_policy_the_client_takes_milos_highest_security_level_among_the_allowed_policies() throws Exception {
        EndpointDescription[] endpoints = DiscoveryClient.getEndpoints(PEER.milo().endpointUrl(), TransportQuotas.DEFAULT,
                PEER.clientResources()).get(10, TimeUnit.SECONDS);
        int highest = Arrays.stream(endpoints)
                .filter(e -> OpcUaClientConfig.DEFAULT_ALLOWED_POLICIES.contains(SecurityPolicy.fromUri(e.securityPolicyUri())))
                .mapToInt(e -> e.securityLevel() & 0xFF).max().orElseThrow();

        connected(config().build());

        SecurityPolicy chosen = SecurityPolicy.fromUri(client.endpoint().securityPolicyUri());
        assertThat(client.endpoint().securityLevel() & 0xFF).isEqualTo(highest);
        assertThat(OpcUaClientConfig.DEFAULT_ALLOWED_POLICIES).contains(chosen);
        assertThat(client.endpoint().securityMode()).isEqualTo(MessageSecurityMode.SignAndEncrypt);
        assertThat(client.blocking().readValue(node(MiloPeerServer.READ_ONLY)).statusCode().isGood()).isTrue();
    }

    @Test
    void a_deprecated_policy_is_chosen_openly_only_when_allowed_security_policies_lists_it() throws Exception {
        assertThat(OpcUaClientConfig.DEFAULT_ALLOWED_POLICIES).doesNotContainAnyElementsOf(DEPRECATED);

        connected(config().allowedSecurityPolicies(Set.of(SecurityPolicy.Basic128Rsa15)).build());

        assertThat(client.endpoint().securityPolicyUri()).isEqualTo(SecurityPolicy.Basic128Rsa15.uri());
        assertThat(client.blocking().readValue(node(MiloPeerServer.READ_ONLY)).statusCode().isGood()).isTrue();
    }

    // ---- services ---------------------------------------------------------------------------------

    @Test
    void read_values_over_max_nodes_per_read_are_split_and_joined_in_order() throws Exception {
        connected(config().security(SecurityPolicy.None, MessageSecurityMode.None).build());
        List<NodeId> ids = IntStream.range(0, 50).mapToObj(i -> node(MiloPeerServer.manyChild(i))).toList();

        List<DataValue> values = client.readValues(ids).get(10, TimeUnit.SECONDS);

        assertThat(client.operationLimits().maxNodesPerRead()).isEqualTo(8);
        assertThat(values).extracting(v -> v.value().value()).containsExactlyElementsOf(
                IntStream.range(0, 50).boxed().toList());
    }

    @Test
    void writes_over_max_nodes_per_write_are_split_and_their_results_keep_their_order() throws Exception {
        connected(config().security(SecurityPolicy.None, MessageSecurityMode.None).build());
        List<WriteValue> writes = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            NodeId target = i == 9 ? node(MiloPeerServer.READ_ONLY) : node(MiloPeerServer.INT32);
            writes.add(new WriteValue(target, AttributeIds.Value, null, DataValue.of(Variant.ofInt32(500 + i))));
        }

        List<StatusCode> results = client.write(writes).get(10, TimeUnit.SECONDS);

        assertThat(client.operationLimits().maxNodesPerWrite()).isEqualTo(7);
        assertThat(results).hasSize(12);
        for (int i = 0; i < 12; i++) {
            assertThat(results.get(i).isGood()).as("result %d: %s", i, results.get(i)).isEqualTo(i != 9);
        }
        assertThat(PEER.milo().value(MiloPeerServer.INT32)).isEqualTo(511);
        assertThat(PEER.milo().value(MiloPeerServer.READ_ONLY)).isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
    }

    @Test
    void write_value_converts_java_values_to_the_variables_data_type() throws Exception {
        connected(config().security(SecurityPolicy.None, MessageSecurityMode.None).build());

        assertThat(client.blocking().writeValue(node(MiloPeerServer.INT32), 7L).isGood()).isTrue();
        assertThat(client.blocking().writeValue(node(MiloPeerServer.DOUBLE), 3).isGood()).isTrue();
        assertThat(client.blocking().writeValue(node(MiloPeerServer.BYTE), 200).isGood()).isTrue();
        assertThat(client.blocking().writeValue(node(MiloPeerServer.DOUBLE_ARRAY), List.of(1.5, 2.5f)).isGood())
                .isTrue();
        assertThat(client.blocking().writeValue(node(MiloPeerServer.STRING), "text").isGood()).isTrue();
        assertThat(client.blocking().writeValue(node(MiloPeerServer.BOOLEAN), true).isGood()).isTrue();

        assertThat(PEER.milo().value(MiloPeerServer.INT32)).isEqualTo(7);
        assertThat(PEER.milo().value(MiloPeerServer.DOUBLE)).isEqualTo(3.0);
        assertThat(PEER.milo().value(MiloPeerServer.BYTE)).isEqualTo((short) 200);
        assertThat((double[]) PEER.milo().value(MiloPeerServer.DOUBLE_ARRAY)).containsExactly(1.5, 2.5);
        assertThat(PEER.milo().value(MiloPeerServer.STRING)).isEqualTo("text");
        assertThat(PEER.milo().value(MiloPeerServer.BOOLEAN)).isEqualTo(true);
    }

    @Test
    void a_value_that_does_not_fit_fails_with_bad_type_mismatch_before_anything_reaches_milo() throws Exception {
        connected(config().security(SecurityPolicy.None, MessageSecurityMode.None).build());
        PEER.milo().setValue(MiloPeerServer.BYTE, 9);
        PEER.milo().setValue(MiloPeerServer.INT32, 9);
        PEER.milo().setValue(MiloPeerServer.STRING, "kept");

        assertFailsWith(client.writeValue(node(MiloPeerServer.BYTE), 300), StatusCodes.BadTypeMismatch, "Byte");
        assertFailsWith(client.writeValue(node(MiloPeerServer.INT32), 1.5), StatusCodes.BadTypeMismatch, "Int32");
        assertFailsWith(client.writeValue(node(MiloPeerServer.STRING), 5), StatusCodes.BadTypeMismatch, "String");
        assertFailsWith(client.writeValue(node(MiloPeerServer.INT32), new int[] {1, 2}), StatusCodes.BadTypeMismatch,
                "scalar");

        assertThat(PEER.milo().value(MiloPeerServer.BYTE)).isEqualTo((short) 9);
        assertThat(PEER.milo().value(MiloPeerServer.INT32)).isEqualTo(9);
        assertThat(PEER.milo().value(MiloPeerServer.STRING)).isEqualTo("kept");
    }

    @Test
    void browse_of_the_many_folder_follows_browse_next_to_all_fifteen_hundred_children() throws Exception {
        connected(config().security(SecurityPolicy.None, MessageSecurityMode.None).build());

        List<ReferenceDescription> refs = client.browse(node(MiloPeerServer.MANY)).get(20, TimeUnit.SECONDS);

        assertThat(refs).hasSize(MiloPeerServer.DEFAULT_MANY_VARIABLES);
        assertThat(refs).extracting(r -> r.nodeId().nodeId()).containsExactlyInAnyOrderElementsOf(
                IntStream.range(0, MiloPeerServer.DEFAULT_MANY_VARIABLES)
                        .mapToObj(i -> node(MiloPeerServer.manyChild(i))).toList());
    }

    @Test
    void browse_each_hands_over_the_many_folder_page_by_page() throws Exception {
        connected(config().security(SecurityPolicy.None, MessageSecurityMode.None).build());
        List<Integer> pageSizes = new ArrayList<>();
        List<NodeId> seen = new ArrayList<>();

        client.browseEach(OpcUaClient.hierarchical(node(MiloPeerServer.MANY)), 250, page -> {
            pageSizes.add(page.size());
            page.forEach(r -> seen.add(r.nodeId().nodeId()));
        }).get(20, TimeUnit.SECONDS);

        assertThat(pageSizes).hasSize(MiloPeerServer.DEFAULT_MANY_VARIABLES
                / MiloPeerServer.DEFAULT_MAX_REFERENCES_PER_BROWSE).allMatch(n -> n == 100);
        assertThat(seen).doesNotHaveDuplicates().hasSize(MiloPeerServer.DEFAULT_MANY_VARIABLES);
    }

    @Test
    void translate_browse_paths_is_split_and_resolves_each_path_in_order() throws Exception {
        connected(config().security(SecurityPolicy.None, MessageSecurityMode.None).build());
        List<BrowsePath> paths = IntStream.range(0, 9).mapToObj(i -> new BrowsePath(NodeId.ns0(NodeIds.ObjectsFolder),
                new RelativePath(new RelativePathElement[] {
                    element(MiloPeerServer.MANY), element(MiloPeerServer.manyChild(i * 7))}))).toList();

        List<BrowsePathResult> results = client.translateBrowsePaths(paths).get(10, TimeUnit.SECONDS);

        assertThat(results).extracting(r -> r.targets()[0].targetId().nodeId()).containsExactlyElementsOf(
                IntStream.range(0, 9).mapToObj(i -> node(MiloPeerServer.manyChild(i * 7))).toList());
    }

    private static RelativePathElement element(String name) {
        return new RelativePathElement(NodeId.ns0(NodeIds.HierarchicalReferences), false, true,
                QualifiedName.of(NS, name));
    }

    @Test
    void registered_nodes_are_split_by_max_nodes_per_register_nodes_read_and_unregistered() throws Exception {
        connected(config().security(SecurityPolicy.None, MessageSecurityMode.None).build());
        List<NodeId> nodes = IntStream.range(0, 7).mapToObj(i -> node(MiloPeerServer.manyChild(i))).toList();

        List<NodeId> registered = client.registerNodes(nodes).get(10, TimeUnit.SECONDS);
        List<DataValue> values = client.readValues(registered).get(10, TimeUnit.SECONDS);
        client.unregisterNodes(registered).get(10, TimeUnit.SECONDS);

        assertThat(registered).hasSize(7);
        assertThat(values).extracting(v -> v.value().value()).containsExactly(0, 1, 2, 3, 4, 5, 6);
    }

    @Test
    void call_of_add_returns_the_sum_and_many_calls_are_split_by_max_nodes_per_method_call() throws Exception {
        connected(config().security(SecurityPolicy.None, MessageSecurityMode.None).build());
        NodeId object = node(MiloPeerServer.METHODS);
        NodeId add = node(MiloPeerServer.ADD);

        Variant[] sum = client.blocking().call(object, add, 2, 3);
        List<CallMethodResult> many = client.call(IntStream.range(0, 12).mapToObj(i -> new CallMethodRequest(object, add,
                new Variant[] {Variant.ofInt32(i), Variant.ofInt32(i)})).toList()).get(10, TimeUnit.SECONDS);

        assertThat(sum).extracting(Variant::value).containsExactly(5);
        assertThat(many).extracting(r -> r.outputArguments()[0].value()).containsExactlyElementsOf(
                IntStream.range(0, 12).mapToObj(i -> 2 * i).map(Object.class::cast).toList());
    }

    @Test
    void nsu_node_ids_resolve_through_milos_namespace_array() throws Exception {
        connected(config().security(SecurityPolicy.None, MessageSecurityMode.None).build());

        NodeId id = client.nodeId("nsu=" + MiloPeerServer.NAMESPACE_URI + ";s=" + MiloPeerServer.READ_ONLY);

        assertThat(id).isEqualTo(node(MiloPeerServer.READ_ONLY));
        assertThat(client.namespaces().indexOf(MiloPeerServer.NAMESPACE_URI)).isEqualTo(NS);
        assertThat(client.blocking().readValue(id).value().value()).isEqualTo(MiloPeerServer.READ_ONLY_VALUE);
        assertThatThrownBy(() -> client.nodeId("nsu=urn:nowhere;s=X")).isInstanceOf(UaException.class)
                .hasMessageContaining("urn:nowhere");
    }

    @Test
    void the_generic_request_sends_any_service_request_of_the_session() throws Exception {
        connected(config().security(SecurityPolicy.None, MessageSecurityMode.None).build());
        ReadValueId[] state = {new ReadValueId(NodeId.ns0(NodeIds.Server_ServerStatus_State), AttributeIds.Value,
                null, QualifiedName.NULL)};

        ReadResponse response = client.request(h -> new ReadRequest(h, 0, TimestampsToReturn.Neither, state),
                ReadResponse.class).get(10, TimeUnit.SECONDS);

        assertThat(response.results()).hasSize(1);
        assertThat(response.results()[0].value().value()).isEqualTo(0); // ServerState Running (Part 5, 12.6)
        assertThat(response.responseHeader().serviceResult().isGood()).isTrue();
    }

    static void assertFailsWith(CompletableFuture<?> future, int status, String messagePart) {
        assertThatThrownBy(() -> future.get(20, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(UaException.class)
                .hasMessageContaining(messagePart)
                .satisfies((Consumer<Throwable>) e -> assertThat(((UaException) e).statusCode().value())
                        .as("status of %s", e).isEqualTo(status));
    }
}
