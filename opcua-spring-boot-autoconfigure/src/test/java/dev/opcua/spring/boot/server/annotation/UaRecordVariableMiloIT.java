package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.testing.MiloClients;
import dev.opcua.stack.server.OpcUaServer;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.core.types.DynamicEnumType;
import org.eclipse.milo.opcua.sdk.core.types.DynamicStructType;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A Java record as a structured {@link UaVariable}: Eclipse Milo 1.1.2's client reads the value,
 * decodes it through the DataTypeDefinitions the server defined from the record, and writes a
 * changed value that the bean's setter (or field) receives as a new record.
 */
class UaRecordVariableMiloIT {

    private static final String NS = "urn:test:annotations:records";

    enum Shift { EARLY, LATE, NIGHT }

    record Range(double low, double high) {
        Range {
            if (low > high) {
                throw new IllegalArgumentException("low " + low + " is above high " + high);
            }
        }
    }

    record Setpoint(String product, double fillVolume, Range tolerance, Shift shift, List<Integer> heads,
            Optional<String> note) {
    }

    @OpcUaNamespace(value = NS, name = "Filler")
    static final class Filler {

        private volatile Setpoint setpoint = new Setpoint("cola", 0.5, new Range(0.49, 0.51), Shift.LATE,
                List.of(1, 2, 3), Optional.empty());

        @UaVariable(access = UaAccess.READ_WRITE)
        volatile Range speedRange = new Range(0, 2);

        @UaVariable(access = UaAccess.READ_WRITE, description = "what the line fills")
        public Setpoint getSetpoint() {
            return setpoint;
        }

        public void setSetpoint(Setpoint setpoint) {
            this.setpoint = setpoint;
        }
    }

    private static Filler filler;
    private static OpcUaAnnotatedNodeManagers managers;
    private static OpcUaServer server;
    private static OpcUaClient client;

    @BeforeAll
    static void start() throws Exception {
        filler = new Filler();
        managers = OpcUaAnnotatedNodeManagers.of(Map.of("filler", filler));
        OpcUaServer.Builder builder = OpcUaServer.builder()
                .applicationUri("urn:test:annotations:records:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"));
        managers.registerWith(builder);
        server = builder.build().start();
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

    private static DynamicStructType readStructure(String path) throws Exception {
        DataValue value = client.readValue(0, TimestampsToReturn.Both, node(path));
        assertThat(value.getStatusCode().isGood()).as("read %s: %s", path, value.getStatusCode()).isTrue();
        return (DynamicStructType) ((ExtensionObject) value.getValue().getValue())
                .decode(client.getDynamicEncodingContext());
    }

    private static StatusCode write(String path, DynamicStructType value) throws Exception {
        return client.writeValues(List.of(node(path)), List.of(new DataValue(new Variant(
                ExtensionObject.encode(client.getDynamicEncodingContext(), value))))).get(0);
    }

    @Test
    void the_variable_has_the_records_data_type_in_the_types_namespace() throws Exception {
        DataValue dataType = client.read(0, TimestampsToReturn.Neither, List.of(new ReadValueId(
                node("Filler.Setpoint"), AttributeId.DataType.uid(), null, null))).getResults()[0];
        assertThat(dataType.getValue().getValue()).isEqualTo(new NodeId(
                server.namespaces().indexOf(OpcUaAnnotatedNodeManager.typesNamespaceUri(NS)), "Setpoint"));
    }

    @Test
    void milo_decodes_the_record_and_the_setter_receives_a_written_one() throws Exception {
        DynamicStructType setpoint = readStructure("Filler.Setpoint");
        Map<String, Object> members = setpoint.getMembers();
        assertThat(members).containsEntry("Product", "cola").containsEntry("FillVolume", 0.5);
        assertThat(((DynamicStructType) members.get("Tolerance")).getMembers()).containsEntry("Low", 0.49)
                .containsEntry("High", 0.51);
        assertThat(((DynamicEnumType) members.get("Shift")).getValue()).isEqualTo(Shift.LATE.ordinal());
        assertThat((Object[]) members.get("Heads")).containsExactly(1, 2, 3);

        members.remove("Note"); // absent, see MiloOnRecordDataTypesIT
        members.put("Product", "water");
        members.put("FillVolume", 1.0);
        StatusCode written = write("Filler.Setpoint", setpoint);
        assertThat(written.isGood()).as("write %s", written).isTrue();
        assertThat(filler.getSetpoint()).isEqualTo(new Setpoint("water", 1.0, new Range(0.49, 0.51), Shift.LATE,
                List.of(1, 2, 3), Optional.empty()));
        assertThat(readStructure("Filler.Setpoint").getMembers()).containsEntry("Product", "water");
    }

    @Test
    void a_field_receives_a_written_record_and_a_value_the_record_refuses_is_out_of_range() throws Exception {
        DynamicStructType range = readStructure("Filler.SpeedRange");
        range.getMembers().put("High", 3.0);
        assertThat(write("Filler.SpeedRange", range).isGood()).isTrue();
        assertThat(filler.speedRange).isEqualTo(new Range(0, 3.0));

        range.getMembers().put("Low", 5.0);
        assertThat(write("Filler.SpeedRange", range).getValue()).isEqualTo(StatusCodes.Bad_OutOfRange);
        assertThat(filler.speedRange).isEqualTo(new Range(0, 3.0));
    }
}
