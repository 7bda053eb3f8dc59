package dev.opcua.sample.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ubyte;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.sample.server.plant.FillingLine;
import dev.opcua.stack.server.OpcUaServer;
import java.nio.file.Path;
import java.security.Security;
import java.util.List;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExpandedNodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.NodeClass;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.AddNodesItem;
import org.eclipse.milo.opcua.stack.core.types.structured.AddNodesResult;
import org.eclipse.milo.opcua.stack.core.types.structured.DeleteNodesItem;
import org.eclipse.milo.opcua.stack.core.types.structured.VariableAttributes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The sample plant's node management as application.yml configures it (Part 4, 5.7): {@code engineer}
 * (ConfigureAdmin) adds a variable below the filling line, reads it (saved in the persist directory) and
 * deletes it; {@code operator} and the
 * anonymous user get BadUserAccessDenied; the built-in models' namespaces take no changes. Eclipse Milo 1.1.2's
 * client makes the calls.
 */
@SpringBootTest(properties = {"opcua.server.port=0", "opcua.server.shutdown-delay=0s",
        "opcua.server.history.enabled=false", "opcua.console.enabled=false"})
class SamplePlantNodeManagementIT {

    /** DisplayName, Value, DataType, ValueRank and AccessLevel (Part 4, 7.24.1). */
    private static final long VARIABLE_MASK = 64 | 2097152 | 16 | 524288 | 1;

    static {
        // Milo's client encrypts passwords with RSA-OAEP-SHA256 through a JCA provider; the JDK has none.
        Security.addProvider(new BouncyCastleProvider());
    }

    @TempDir
    static Path pki;

    @TempDir
    static Path nodes;

    @DynamicPropertySource
    static void directories(DynamicPropertyRegistry registry) {
        registry.add("opcua.server.security.pki-dir", () -> pki.toString());
        registry.add("opcua.server.node-management.persist-dir", () -> nodes.toString());
    }

    @Autowired
    OpcUaServer server;

    private OpcUaClient connect(IdentityProvider identity) throws Exception {
        return MiloTestClients.overNone(server.endpointUrl(), identity, 5_000);
    }

    private static int plantNamespace(OpcUaClient client) {
        return client.getNamespaceTable().getIndex(FillingLine.NAMESPACE).intValue();
    }

    private static AddNodesItem note(OpcUaClient client, String text) throws Exception {
        int ns = plantNamespace(client);
        VariableAttributes attributes = new VariableAttributes(uint(VARIABLE_MASK), LocalizedText.english("ShiftNote"),
                null, uint(0), uint(0), new Variant(text), Identifiers.String, -1, null, ubyte(3), ubyte(3), 0.0, false);
        return new AddNodesItem(new NodeId(ns, "FillingLine").expanded(), Identifiers.HasComponent,
                ExpandedNodeId.NULL_VALUE, new QualifiedName(ns, "ShiftNote"), NodeClass.Variable,
                ExtensionObject.encode(client.getStaticEncodingContext(), attributes), ExpandedNodeId.NULL_VALUE);
    }

    @Test
    void engineer_adds_a_variable_below_the_filling_line_reads_it_and_deletes_it() throws Exception {
        OpcUaClient engineer = connect(new UsernameProvider("engineer", "line1-engineer"));
        try {
            AddNodesResult added = engineer.addNodes(List.of(note(engineer, "clean filler 3"))).getResults()[0];

            assertThat(added.getStatusCode().isGood()).as("%s", added.getStatusCode()).isTrue();
            NodeId note = added.getAddedNodeId();
            assertThat(note).isEqualTo(new NodeId(plantNamespace(engineer), "FillingLine.ShiftNote"));
            DataValue value = engineer.readValue(0, TimestampsToReturn.Neither, note);
            assertThat(value.getValue().getValue()).isEqualTo("clean filler 3");
            assertThat(nodes.resolve("urn_dev.opcua_sample_bottling.NodeSet2.xml")).exists();

            StatusCode deleted = engineer.deleteNodes(List.of(new DeleteNodesItem(note, true))).getResults()[0];

            assertThat(deleted.isGood()).isTrue();
            assertThat(engineer.readValue(0, TimestampsToReturn.Neither, note).getStatusCode().getValue())
                    .isEqualTo(StatusCodes.Bad_NodeIdUnknown);
        } finally {
            engineer.disconnect();
        }
    }

    @Test
    void engineer_cannot_change_the_built_in_models_or_namespace_0() throws Exception {
        OpcUaClient engineer = connect(new UsernameProvider("engineer", "line1-engineer"));
        try {
            int machinery = engineer.getNamespaceTable().getIndex("http://opcfoundation.org/UA/Machinery/").intValue();
            StatusCode[] deleted = engineer.deleteNodes(List.of(new DeleteNodesItem(new NodeId(machinery, 1012), true),
                    new DeleteNodesItem(Identifiers.ObjectsFolder, true))).getResults();

            assertThat(deleted).extracting(StatusCode::getValue)
                    .containsExactly(StatusCodes.Bad_NotSupported, StatusCodes.Bad_UserAccessDenied);
        } finally {
            engineer.disconnect();
        }
    }

    @Test
    void operator_and_anonymous_are_denied() throws Exception {
        for (IdentityProvider identity : List.of(new UsernameProvider("operator", "line1-operator"),
                new AnonymousProvider())) {
            OpcUaClient client = connect(identity);
            try {
                AddNodesResult added = client.addNodes(List.of(note(client, "not mine"))).getResults()[0];
                StatusCode deleted = client.deleteNodes(List.of(new DeleteNodesItem(
                        new NodeId(plantNamespace(client), "FillingLine.ConveyorSpeed"), true))).getResults()[0];

                assertThat(added.getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_UserAccessDenied);
                assertThat(deleted.getValue()).isEqualTo(StatusCodes.Bad_UserAccessDenied);
            } finally {
                client.disconnect();
            }
        }
    }
}
