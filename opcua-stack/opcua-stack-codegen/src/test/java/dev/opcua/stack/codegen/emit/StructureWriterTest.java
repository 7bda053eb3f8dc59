package dev.opcua.stack.codegen.emit;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.codegen.TestSchema;
import dev.opcua.stack.codegen.model.GenerationModel;
import dev.opcua.stack.codegen.model.StructureModel;
import dev.opcua.stack.codegen.schema.SchemaData;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StructureWriterTest {

    private static final String BODY = """
              <opc:EnumeratedType Name="Color" LengthInBits="32">
                <opc:EnumeratedValue Name="Red" Value="0" />
                <opc:EnumeratedValue Name="Green" Value="1" />
              </opc:EnumeratedType>
              <opc:EnumeratedType Name="Flags" LengthInBits="8" IsOptionSet="true">
                <opc:EnumeratedValue Name="None" Value="0" />
                <opc:EnumeratedValue Name="Bold" Value="1" />
                <opc:EnumeratedValue Name="Italic" Value="128" />
              </opc:EnumeratedType>
              <opc:StructuredType Name="Shape" BaseType="ua:ExtensionObject" />
              <opc:StructuredType Name="Label" BaseType="tns:Shape">
                <opc:Field Name="Text" TypeName="ua:LocalizedText" />
                <opc:Field Name="Flags" TypeName="tns:Flags" />
              </opc:StructuredType>
              <opc:StructuredType Name="ColoredLabel" BaseType="tns:Label">
                <opc:Field Name="Text" TypeName="ua:LocalizedText" SourceType="tns:Label" />
                <opc:Field Name="Flags" TypeName="tns:Flags" SourceType="tns:Label" />
                <opc:Field Name="NoOfColors" TypeName="opc:Int32" />
                <opc:Field Name="Colors" TypeName="tns:Color" LengthField="NoOfColors" />
                <opc:Field Name="Id" TypeName="opc:Guid" />
                <opc:Field Name="Class" TypeName="opc:Float" />
              </opc:StructuredType>
              <opc:StructuredType Name="Drawing" BaseType="ua:ExtensionObject">
                <opc:Field Name="NoOfLabels" TypeName="opc:Int32" />
                <opc:Field Name="Labels" TypeName="tns:Label" LengthField="NoOfLabels" />
                <opc:Field Name="Main" TypeName="tns:ColoredLabel" />
                <opc:Field Name="Color" TypeName="tns:Color" />
              </opc:StructuredType>
            """;

    private static final String IDS = """
            Color,200,DataType
            Flags,201,DataType
            Shape,210,DataType
            Label,211,DataType
            Label_Encoding_DefaultBinary,212,Object
            ColoredLabel,213,DataType
            ColoredLabel_Encoding_DefaultBinary,214,Object
            Drawing,215,DataType
            Drawing_Encoding_DefaultBinary,216,Object
            """;

    private static GenerationModel model;

    @BeforeAll
    static void buildModel(@TempDir Path dir) throws Exception {
        model = GenerationModel.build(SchemaData.load(TestSchema.write(dir, BODY, IDS)));
    }

    private static String source(String name) {
        StructureModel structure = model.structures().stream()
                .filter(s -> s.name().equals(name)).findFirst().orElseThrow();
        return StructureWriter.write(structure).content();
    }

    @Test
    void a_fieldless_base_is_an_abstract_class_with_a_type_id_only() {
        String shape = source("Shape");

        assertThat(shape).contains("public abstract class Shape implements UaStructure {")
                .contains("public static final NodeId TYPE_ID = NodeId.ns0(NodeIds.Shape);")
                .doesNotContain("CODEC", "BINARY_ENCODING_ID");
    }

    @Test
    void a_base_with_fields_is_an_open_class_with_its_own_codec() {
        String label = source("Label");

        assertThat(label).contains("public class Label extends Shape {")
                .contains("public Label(LocalizedText text, short flags) {")
                .contains("public static final UaCodec<Label> CODEC = new Codec();")
                .contains("encoder.writeByte(\"Flags\", value.flags);")
                .contains("short flags = decoder.readByte(\"Flags\");");
    }

    @Test
    void a_subtype_passes_the_base_fields_to_the_super_constructor_and_encodes_them_first() {
        String colored = source("ColoredLabel");

        assertThat(colored).contains("public final class ColoredLabel extends Label {")
                .contains("super(text, flags);")
                .contains("private final Color[] colors;")
                .contains("private final float class_;")
                .contains("public float class_() {")
                .doesNotContain("noOfColors");
        assertThat(colored).containsSubsequence(
                "encoder.writeLocalizedText(\"Text\", value.text());",
                "encoder.writeByte(\"Flags\", value.flags());",
                "encoder.writeEnumArray(\"Colors\", value.colors);",
                "encoder.writeGuid(\"Id\", value.id);",
                "encoder.writeFloat(\"Class\", value.class_);");
        assertThat(colored).contains(
                "Color[] colors = decoder.readEnumArray(\"Colors\", Color::fromValue, Color[]::new);",
                "return new ColoredLabel(text, flags, colors, id, class_);",
                "&& Float.compare(class_, that.class_) == 0",
                "Objects.equals(text(), that.text())",
                "+ \", colors=\" + Arrays.toString(colors)",
                "import java.util.UUID;");
    }

    @Test
    void structure_fields_use_the_codec_of_their_type() {
        String drawing = source("Drawing");

        assertThat(drawing).contains(
                "encoder.writeStructArray(\"Labels\", value.labels, Label.CODEC);",
                "Label[] labels = decoder.readStructArray(\"Labels\", Label.CODEC, Label[]::new);",
                "ColoredLabel main = decoder.readStruct(\"Main\", ColoredLabel.CODEC);",
                "Color color = decoder.readEnum(\"Color\", Color::fromValue);",
                "import dev.opcua.stack.core.types.enumerated.Color;",
                "/** Standard structure Drawing (DataType i=215, binary encoding i=216). */");
    }

    @Test
    void enumerations_are_java_enums_with_a_switch_lookup() {
        String color = EnumWriter.write(model.enumerations().get(0)).content();

        assertThat(color).contains(
                "public enum Color implements UaEnumeration {",
                "    Red(0),\n    Green(1);\n",
                "public static final NodeId TYPE_ID = NodeId.ns0(NodeIds.Color);",
                "public static Color fromValue(int value) {",
                "case 1 -> Green;",
                "default -> null;");
    }

    @Test
    void option_sets_are_classes_of_long_masks() {
        String flags = EnumWriter.write(model.optionSets().get(0)).content();

        assertThat(flags).contains(
                "public final class Flags {",
                "public static final int LENGTH_IN_BITS = 8;",
                "public static final long Italic = 0x80L;",
                "private Flags() {");
    }

    @Test
    void the_registry_lists_the_codecs_of_concrete_structures_by_name_each_loaded_by_index() {
        String registry = StandardStructuresWriter.write(model.structures()).content();

        assertThat(registry).containsSubsequence("NodeIds.ColoredLabel_Encoding_DefaultBinary,",
                        "NodeIds.Drawing_Encoding_DefaultBinary,", "NodeIds.Label_Encoding_DefaultBinary")
                .containsSubsequence("NodeIds.ColoredLabel,", "NodeIds.Drawing,", "NodeIds.Label")
                .containsSubsequence("\"ColoredLabel\",", "\"Drawing\",", "\"Label\"")
                .containsSubsequence("case 0 -> ColoredLabel.CODEC;", "case 1 -> Drawing.CODEC;",
                        "case 2 -> Label.CODEC;", "default -> throw new IndexOutOfBoundsException(index);")
                .doesNotContain("Shape")
                .contains("public static UaCodec<?> codec(int index) {")
                .contains("public static List<UaCodec<?>> codecs() {");
        assertThat(List.of(registry.split("\n"))).allMatch(line -> line.length() <= 120);
    }
}
