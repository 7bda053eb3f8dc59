package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.spring.boot.testing.MiloClients;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.server.OpcUaServer;
import java.net.URL;
import java.util.List;
import java.util.Map;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.NodeClass;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code @UaObject(type = ...)} with an imported ObjectType: the object is an instance of Machinery's
 * MachineIdentificationType (DI and Machinery NodeSet2 files, opcua-stack-server's export of its models) whose
 * children the bean's variables bind; Eclipse Milo 1.1.2's client browses it, reads bound values and
 * the type's, writes one, and follows HasTypeDefinition to the type.
 */
class UaTypedObjectMiloIT {

    private static final String NS = "urn:test:annotations:typed";
    private static final String MACHINERY = "http://opcfoundation.org/UA/Machinery/";
    private static final String IDENTIFICATION_TYPE = "nsu=" + MACHINERY + ";i=1012";

    static final class Identification {
        @UaVariable
        volatile LocalizedText manufacturer = LocalizedText.of("ACME Filling");

        @UaVariable
        volatile String serialNumber = "F-1000";

        @UaVariable
        volatile String productInstanceUri = "urn:acme:filler:F-1000";

        /** an Optional child of the type, created because the bean binds it */
        @UaVariable(dataType = BuiltinType.UInt16)
        volatile int yearOfConstruction = 2024;

        @UaVariable(access = UaAccess.READ_WRITE)
        volatile String location = "Hall 3";
    }

    @OpcUaNamespace(value = NS, name = "Filler")
    static final class Filler {
        @UaVariable
        volatile double speed = 1.5;

        @UaObject(type = IDENTIFICATION_TYPE)
        final Identification identification = new Identification();
    }

    private static Filler filler;
    private static OpcUaServer server;
    private static OpcUaClient client;

    /** A NodeSet2 file of opcua-stack-server's test jar: its export of a built-in model. */
    static URL nodeSet(String file) {
        URL url = UaTypedObjectMiloIT.class.getClassLoader().getResource("nodesets/" + file);
        if (url == null) {
            throw new IllegalStateException("nodesets/" + file
                    + " is not on the class path (opcua-stack-server's test jar)");
        }
        return url;
    }

    private static OpcUaServer.Builder server(Object bean) {
        OpcUaServer.Builder builder = OpcUaServer.builder()
                .applicationUri("urn:test:annotations:typed:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .nodeSet(nodeSet("DI.NodeSet2.xml"))
                .nodeSet(nodeSet("Machinery.NodeSet2.xml"));
        OpcUaAnnotatedNodeManagers.of(Map.of("filler", bean)).registerWith(builder);
        return builder;
    }

    @BeforeAll
    static void start() throws Exception {
        filler = new Filler();
        server = server(filler).build().start();
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

    private static NodeId node(String path) {
        return new NodeId(server.namespaces().indexOf(NS), path);
    }

    private static List<ReferenceDescription> browse(NodeId node, NodeId referenceType) throws Exception {
        return List.of(client.browse(new BrowseDescription(node, BrowseDirection.Forward, referenceType, true,
                uint(0), uint(BrowseResultMask.All.getValue()))).getReferences());
    }

    private static Object read(String path) throws Exception {
        DataValue value = client.readValue(0, TimestampsToReturn.Neither, node(path));
        assertThat(value.getStatusCode().isGood()).as("read %s: %s", path, value.getStatusCode()).isTrue();
        return value.getValue().getValue();
    }

    @Test
    void the_object_is_an_instance_of_the_imported_type() throws Exception {
        assertThat(browse(node("Filler"), Identifiers.HierarchicalReferences))
                .extracting(r -> r.getBrowseName().getName()).contains("Speed", "Identification");
        List<ReferenceDescription> type = browse(node("Filler.Identification"), Identifiers.HasTypeDefinition);
        assertThat(type).hasSize(1);
        assertThat(type.get(0).getNodeId().getNamespaceUri()).isIn(MACHINERY, null);
        assertThat(type.get(0).getNodeId().getIdentifier()).isEqualTo(uint(1012));
        assertThat(type.get(0).getNodeId().getNamespaceIndex().intValue())
                .isEqualTo(server.namespaces().indexOf(MACHINERY));
    }

    @Test
    void milo_browses_the_mandatory_and_the_bound_optional_children() throws Exception {
        List<ReferenceDescription> children = browse(node("Filler.Identification"), Identifiers.HasProperty);
        assertThat(children).extracting(r -> r.getBrowseName().getName()).contains("Manufacturer", "SerialNumber",
                "ProductInstanceUri", "YearOfConstruction", "Location").doesNotContain("Model", "MonthOfConstruction");
        assertThat(children).extracting(ReferenceDescription::getNodeClass).containsOnly(NodeClass.Variable);
    }

    @Test
    void milo_reads_the_bound_values_and_writes_one_to_the_bean() throws Exception {
        assertThat(((org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText)
                read("Filler.Identification.Manufacturer")).getText()).isEqualTo("ACME Filling");
        assertThat(read("Filler.Identification.SerialNumber")).isEqualTo("F-1000");
        assertThat(read("Filler.Identification.YearOfConstruction")).hasToString("2024");
        filler.identification.serialNumber = "F-1001";
        assertThat(read("Filler.Identification.SerialNumber")).isEqualTo("F-1001");

        StatusCode written = client.writeValues(List.of(node("Filler.Identification.Location")),
                List.of(new DataValue(new Variant("Hall 4")))).get(0);
        assertThat(written.isGood()).as("write %s", written).isTrue();
        assertThat(filler.identification.location).isEqualTo("Hall 4");
        StatusCode readOnly = client.writeValues(List.of(node("Filler.Identification.SerialNumber")),
                List.of(new DataValue(new Variant("X")))).get(0);
        assertThat(readOnly.isBad()).isTrue();
        assertThat(filler.identification.serialNumber).isEqualTo("F-1001");
    }

    static final class WrongIdentification {
        @UaVariable
        volatile String manufacturerName = "ACME";
    }

    @OpcUaNamespace(value = NS, name = "Filler")
    static final class WrongFiller {
        @UaObject(type = IDENTIFICATION_TYPE)
        final WrongIdentification identification = new WrongIdentification();
    }

    @Test
    void a_variable_naming_no_child_of_the_type_stops_the_start_naming_bean_property_and_type() {
        OpcUaServer wrong = server(new WrongFiller()).build();
        try {
            assertThatThrownBy(wrong::start).isInstanceOf(OpcUaAnnotationException.class)
                    .hasMessageContaining("bean 'filler'").hasMessageContaining("identification.manufacturerName")
                    .hasMessageContaining(IDENTIFICATION_TYPE).hasMessageContaining("SerialNumber");
        } finally {
            wrong.close();
        }
    }

    static final class MistypedIdentification {
        @UaVariable
        volatile String manufacturer = "ACME";
    }

    @OpcUaNamespace(value = NS, name = "Filler")
    static final class MistypedFiller {
        @UaObject(type = IDENTIFICATION_TYPE)
        final MistypedIdentification identification = new MistypedIdentification();
    }

    @Test
    void a_variable_whose_java_type_does_not_fit_the_childs_data_type_stops_the_start() {
        OpcUaServer wrong = server(new MistypedFiller()).build();
        try {
            assertThatThrownBy(wrong::start).isInstanceOf(OpcUaAnnotationException.class)
                    .hasMessageContaining("identification.manufacturer").hasMessageContaining("LocalizedText");
        } finally {
            wrong.close();
        }
    }
}
