package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.testing.MiloClients;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowsePath;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowsePathResult;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodResult;
import org.eclipse.milo.opcua.stack.core.types.structured.RelativePath;
import org.eclipse.milo.opcua.stack.core.types.structured.RelativePathElement;
import org.eclipse.milo.opcua.stack.core.types.structured.ServerDiagnosticsSummaryDataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client decodes our TranslateBrowsePathsToNodeIds and RegisterNodes responses
 * and reads ServerCapabilities and ServerDiagnosticsSummary (Part 4, 5.8.4/5.8.5; Part 5, 6.3.2/6.3.3).
 */
class MiloTranslateAndCapabilitiesInteropIT {

    private static OpcUaServer server;
    private static OpcUaClient client;

    @BeforeAll
    static void start() throws Exception {
        server = OpcUaServer.builder()
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .operationLimits(new OperationLimits(100, 50, 25, 10, 5, 20, 0))
                .build()
                .start();
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

    private static RelativePathElement down(String name) {
        return new RelativePathElement(Identifiers.HierarchicalReferences, false, true, new QualifiedName(0, name));
    }

    @Test
    void milo_translates_a_path_to_server_status_state_and_gets_no_match_for_a_wrong_name() throws Exception {
        List<BrowsePathResult> results = List.of(client.translateBrowsePaths(List.of(
                new BrowsePath(Identifiers.RootFolder, new RelativePath(new RelativePathElement[] {
                    down("Objects"), down("Server"), down("ServerStatus"), down("State")})),
                new BrowsePath(Identifiers.RootFolder, new RelativePath(new RelativePathElement[] {
                    down("Objects"), down("Nowhere")})))).getResults());

        assertThat(results.get(0).getStatusCode().isGood()).isTrue();
        assertThat(results.get(0).getTargets()[0].getTargetId().toNodeId(client.getNamespaceTable()).orElseThrow())
                .isEqualTo(Identifiers.Server_ServerStatus_State);
        assertThat(results.get(0).getTargets()[0].getRemainingPathIndex()).isEqualTo(UInteger.MAX);
        assertThat(results.get(1).getStatusCode().getValue())
                .isEqualTo(org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_NoMatch);
    }

    @Test
    void milo_registers_nodes_and_gets_the_same_ids() throws Exception {
        List<NodeId> ids = List.of(Identifiers.Server_ServerStatus_State, new NodeId(1, "Speed"));
        assertThat(client.registerNodes(ids).getRegisteredNodeIds()).containsExactlyElementsOf(ids);
        assertThat(client.unregisterNodes(ids).getResponseHeader().getServiceResult().isGood()).isTrue();
    }

    @Test
    void milo_reads_operation_limits_and_the_diagnostics_summary() throws Exception {
        assertThat(client.readValue(0, TimestampsToReturn.Neither,
                Identifiers.Server_ServerCapabilities_OperationLimits_MaxNodesPerRead).getValue().getValue())
                .isEqualTo(uint(100));
        // OPC UA 1.05 capacity properties (Part 5, 6.3.2) from the configured limits, and the profile
        assertThat(client.readValue(0, TimestampsToReturn.Neither, new NodeId(0, 24095)).getValue().getValue())
                .as("MaxSessions").isEqualTo(uint(server.config().sessionSettings().maxSessions()));
        assertThat(client.readValue(0, TimestampsToReturn.Neither, new NodeId(0, 24096)).getValue().getValue())
                .as("MaxSubscriptions").isEqualTo(uint(server.config().subscriptionSettings().maxSubscriptions()));
        assertThat((String[]) client.readValue(0, TimestampsToReturn.Neither,
                Identifiers.Server_ServerCapabilities_ServerProfileArray).getValue().getValue())
                .containsExactly("http://opcfoundation.org/UA-Profile/Server/MicroEmbeddedDevice2017");
        Object summary = client.readValue(0, TimestampsToReturn.Neither,
                Identifiers.Server_ServerDiagnostics_ServerDiagnosticsSummary).getValue().getValue();
        ServerDiagnosticsSummaryDataType decoded = (ServerDiagnosticsSummaryDataType) ((ExtensionObject) summary)
                .decode(client.getStaticEncodingContext());
        assertThat(decoded.getCurrentSessionCount()).isEqualTo(uint(1));
    }

    @Test
    void milo_calling_what_does_not_exist_gets_bad_node_id_unknown_or_bad_method_invalid() throws Exception {
        // Part 4, 5.11.2, Table 67: an unknown object, a node that is no object, a method id that is
        // no method of the object; a standard method the server does not implement is not invalid
        NodeId nowhere = new NodeId(0, 999_999);
        List<CallMethodResult> results = List.of(client.call(List.of(
                new CallMethodRequest(nowhere, Identifiers.Server_GetMonitoredItems, new Variant[0]),
                new CallMethodRequest(new NodeId(7, "Nowhere"), nowhere, new Variant[0]),
                new CallMethodRequest(Identifiers.Server, nowhere, new Variant[0]),
                new CallMethodRequest(Identifiers.Server, Identifiers.Server_ServerStatus, new Variant[0]),
                new CallMethodRequest(Identifiers.Server_ServerStatus_State, Identifiers.Server_GetMonitoredItems,
                        new Variant[0]),
                new CallMethodRequest(Identifiers.Server, Identifiers.Server_ResendData,
                        new Variant[] {new Variant(uint(1))}))).getResults());

        assertThat(results).extracting(r -> r.getStatusCode().getValue()).containsExactly(
                org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_NodeIdUnknown,
                org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_NodeIdUnknown,
                org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_MethodInvalid,
                org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_MethodInvalid,
                org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_NodeIdInvalid,
                org.eclipse.milo.opcua.stack.core.StatusCodes.Bad_NotImplemented);
    }
}
