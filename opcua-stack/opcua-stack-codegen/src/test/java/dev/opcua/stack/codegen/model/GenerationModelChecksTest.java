package dev.opcua.stack.codegen.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.codegen.TestSchema;
import dev.opcua.stack.codegen.schema.SchemaData;
import dev.opcua.stack.codegen.schema.SchemaException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerationModelChecksTest {

    private static final String POINT = """
              <opc:StructuredType Name="Point" BaseType="ua:ExtensionObject">
                <opc:Field Name="X" TypeName="opc:Double" />
                <opc:Field Name="NoOfTags" TypeName="opc:Int32" />
                <opc:Field Name="Tags" TypeName="opc:String" LengthField="NoOfTags" />
              </opc:StructuredType>
            """;

    private static final String POINT_IDS = "Point,100,DataType\nPoint_Encoding_DefaultBinary,101,Object\n";

    private static GenerationModel build(Path dir, String body, String ids) throws Exception {
        return GenerationModel.build(SchemaData.load(TestSchema.write(dir, body, ids)));
    }

    @Test
    void a_small_valid_schema_builds_a_model(@TempDir Path dir) throws Exception {
        GenerationModel model = build(dir, POINT, POINT_IDS);

        assertThat(model.structures()).singleElement().satisfies(point -> {
            assertThat(point.binaryEncodingId()).isEqualTo(101);
            assertThat(point.properties()).extracting(PropertyModel::javaType).containsExactly("double", "String[]");
        });
    }

    @Test
    void an_optional_field_fails_the_generation(@TempDir Path dir) {
        String body = """
                  <opc:StructuredType Name="Point" BaseType="ua:ExtensionObject">
                    <opc:Field Name="XSpecified" TypeName="opc:Bit" />
                    <opc:Field Name="X" TypeName="opc:Double" SwitchField="XSpecified" />
                  </opc:StructuredType>
                """;

        assertThatThrownBy(() -> build(dir, body, POINT_IDS))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("structure Point")
                .hasMessageContaining("optional");
    }

    @Test
    void a_structure_without_a_binary_encoding_row_fails_naming_the_missing_row(@TempDir Path dir) {
        assertThatThrownBy(() -> build(dir, POINT, "Point,100,DataType\n"))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("Point_Encoding_DefaultBinary");
    }

    @Test
    void a_field_of_an_opaque_alias_type_fails_naming_the_alias(@TempDir Path dir) {
        String body = """
                  <opc:OpaqueType Name="Duration" />
                  <opc:StructuredType Name="Point" BaseType="ua:ExtensionObject">
                    <opc:Field Name="Age" TypeName="tns:Duration" />
                  </opc:StructuredType>
                """;

        assertThatThrownBy(() -> build(dir, body, POINT_IDS))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("opaque type Duration");
    }

    @Test
    void a_derived_structure_that_does_not_repeat_its_base_fields_fails(@TempDir Path dir) {
        String body = POINT + """
                  <opc:StructuredType Name="Point3" BaseType="tns:Point">
                    <opc:Field Name="Z" TypeName="opc:Double" />
                  </opc:StructuredType>
                """;

        assertThatThrownBy(() -> build(dir, body,
                POINT_IDS + "Point3,102,DataType\nPoint3_Encoding_DefaultBinary,103,Object\n"))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("structure Point3")
                .hasMessageContaining("base Point");
    }

    @Test
    void an_array_whose_length_field_does_not_precede_it_fails(@TempDir Path dir) {
        String body = """
                  <opc:StructuredType Name="Point" BaseType="ua:ExtensionObject">
                    <opc:Field Name="NoOfTags" TypeName="opc:Int32" />
                    <opc:Field Name="X" TypeName="opc:Double" />
                    <opc:Field Name="Tags" TypeName="opc:String" LengthField="NoOfTags" />
                  </opc:StructuredType>
                """;

        assertThatThrownBy(() -> build(dir, body, POINT_IDS))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("NoOfTags");
    }

    @Test
    void a_field_of_an_abstract_structure_type_fails(@TempDir Path dir) {
        String body = """
                  <opc:StructuredType Name="Shape" BaseType="ua:ExtensionObject" />
                  <opc:StructuredType Name="Circle" BaseType="tns:Shape">
                    <opc:Field Name="Radius" TypeName="opc:Double" />
                  </opc:StructuredType>
                  <opc:StructuredType Name="Point" BaseType="ua:ExtensionObject">
                    <opc:Field Name="Outline" TypeName="tns:Shape" />
                  </opc:StructuredType>
                """;
        String ids = POINT_IDS + "Shape,110,DataType\nCircle,111,DataType\nCircle_Encoding_DefaultBinary,112,Object\n";

        assertThatThrownBy(() -> build(dir, body, ids))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("Outline")
                .hasMessageContaining("abstract type Shape");
    }

    @Test
    void an_abstract_base_may_lack_a_binary_encoding_row(@TempDir Path dir) throws Exception {
        String body = """
                  <opc:StructuredType Name="Shape" BaseType="ua:ExtensionObject" />
                  <opc:StructuredType Name="Circle" BaseType="tns:Shape">
                    <opc:Field Name="Radius" TypeName="opc:Double" />
                  </opc:StructuredType>
                """;
        String ids = "Shape,110,DataType\nCircle,111,DataType\nCircle_Encoding_DefaultBinary,112,Object\n";

        GenerationModel model = build(dir, body, ids);

        assertThat(model.structures()).extracting(StructureModel::name).containsExactly("Circle", "Shape");
        assertThat(model.structures().get(1).binaryEncodingId()).isNull();
        assertThat(model.notes()).anyMatch(note -> note.contains("Shape") && note.contains("no binary encoding"));
    }
}
