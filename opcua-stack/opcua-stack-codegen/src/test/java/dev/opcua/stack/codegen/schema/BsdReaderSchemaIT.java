package dev.opcua.stack.codegen.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.codegen.SchemaLocations;
import java.util.List;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class BsdReaderSchemaIT {

    private static final String UA = "http://opcfoundation.org/UA/";

    private static TypeDictionary types;

    @BeforeAll
    static void readDictionary() throws Exception {
        types = BsdReader.read(SchemaLocations.requireSchemaDir().resolve(SchemaData.TYPES_FILE));
    }

    private static StructuredTypeDef structure(String name) {
        return types.structuredTypes().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void every_structured_enumerated_and_opaque_type_is_read() {
        assertThat(types.targetNamespace()).isEqualTo(UA);
        assertThat(types.structuredTypes()).hasSize(329);
        assertThat(types.enumeratedTypes()).hasSize(61);
        assertThat(types.enumeratedTypes().stream().filter(EnumeratedTypeDef::optionSet)).hasSize(17);
        assertThat(types.opaqueTypes()).contains("StatusCode", "Duration", "UtcTime");
    }

    @Test
    void types_are_listed_in_document_order() {
        assertThat(types.structuredTypes().get(0).name()).isEqualTo("XmlElement");
        assertThat(types.enumeratedTypes().get(0).name()).isEqualTo("NodeIdType");
    }

    @Test
    void type_name_prefixes_resolve_to_namespaces() {
        StructuredTypeDef readRequest = structure("ReadRequest");

        assertThat(readRequest.baseType()).isEqualTo(new QName(UA, "ExtensionObject"));
        assertThat(readRequest.fields().get(0).typeName()).isEqualTo(new QName(UA, "RequestHeader"));
        assertThat(readRequest.fields().get(1).typeName())
                .isEqualTo(new QName(BsdReader.BINARY_SCHEMA_NS, "Double"));
    }

    @Test
    void an_array_field_names_its_length_field_which_is_not_a_value_field() {
        StructuredTypeDef readRequest = structure("ReadRequest");

        assertThat(readRequest.fields()).extracting(FieldDef::name)
                .containsExactly("RequestHeader", "MaxAge", "TimestampsToReturn", "NoOfNodesToRead", "NodesToRead");
        assertThat(readRequest.valueFields()).extracting(FieldDef::name)
                .containsExactly("RequestHeader", "MaxAge", "TimestampsToReturn", "NodesToRead");
        FieldDef nodesToRead = readRequest.valueFields().get(3);
        assertThat(nodesToRead.isArray()).isTrue();
        assertThat(nodesToRead.lengthField()).isEqualTo("NoOfNodesToRead");
    }

    @Test
    void a_derived_type_repeats_the_fields_of_its_base_first() {
        StructuredTypeDef base = structure("NodeAttributes");
        StructuredTypeDef derived = structure("VariableAttributes");

        assertThat(derived.baseType()).isEqualTo(new QName(UA, "NodeAttributes"));
        List<FieldDef> leading = derived.fields().subList(0, base.fields().size());
        assertThat(leading).extracting(FieldDef::name)
                .containsExactlyElementsOf(base.fields().stream().map(FieldDef::name).toList());
        assertThat(leading).extracting(FieldDef::sourceType).containsOnly("tns:NodeAttributes");
        assertThat(derived.fields().get(base.fields().size()).sourceType()).isNull();
    }

    @Test
    void option_sets_keep_their_size_and_bit_masks() {
        EnumeratedTypeDef accessLevel = types.enumeratedTypes().stream()
                .filter(e -> e.name().equals("AccessLevelType")).findFirst().orElseThrow();

        assertThat(accessLevel.optionSet()).isTrue();
        assertThat(accessLevel.lengthInBits()).isEqualTo(8);
        assertThat(accessLevel.values()).contains(new EnumValueDef("CurrentRead", 1), new EnumValueDef("HistoryWrite", 8));
    }
}
