package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.testing.MiloClients;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.NodeClass;
import org.eclipse.milo.opcua.stack.core.types.enumerated.ServerState;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseResult;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.ViewDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client against the assembled {@link OpcUaServer}: it opens an anonymous
 * session, reads ServerStatus and NamespaceArray, browses from Root three levels deep, pages with
 * BrowseNext, and reads and writes an application variable.
 */
class MiloClientOnOpcUaServerIT {

    private static final String NS = "urn:test:milo:line1";

    private static OpcUaServer server;
    private static OpcUaClient client;
    private static int ns;

    @BeforeAll
    static void start() throws Exception {
        NodeStore store = new NodeStore(2);
        server = OpcUaServer.builder()
                .applicationUri("urn:test:milo:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .nodeManager(new NodeStoreNodeManager(List.of(NS), store))
                .build();
        ns = server.namespaces().indexOf(NS);
        dev.opcua.stack.core.types.builtin.NodeId speed = dev.opcua.stack.core.types.builtin.NodeId.string(ns, "Speed");
        VariableNode node = new VariableNode(speed, dev.opcua.stack.core.types.builtin.QualifiedName.of(ns, "Speed"),
                null, null, 0, 0, dev.opcua.stack.core.types.builtin.DataValue.of(
                        dev.opcua.stack.core.types.builtin.Variant.ofDouble(1.5)),
                ValueAttributes.scalar(dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.Double)), (short) 3,
                (short) 3, 0, false, 3);
        node.addReference(UaReference.inverse(dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.Organizes),
                dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.ObjectsFolder)));
        store.add(node);
        server.start();
        client = MiloClients.anonymousOverNone(server.endpointUrl());
    }

    @AfterAll
    static void stop() throws Exception {
        if (client != null) {
            client.disconnect();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void milo_reads_the_server_status_and_namespace_array() throws Exception {
        DataValue state = client.readValue(0, TimestampsToReturn.Both, Identifiers.Server_ServerStatus_State);
        assertThat(state.getValue().getValue()).isEqualTo(ServerState.Running.getValue());
        DataValue namespaces = client.readValue(0, TimestampsToReturn.Both, Identifiers.Server_NamespaceArray);
        assertThat((String[]) namespaces.getValue().getValue())
                .containsExactly("http://opcfoundation.org/UA/", "urn:test:milo:server", NS);
        DataValue now = client.readValue(0, TimestampsToReturn.Both, Identifiers.Server_ServerStatus_CurrentTime);
        assertThat(now.getStatusCode().isGood()).isTrue();
    }

    @Test
    void milo_browses_from_root_three_levels_deep() throws Exception {
        List<ReferenceDescription> level = browse(Identifiers.RootFolder);
        assertThat(level).extracting(r -> r.getBrowseName().getName()).contains("Objects", "Types", "Views");
        List<String> names = new ArrayList<>();
        for (int depth = 1; depth < 3; depth++) {
            List<ReferenceDescription> next = new ArrayList<>();
            for (ReferenceDescription r : level) {
                NodeId id = r.getNodeId().toNodeId(client.getNamespaceTable()).orElseThrow();
                next.addAll(browse(id));
            }
            next.forEach(r -> names.add(r.getBrowseName().getName()));
            level = next;
        }
        assertThat(names).contains("Server", "Speed", "ServerStatus", "ObjectTypes", "ReferenceTypes");
    }

    private static List<ReferenceDescription> browse(NodeId node) throws Exception {
        BrowseResult result = client.browse(new BrowseDescription(node, BrowseDirection.Forward,
                Identifiers.HierarchicalReferences, true, uint(NodeClass.Object.getValue() | NodeClass.Variable.getValue()),
                uint(BrowseResultMask.All.getValue())));
        assertThat(result.getStatusCode().isGood()).isTrue();
        return result.getReferences() == null ? List.of() : List.of(result.getReferences());
    }

    @Test
    void milo_pages_through_the_server_object_with_browse_next() throws Exception {
        BrowseDescription all = new BrowseDescription(Identifiers.Server, BrowseDirection.Forward,
                Identifiers.HierarchicalReferences, true, uint(0), uint(BrowseResultMask.All.getValue()));
        List<String> whole = new ArrayList<>();
        for (ReferenceDescription r : client.browse(all).getReferences()) {
            whole.add(r.getBrowseName().getName());
        }

        BrowseResult first = client.browse(new ViewDescription(NodeId.NULL_VALUE, DateTime.MIN_VALUE, uint(0)),
                uint(3), List.of(all)).getResults()[0];
        List<String> paged = new ArrayList<>();
        for (ReferenceDescription r : first.getReferences()) {
            paged.add(r.getBrowseName().getName());
        }
        ByteString point = first.getContinuationPoint();
        while (point != null && point.isNotNull()) {
            BrowseResult next = client.browseNext(false, List.of(point)).getResults()[0];
            assertThat(next.getStatusCode().isGood()).isTrue();
            assertThat(next.getReferences().length).isLessThanOrEqualTo(3);
            for (ReferenceDescription r : next.getReferences()) {
                paged.add(r.getBrowseName().getName());
            }
            point = next.getContinuationPoint();
        }
        assertThat(paged).hasSizeGreaterThan(3).containsExactlyElementsOf(whole);
    }

    @Test
    void milo_writes_and_reads_back_an_application_variable() throws Exception {
        NodeId speed = new NodeId(ns, "Speed");
        StatusCode written = client.writeValues(List.of(speed), List.of(new DataValue(new Variant(42.5)))).get(0);
        assertThat(written.isGood()).isTrue();
        assertThat(client.readValue(0, TimestampsToReturn.Both, speed).getValue().getValue()).isEqualTo(42.5);
        StatusCode mismatch = client.writeValues(List.of(speed), List.of(new DataValue(new Variant("fast")))).get(0);
        assertThat(mismatch.getValue()).isEqualTo(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_TypeMismatch);
    }
}
