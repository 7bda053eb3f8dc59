package dev.opcua.stack.codegen.model;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.codegen.SchemaLocations;
import dev.opcua.stack.codegen.model.StructureModel.Shape;
import dev.opcua.stack.codegen.model.ValueType.Kind;
import dev.opcua.stack.codegen.schema.SchemaData;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class GenerationModelSchemaIT {

    private static GenerationModel model;

    @BeforeAll
    static void buildModel() throws Exception {
        model = GenerationModel.build(SchemaData.load(SchemaLocations.requireSchemaDir()));
    }

    private static StructureModel structure(String name) {
        return model.structures().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
    }

    private static EnumModel enumeration(String name) {
        return model.enumerations().stream().filter(e -> e.name().equals(name)).findFirst().orElseThrow();
    }

    @Test
    void every_structure_but_the_hand_written_built_ins_is_generated() {
        assertThat(model.skippedHandWritten()).containsExactlyInAnyOrder(
                "XmlElement", "NodeIdType", "TwoByteNodeId", "FourByteNodeId", "NumericNodeId", "StringNodeId",
                "GuidNodeId", "ByteStringNodeId", "NodeId", "ExpandedNodeId", "StatusCode", "DiagnosticInfo",
                "QualifiedName", "LocalizedText", "DataValue", "ExtensionObject", "Variant");
        assertThat(model.structures()).hasSize(329 - 15);
        assertThat(model.structures()).extracting(StructureModel::name)
                .contains("ReadRequest", "Union", "KeyValuePair")
                .doesNotContain("NodeId", "Variant", "ExtensionObject")
                .isSorted();
    }

    @Test
    void every_enumeration_but_the_empty_one_is_generated_and_option_sets_separately() {
        assertThat(model.enumerations()).hasSize(61 - 1 - 1 - 17);
        assertThat(model.enumerations()).extracting(EnumModel::name)
                .contains("TimestampsToReturn", "NamingRuleType")
                .doesNotContain("Enumeration", "NodeIdType", "AccessLevelType");
        assertThat(model.optionSets()).hasSize(17);
        assertThat(model.optionSets()).allMatch(EnumModel::optionSet);
        assertThat(enumeration("TimestampsToReturn").dataTypeId()).isEqualTo(625);
    }

    @Test
    void a_request_maps_its_fields_to_java_types_and_codec_methods() {
        StructureModel readRequest = structure("ReadRequest");

        assertThat(readRequest.shape()).isEqualTo(Shape.FINAL);
        assertThat(readRequest.baseName()).isNull();
        assertThat(readRequest.dataTypeId()).isEqualTo(629);
        assertThat(readRequest.binaryEncodingId()).isEqualTo(631);
        assertThat(readRequest.properties()).extracting(PropertyModel::javaName)
                .containsExactly("requestHeader", "maxAge", "timestampsToReturn", "nodesToRead");
        assertThat(readRequest.properties()).extracting(PropertyModel::javaType)
                .containsExactly("RequestHeader", "double", "TimestampsToReturn", "ReadValueId[]");
        assertThat(readRequest.properties()).extracting(p -> p.type().codecName())
                .containsExactly("Struct", "Double", "Enum", "Struct");
    }

    @Test
    void array_fields_have_no_separate_length_field() {
        for (StructureModel structure : model.structures()) {
            assertThat(structure.properties()).extracting(PropertyModel::specName)
                    .as(structure.name())
                    .noneMatch(name -> name.startsWith("NoOf"));
        }
        assertThat(structure("ReadRequest").properties().get(3).array()).isTrue();
    }

    @Test
    void a_derived_structure_lists_the_fields_of_its_base_first() {
        StructureModel base = structure("PubSubGroupDataType");
        StructureModel derived = structure("WriterGroupDataType");

        assertThat(base.shape()).isEqualTo(Shape.OPEN);
        assertThat(derived.baseName()).isEqualTo("PubSubGroupDataType");
        List<PropertyModel> inherited = derived.inheritedProperties();
        assertThat(inherited).extracting(PropertyModel::specName)
                .containsExactlyElementsOf(base.properties().stream().map(PropertyModel::specName).toList());
        assertThat(derived.properties().subList(0, inherited.size())).isEqualTo(inherited);
        assertThat(derived.ownProperties().get(0).specName()).isEqualTo("WriterGroupId");
    }

    @Test
    void bases_without_fields_are_abstract_and_have_no_codec() {
        assertThat(structure("FilterOperand").shape()).isEqualTo(Shape.ABSTRACT);
        assertThat(structure("FilterOperand").isConcrete()).isFalse();
        assertThat(structure("ElementOperand").baseName()).isEqualTo("FilterOperand");
        assertThat(structure("UserIdentityToken").shape()).isEqualTo(Shape.OPEN);
        assertThat(structure("AnonymousIdentityToken").shape()).isEqualTo(Shape.FINAL);
    }

    @Test
    void every_concrete_structure_has_a_binary_encoding_id() {
        assertThat(model.structures()).filteredOn(StructureModel::isConcrete)
                .allMatch(s -> s.binaryEncodingId() != null);
    }

    @Test
    void option_set_fields_are_stored_as_primitives_of_their_size() {
        PropertyModel permissions = structure("RolePermissionType").properties().get(1);
        assertThat(permissions.type().kind()).isEqualTo(Kind.PRIMITIVE);
        assertThat(permissions.javaType()).isEqualTo("long");
        assertThat(permissions.type().codecName()).isEqualTo("UInt32");

        PropertyModel fieldFlags = structure("FieldMetaData").properties().stream()
                .filter(p -> p.specName().equals("FieldFlags")).findFirst().orElseThrow();
        assertThat(fieldFlags.javaType()).isEqualTo("int");
        assertThat(fieldFlags.type().codecName()).isEqualTo("UInt16");
    }

    @Test
    void structure_fields_never_have_an_abstract_type() {
        for (StructureModel structure : model.structures()) {
            for (PropertyModel property : structure.properties()) {
                if (property.type().kind() == Kind.STRUCT) {
                    assertThat(structure(property.type().javaType()).isConcrete())
                            .as(structure.name() + "." + property.specName()).isTrue();
                }
            }
        }
    }
}
