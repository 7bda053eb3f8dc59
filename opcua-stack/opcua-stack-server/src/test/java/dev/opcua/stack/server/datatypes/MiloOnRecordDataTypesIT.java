package dev.opcua.stack.server.datatypes;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.encoding.generic.GenericStructure;
import dev.opcua.stack.core.ids.StatusCodes;

import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.testing.MiloClients;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.core.types.DynamicEnumType;
import org.eclipse.milo.opcua.sdk.core.types.DynamicStructType;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.StructureType;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.EnumDefinition;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.StructureDefinition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DataTypes defined from Java records: Eclipse Milo 1.1.2's client reads a record-valued variable,
 * decodes it from the DataTypeDefinitions alone (nested structure, enumeration, arrays, optional
 * fields) and writes a changed value, which arrives as a new record.
 */
class MiloOnRecordDataTypesIT {

    private static final String NS = "urn:test:records";
    private static final String TYPES = "urn:test:records/types";

    /** Any annotation of this simple name makes a component optional. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target({ElementType.RECORD_COMPONENT, ElementType.TYPE_USE})
    @interface Nullable {
    }

    enum Mode { MANUAL, AUTOMATIC }

    record Limits(double low, double high) {
    }

    record Recipe(String name, int bottles, Mode mode, Limits limits, double[] weights, List<String> tags,
            Optional<Instant> approved, @Nullable String note) {
        Recipe {
            if (bottles < 0) {
                throw new IllegalArgumentException("bottles must be 0 or more, was " + bottles);
            }
        }
    }

    private static final AtomicReference<Recipe> current = new AtomicReference<>(new Recipe("cola", 6,
            Mode.AUTOMATIC, new Limits(0.5, 1.5), new double[] {0.33, 0.5}, List.of("sweet", "dark"),
            Optional.empty(), "seasonal"));
    private static RecordDataTypeManager types;
    private static OpcUaServer server;
    private static OpcUaClient client;

    @BeforeAll
    static void start() throws Exception {
        types = RecordDataTypeManager.builder(TYPES).record(Recipe.class).build();
        InMemoryNodeManager nodes = InMemoryNodeManager.builder(NS)
                .variable("Recipe", types.dataTypeId(Recipe.class), v -> v
                        .valueSupplier(() -> types.toVariant(current.get()))
                        .onWrite((context, value) -> current.set(types.fromVariant(value, Recipe.class))))
                .build();
        server = OpcUaServer.builder()
                .applicationUri("urn:test:records:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .nodeManager(nodes)
                .nodeManager(types)
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

    private static NodeId recipeNode() {
        return new NodeId(server.namespaces().indexOf(NS), "Recipe");
    }

    private static NodeId type(String name) {
        return new NodeId(server.namespaces().indexOf(TYPES), name);
    }

    @Test
    void the_data_types_carry_definitions_and_the_variable_names_its_type() throws Exception {
        DataValue[] values = client.read(0, TimestampsToReturn.Neither, List.of(
                new ReadValueId(recipeNode(), AttributeId.DataType.uid(), null, null),
                new ReadValueId(type("Recipe"), AttributeId.DataTypeDefinition.uid(), null, null),
                new ReadValueId(type("Mode"), AttributeId.DataTypeDefinition.uid(), null, null),
                new ReadValueId(type("Mode.EnumStrings"), AttributeId.Value.uid(), null, null))).getResults();
        assertThat(values[0].getValue().getValue()).isEqualTo(type("Recipe"));
        StructureDefinition recipe = (StructureDefinition) ((ExtensionObject) values[1].getValue().getValue())
                .decode(client.getStaticEncodingContext());
        assertThat(recipe.getStructureType()).isEqualTo(StructureType.StructureWithOptionalFields);
        assertThat(recipe.getBaseDataType()).isEqualTo(Identifiers.Structure);
        assertThat(recipe.getFields()).extracting(f -> f.getName()).containsExactly("Name", "Bottles", "Mode",
                "Limits", "Weights", "Tags", "Approved", "Note");
        assertThat(recipe.getFields()).extracting(f -> f.getIsOptional()).containsExactly(false, false, false,
                false, false, false, true, true);
        assertThat(recipe.getFields()[3].getDataType()).isEqualTo(type("Limits"));
        assertThat(recipe.getFields()[4].getValueRank()).isEqualTo(1);
        EnumDefinition mode = (EnumDefinition) ((ExtensionObject) values[2].getValue().getValue())
                .decode(client.getStaticEncodingContext());
        assertThat(mode.getFields()).extracting(f -> f.getName()).containsExactly("MANUAL", "AUTOMATIC");
        assertThat(values[3].getValue().getValue()).isNotNull();
    }

    @Test
    void milo_decodes_the_record_value_and_writes_a_changed_one() throws Exception {
        DataValue read = client.readValue(0, TimestampsToReturn.Both, recipeNode());
        DynamicStructType value = (DynamicStructType) ((ExtensionObject) read.getValue().getValue())
                .decode(client.getDynamicEncodingContext());
        Map<String, Object> members = value.getMembers();
        assertThat(members).containsEntry("Name", "cola").containsEntry("Bottles", 6).containsEntry("Note", "seasonal");
        assertThat(((DynamicEnumType) members.get("Mode")).getValue()).isEqualTo(1);
        assertThat(((DynamicStructType) members.get("Limits")).getMembers()).containsEntry("Low", 0.5)
                .containsEntry("High", 1.5);
        assertThat((Object[]) members.get("Weights")).containsExactly(0.33, 0.5);
        assertThat((Object[]) members.get("Tags")).containsExactly("sweet", "dark");
        assertThat(members.get("Approved")).isNull();

        // Milo 1.1.2's encoder gives mask bits only to the optional fields present, where Part 6, 5.2.7 numbers
        // every optional field: with all of them present both agree
        Instant approved = Instant.parse("2026-12-01T10:00:00Z");
        members.put("Approved", new org.eclipse.milo.opcua.stack.core.types.builtin.DateTime(approved));
        members.put("Bottles", 12);
        ((DynamicStructType) members.get("Limits")).getMembers().put("High", 2.0);
        StatusCode written = client.writeValues(List.of(recipeNode()), List.of(new DataValue(
                new org.eclipse.milo.opcua.stack.core.types.builtin.Variant(
                        ExtensionObject.encode(client.getDynamicEncodingContext(), value))))).get(0);
        assertThat(written.isGood()).as("write %s", written).isTrue();
        Recipe recipe = current.get();
        assertThat(recipe.bottles()).isEqualTo(12);
        assertThat(recipe.limits()).isEqualTo(new Limits(0.5, 2.0));
        assertThat(recipe.mode()).isEqualTo(Mode.AUTOMATIC);
        assertThat(recipe.weights()).containsExactly(0.33, 0.5);
        assertThat(recipe.tags()).containsExactly("sweet", "dark");
        assertThat(recipe.approved()).contains(approved);
        assertThat(recipe.note()).isEqualTo("seasonal");
    }

    @Test
    void values_convert_both_ways_and_one_the_record_refuses_is_out_of_range() {
        Variant value = types.toVariant(new Recipe("x", 0, Mode.MANUAL, new Limits(0, 0), new double[0], List.of(),
                Optional.of(Instant.EPOCH), null));
        Recipe back = types.fromVariant(value, Recipe.class);
        assertThat(back.approved()).contains(Instant.EPOCH);
        assertThat(back.note()).isNull();
        assertThat(back.mode()).isEqualTo(Mode.MANUAL);

        GenericStructure structure = ((dev.opcua.stack.core.types.builtin.ExtensionObject) value.value())
                .decoded(GenericStructure.class);
        GenericStructure.Builder negative = GenericStructure.builder(structure.layout());
        for (int i = 0; i < structure.layout().fields().size(); i++) {
            negative.set(i, structure.get(i));
        }
        negative.set("Bottles", -1);
        assertThatThrownBy(() -> types.fromVariant(Variant.of(
                dev.opcua.stack.core.types.builtin.ExtensionObject.of(negative.build())), Recipe.class))
                .isInstanceOfSatisfying(UaException.class, e -> assertThat(e.statusCode().value())
                        .isEqualTo(StatusCodes.BadOutOfRange))
                .hasMessageContaining("bottles must be 0 or more");
        assertThatThrownBy(() -> types.fromVariant(Variant.of(3.0), Recipe.class))
                .isInstanceOfSatisfying(UaException.class, e -> assertThat(e.statusCode().value())
                        .isEqualTo(StatusCodes.BadTypeMismatch));
    }

    record Unsupported(Thread thread) {
    }

    @Test
    void an_unsupported_component_is_refused_naming_record_and_component() {
        assertThatThrownBy(() -> RecordDataTypeManager.builder(TYPES).record(Unsupported.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(Unsupported.class.getName()).hasMessageContaining("component thread")
                .hasMessageContaining("java.lang.Thread");
    }
}
