package dev.opcua.stack.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.enumerated.BrowseDirection;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowseNextRequest;
import dev.opcua.stack.core.types.structured.BrowseNextResponse;
import dev.opcua.stack.core.types.structured.BrowseRequest;
import dev.opcua.stack.core.types.structured.BrowseResponse;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import dev.opcua.stack.core.types.structured.ViewDescription;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.ServerStatusDataType;
import dev.opcua.stack.core.types.structured.WriteRequest;
import dev.opcua.stack.core.types.structured.WriteResponse;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.testing.TestSessions;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The assembled server over real sockets, driven by our client: namespace 0 with the live Server
 * object and an application namespace, read and written through the Attribute services.
 */
class OpcUaServerTest {

    private static final String NS = "urn:test:line1";
    private static final String PRODUCT_URI = "urn:test:product";

    private static OpcUaServer server;
    private static ClientResources resources;
    private static UaTcpClientChannel client;
    private static NodeId speed;
    private static NodeId authenticationToken;

    @BeforeAll
    static void start() throws Exception {
        NodeStore store = new NodeStore(4);
        server = OpcUaServer.builder()
                .applicationUri("urn:test:server")
                .productUri(PRODUCT_URI)
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("127.0.0.1"))
                .requests(2, 4, 50)
                .operationLimits(3, 3)
                .nodeManager(new NodeStoreNodeManager(List.of(NS), store))
                .build();
        int ns = server.namespaces().indexOf(NS);
        speed = NodeId.string(ns, "Speed");
        VariableNode speedNode = new VariableNode(speed, QualifiedName.of(ns, "Speed"), null, null, 0, 0,
                DataValue.of(Variant.ofDouble(1.5)), ValueAttributes.scalar(NodeId.ns0(NodeIds.Double)), (short) 3,
                (short) 3, 0, false, 3);
        speedNode.addReference(UaReference.inverse(NodeId.ns0(NodeIds.Organizes), NodeId.ns0(NodeIds.ObjectsFolder)));
        store.add(speedNode);
        server.start();
        resources = ClientResources.create();
        client = UaTcpClientChannel.connect(server.endpointUrl(), TransportQuotas.DEFAULT, resources)
                .get(10, TimeUnit.SECONDS);
        authenticationToken = TestSessions.open(client, server.endpointUrl());
    }

    private static RequestHeader header() {
        return TestSessions.header(authenticationToken);
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

    private static DataValue[] read(int attribute, NodeId... nodes) {
        ReadValueId[] items = new ReadValueId[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            items[i] = new ReadValueId(nodes[i], attribute, null, QualifiedName.NULL);
        }
        return client.request(new ReadRequest(header(), 0, TimestampsToReturn.Both, items),
                ReadResponse.class).join().results();
    }

    @Test
    void serves_the_live_server_object_of_namespace_0() {
        Instant before = Instant.now().minusSeconds(1);
        DataValue[] values = read(AttributeIds.Value, NodeId.ns0(NodeIds.Server_NamespaceArray),
                NodeId.ns0(NodeIds.Server_ServerStatus_State), NodeId.ns0(NodeIds.Server_ServerStatus_CurrentTime));
        assertThat(values[0].value()).isEqualTo(Variant.ofArray(BuiltinType.String,
                new String[] {"http://opcfoundation.org/UA/", "urn:test:server", NS}));
        assertThat(values[1].value()).isEqualTo(Variant.ofInt32(ServerState.Running.value()));
        assertThat(((DateTime) values[2].value().value()).toInstant()).isAfter(before);

        DataValue[] status = read(AttributeIds.Value, NodeId.ns0(NodeIds.Server_ServerStatus),
                NodeId.ns0(NodeIds.Server_ServerStatus_BuildInfo_ProductUri), NodeId.ns0(NodeIds.Server_ServerArray));
        ServerStatusDataType decoded = ((dev.opcua.stack.core.types.builtin.ExtensionObject) status[0].value().value())
                .decoded(ServerStatusDataType.class);
        assertThat(decoded.state()).isEqualTo(ServerState.Running);
        assertThat(decoded.buildInfo().productUri()).isEqualTo(PRODUCT_URI);
        assertThat(status[1].value()).isEqualTo(Variant.ofString(PRODUCT_URI));
        assertThat(status[2].value()).isEqualTo(Variant.ofArray(BuiltinType.String, new String[] {"urn:test:server"}));
    }

    @Test
    void reads_standard_attributes_of_namespace_0_nodes() {
        DataValue[] names = read(AttributeIds.BrowseName, NodeId.ns0(NodeIds.ObjectsFolder), NodeId.ns0(NodeIds.Server));
        assertThat(names[0].value()).isEqualTo(Variant.of(QualifiedName.of(0, "Objects")));
        assertThat(names[1].value()).isEqualTo(Variant.of(QualifiedName.of(0, "Server")));
    }

    @Test
    void writes_and_reads_back_an_application_variable() {
        WriteResponse written = client.request(new WriteRequest(header(), new WriteValue[] {
            new WriteValue(speed, AttributeIds.Value, null, DataValue.of(Variant.ofDouble(42.0))),
            new WriteValue(speed, AttributeIds.Value, null, DataValue.of(Variant.ofString("fast")))}),
                WriteResponse.class).join();
        assertThat(written.results()).extracting(StatusCode::value)
                .containsExactly(StatusCodes.Good, StatusCodes.BadTypeMismatch);
        assertThat(read(AttributeIds.Value, speed)[0].value()).isEqualTo(Variant.ofDouble(42.0));
    }

    private static BrowseResult[] browse(long maxReferences, BrowseDescription... descriptions) {
        return client.request(new BrowseRequest(header(),
                new ViewDescription(NodeId.NULL, DateTime.MIN_VALUE, 0), maxReferences, descriptions),
                BrowseResponse.class).join().results();
    }

    private static BrowseDescription hierarchical(NodeId node) {
        return new BrowseDescription(node, BrowseDirection.Forward, NodeId.ns0(NodeIds.HierarchicalReferences), true, 0,
                0x3F);
    }

    @Test
    void browses_the_objects_folder_with_descriptions_of_the_targets() {
        BrowseResult result = browse(0, hierarchical(NodeId.ns0(NodeIds.ObjectsFolder)))[0];
        assertThat(result.statusCode()).isEqualTo(StatusCode.GOOD);
        ReferenceDescription server = Arrays.stream(result.references())
                .filter(r -> r.nodeId().nodeId().equals(NodeId.ns0(NodeIds.Server))).findFirst().orElseThrow();
        assertThat(server.browseName()).isEqualTo(QualifiedName.of(0, "Server"));
        assertThat(server.nodeClass()).isEqualTo(NodeClass.Object);
        assertThat(server.referenceTypeId()).isEqualTo(NodeId.ns0(NodeIds.Organizes));
        assertThat(server.isForward()).isTrue();
        assertThat(server.typeDefinition().nodeId()).isEqualTo(NodeId.ns0(NodeIds.ServerType));
        assertThat(result.references()).allSatisfy(r -> assertThat(r.isForward()).isTrue());
    }

    @Test
    void filters_by_node_class_and_reference_type_and_refuses_unknown_ones() {
        BrowseResult[] results = browse(0,
                new BrowseDescription(NodeId.ns0(NodeIds.Server), BrowseDirection.Forward,
                        NodeId.ns0(NodeIds.HasComponent), false, NodeClass.Variable.value(), 0x3F),
                new BrowseDescription(NodeId.ns0(NodeIds.Server), BrowseDirection.Forward, NodeId.ns0(NodeIds.Server),
                        true, 0, 0x3F),
                new BrowseDescription(NodeId.string(7, "nowhere"), BrowseDirection.Both, null, true, 0, 0x3F));
        assertThat(results[0].references()).isNotEmpty()
                .allSatisfy(r -> assertThat(r.nodeClass()).isEqualTo(NodeClass.Variable))
                .anySatisfy(r -> assertThat(r.browseName()).isEqualTo(QualifiedName.of(0, "ServerStatus")));
        assertThat(results[1].statusCode().value()).isEqualTo(StatusCodes.BadReferenceTypeIdInvalid);
        assertThat(results[2].statusCode().value()).isEqualTo(StatusCodes.BadNodeIdUnknown);
    }

    @Test
    void continues_a_long_browse_with_browse_next() {
        BrowseResult first = browse(2, hierarchical(NodeId.ns0(NodeIds.Server)))[0];
        assertThat(first.references()).hasSize(2);
        assertThat(first.continuationPoint()).isNotNull();
        BrowseNextResponse next = client.request(new BrowseNextRequest(header(), false,
                new ByteString[] {first.continuationPoint()}), BrowseNextResponse.class).join();
        assertThat(next.results()[0].references()).hasSize(2);
        BrowseNextResponse released = client.request(new BrowseNextRequest(header(), true,
                new ByteString[] {next.results()[0].continuationPoint()}), BrowseNextResponse.class).join();
        assertThat(released.results()[0].statusCode()).isEqualTo(StatusCode.GOOD);
        BrowseNextResponse again = client.request(new BrowseNextRequest(header(), false,
                new ByteString[] {next.results()[0].continuationPoint()}), BrowseNextResponse.class).join();
        assertThat(again.results()[0].statusCode().value()).isEqualTo(StatusCodes.BadContinuationPointInvalid);
    }

    @Test
    void browses_an_application_namespace_back_to_namespace_0() {
        BrowseResult result = browse(0, new BrowseDescription(speed, BrowseDirection.Inverse, null, true, 0, 0x3F))[0];
        assertThat(result.references()).extracting(r -> r.nodeId().nodeId())
                .containsExactly(NodeId.ns0(NodeIds.ObjectsFolder));
        assertThat(result.references()[0].browseName()).isEqualTo(QualifiedName.of(0, "Objects"));
    }

    @Test
    void refuses_requests_without_an_activated_session() {
        ReadRequest anonymous = new ReadRequest(RequestHeaders.create(0), 0, TimestampsToReturn.Both,
                new ReadValueId[] {new ReadValueId(speed, AttributeIds.Value, null, QualifiedName.NULL)});
        assertThatThrownBy(() -> client.request(anonymous, ReadResponse.class).join())
                .isInstanceOf(CompletionException.class).cause().isInstanceOf(UaException.class)
                .hasMessageContaining("BadSessionIdInvalid");
    }

    @Test
    void refuses_empty_and_oversized_requests_with_a_service_fault() {
        assertThatThrownBy(() -> read(AttributeIds.Value))
                .isInstanceOf(CompletionException.class).cause().isInstanceOf(UaException.class)
                .hasMessageContaining("BadNothingToDo");
        assertThatThrownBy(() -> read(AttributeIds.Value, speed, speed, speed, speed))
                .isInstanceOf(CompletionException.class).cause().isInstanceOf(UaException.class)
                .hasMessageContaining("BadTooManyOperations");
    }
}
