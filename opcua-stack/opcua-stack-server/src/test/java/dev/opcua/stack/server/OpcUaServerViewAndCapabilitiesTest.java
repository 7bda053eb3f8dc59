package dev.opcua.stack.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.BrowsePath;
import dev.opcua.stack.core.types.structured.BrowsePathResult;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RegisterNodesRequest;
import dev.opcua.stack.core.types.structured.RegisterNodesResponse;
import dev.opcua.stack.core.types.structured.RelativePath;
import dev.opcua.stack.core.types.structured.RelativePathElement;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsRequest;
import dev.opcua.stack.core.types.structured.TranslateBrowsePathsToNodeIdsResponse;
import dev.opcua.stack.core.types.structured.UnregisterNodesRequest;
import dev.opcua.stack.core.types.structured.UnregisterNodesResponse;
import dev.opcua.stack.server.services.OperationLimits;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The assembled server over real sockets: TranslateBrowsePathsToNodeIds, RegisterNodes and
 * UnregisterNodes, ServerCapabilities and ServerDiagnosticsSummary in namespace 0, and the announced
 * shutdown of {@link OpcUaServer#close(Duration, String)}.
 */
class OpcUaServerViewAndCapabilitiesTest {

    private static OpcUaServer server;
    private static ClientResources resources;
    private static UaTcpClientChannel client;
    private static NodeId authenticationToken;

    @BeforeAll
    static void start() throws Exception {
        server = OpcUaServer.builder()
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("127.0.0.1"))
                .requests(2, 4, 50)
                .operationLimits(new OperationLimits(100, 50, 25, 10, 5, 20, 0))
                .build()
                .start();
        resources = ClientResources.create();
        client = UaTcpClientChannel.connect(server.endpointUrl(), TransportQuotas.DEFAULT, resources)
                .get(10, TimeUnit.SECONDS);
        CreateSessionResponse created = client.request(new CreateSessionRequest(RequestHeaders.create(0),
                new ApplicationDescription("urn:test:client", null, LocalizedText.of("test client"),
                        ApplicationType.Client, null, null, null), null,
                server.endpointUrl(), "test", ByteString.NULL, ByteString.NULL, 60_000, 0),
                CreateSessionResponse.class).get(10, TimeUnit.SECONDS);
        authenticationToken = created.authenticationToken();
        client.request(new ActivateSessionRequest(header(), new SignatureData(null, ByteString.NULL), null, null,
                ExtensionObject.of(new AnonymousIdentityToken("anonymous")), new SignatureData(null, ByteString.NULL)),
                ActivateSessionResponse.class).get(10, TimeUnit.SECONDS);
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.close().get(10, TimeUnit.SECONDS);
        }
        if (resources != null) {
            resources.close();
        }
        if (server != null) {
            server.close();
        }
    }

    private static RequestHeader header() {
        return new RequestHeader(authenticationToken, DateTime.now(), RequestHeaders.nextHandle(), 0, null, 0,
                ExtensionObject.NULL);
    }

    private static Variant read(int id) {
        DataValue[] values = client.request(new ReadRequest(header(), 0, TimestampsToReturn.Neither,
                new ReadValueId[] {new ReadValueId(NodeId.ns0(id), AttributeIds.Value, null, QualifiedName.NULL)}),
                ReadResponse.class).join().results();
        return values[0].value();
    }

    private static RelativePathElement down(String name) {
        return new RelativePathElement(NodeId.ns0(NodeIds.HierarchicalReferences), false, true,
                QualifiedName.of(0, name));
    }

    @Test
    void a_client_translates_root_objects_server_serverstatus_state_to_2259() {
        TranslateBrowsePathsToNodeIdsResponse response = client.request(new TranslateBrowsePathsToNodeIdsRequest(
                header(), new BrowsePath[] {
                    new BrowsePath(NodeId.ns0(NodeIds.RootFolder), new RelativePath(new RelativePathElement[] {
                        down("Objects"), down("Server"), down("ServerStatus"), down("State")})),
                    new BrowsePath(NodeId.ns0(NodeIds.RootFolder), new RelativePath(new RelativePathElement[] {
                        down("Objects"), down("Nowhere")}))}),
                TranslateBrowsePathsToNodeIdsResponse.class).join();

        BrowsePathResult[] results = response.results();
        assertThat(results[0].statusCode().isGood()).isTrue();
        assertThat(results[0].targets()[0].targetId().nodeId()).isEqualTo(NodeId.ns0(NodeIds.Server_ServerStatus_State));
        assertThat(results[0].targets()[0].remainingPathIndex()).isEqualTo(0xFFFF_FFFFL);
        assertThat(results[1].statusCode().value()).isEqualTo(StatusCodes.BadNoMatch);
    }

    @Test
    void a_translate_over_the_configured_limit_is_refused() {
        BrowsePath p = new BrowsePath(NodeId.ns0(NodeIds.RootFolder),
                new RelativePath(new RelativePathElement[] {down("Objects")}));
        assertThatThrownBy(() -> client.request(new TranslateBrowsePathsToNodeIdsRequest(header(),
                new BrowsePath[] {p, p, p, p, p, p}), TranslateBrowsePathsToNodeIdsResponse.class).join())
                .isInstanceOf(CompletionException.class).cause().isInstanceOf(UaException.class)
                .hasMessageContaining("BadTooManyOperations");
        assertThat(client.request(new TranslateBrowsePathsToNodeIdsRequest(header(),
                new BrowsePath[] {p, p, p, p, p}), TranslateBrowsePathsToNodeIdsResponse.class).join().results())
                .hasSize(5);
    }

    @Test
    void register_nodes_echoes_the_ids_and_unregister_answers_good() {
        NodeId[] ids = {NodeId.ns0(NodeIds.Server_ServerStatus_State), NodeId.numeric(1, 7)};
        RegisterNodesResponse registered = client.request(new RegisterNodesRequest(header(), ids),
                RegisterNodesResponse.class).join();
        assertThat(registered.registeredNodeIds()).containsExactly(ids);
        UnregisterNodesResponse unregistered = client.request(new UnregisterNodesRequest(header(), ids),
                UnregisterNodesResponse.class).join();
        assertThat(unregistered.responseHeader().serviceResult().isGood()).isTrue();
    }

    @Test
    void server_capabilities_publish_the_configured_operation_limits() {
        assertThat(read(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerRead))
                .isEqualTo(Variant.ofUInt32(100));
        assertThat(read(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerBrowse))
                .isEqualTo(Variant.ofUInt32(25));
        assertThat(read(NodeIds.Server_ServerCapabilities_OperationLimits_MaxNodesPerTranslateBrowsePathsToNodeIds))
                .isEqualTo(Variant.ofUInt32(5));
        assertThat(read(NodeIds.Server_ServerCapabilities_MaxBrowseContinuationPoints))
                .isEqualTo(Variant.ofUInt16(10));
    }

    @Test
    void server_diagnostics_count_the_open_session() {
        assertThat(read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_CurrentSessionCount))
                .isEqualTo(Variant.ofUInt32(1));
        assertThat((Long) read(NodeIds.Server_ServerDiagnostics_ServerDiagnosticsSummary_CumulatedSessionCount)
                .value()).isGreaterThanOrEqualTo(1L);
        assertThat(read(NodeIds.Server_ServerDiagnostics_EnabledFlag)).isEqualTo(Variant.ofBoolean(true));
    }

    @Test
    void close_with_a_delay_announces_the_shutdown_then_stops() throws Exception {
        OpcUaServer other = OpcUaServer.builder().bindAddress("127.0.0.1").port(0)
                .hostnames(List.of("127.0.0.1")).requests(1, 2, 10).build().start();
        CompletableFuture<Void> closing = CompletableFuture.runAsync(
                () -> other.close(Duration.ofSeconds(1), "maintenance"));
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> other.serverStatus().state() == ServerState.Shutdown);
        assertThat(other.serverStatus().secondsTillShutdown()).isEqualTo(1);
        assertThat(other.serverStatus().shutdownReason().text()).isEqualTo("maintenance");
        assertThat(closing).isNotDone();
        closing.get(5, TimeUnit.SECONDS);
        assertThat(other.serverStatus().secondsTillShutdown()).isZero();
        assertThat(other.serverStatus().shutdownReason().text()).isEqualTo("maintenance");
    }
}
