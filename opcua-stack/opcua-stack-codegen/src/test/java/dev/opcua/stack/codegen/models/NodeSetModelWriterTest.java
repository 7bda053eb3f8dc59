package dev.opcua.stack.codegen.models;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.codegen.emit.GeneratedFile;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class NodeSetModelWriterTest {

    @Test
    void writes_the_document_as_builder_calls_keeping_first_names_values_and_lines(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("Small.NodeSet2.xml");
        Files.writeString(file, """
                <?xml version="1.0" encoding="utf-8"?>
                <UANodeSet xmlns="http://opcfoundation.org/UA/2011/03/UANodeSet.xsd">
                <NamespaceUris><Uri>urn:small</Uri></NamespaceUris>
                <Models><Model ModelUri="urn:small" Version="1.0"><RequiredModel ModelUri="http://opcfoundation.org/UA/" Version="1.05"/></Model></Models>
                <Aliases><Alias Alias="Int32">i=6</Alias></Aliases>
                <Extensions><Extension>skipped</Extension></Extensions>
                <UAVariable NodeId="ns=1;i=7" BrowseName="1:Speed &quot;max&quot;" DataType="Int32">
                  <DisplayName>Speed \u00e9</DisplayName><DisplayName Locale="de">Tempo</DisplayName>
                  <References><Reference ReferenceType="HasTypeDefinition">i=63</Reference>
                    <Reference ReferenceType="HasComponent" IsForward="false">i=85</Reference></References>
                  <Value><ListOfInt32 xmlns="http://opcfoundation.org/UA/2008/02/Types.xsd"><Int32>1</Int32><Int32>2</Int32></ListOfInt32></Value>
                </UAVariable>
                </UANodeSet>
                """);
        GeneratedFile generated = NodeSetModelWriter.write(file, "SmallModel", "A small model");
        String java = generated.content();
        assertThat(generated.relativePath()).isEqualTo("dev/opcua/stack/server/models/SmallModel.java");
        assertThat(java).contains("b.namespaceUris(\"urn:small\");")
                .contains("b.model(\"urn:small\", \"1.0\", null);")
                .contains("b.requiredModel(\"http://opcfoundation.org/UA/\", \"1.05\", null);")
                .contains("b.alias(\"Int32\", \"i=6\");")
                .contains("b.node(\"UAVariable\", 7, \"NodeId\", \"ns=1;i=7\", \"BrowseName\", \"1:Speed \\\"max\\\"\", "
                        + "\"DataType\", \"Int32\")")
                .contains(".displayName(\"Speed \\u00e9\", null)")
                .doesNotContain("Tempo").doesNotContain("skipped")
                .contains(".reference(\"HasTypeDefinition\", true, \"i=63\")")
                .contains(".reference(\"HasComponent\", false, \"i=85\")")
                .contains(".value(element(\"ListOfInt32\", 11, null, NONE,")
                .contains("element(\"Int32\", 11, \"1\", NONE)")
                .contains("nodes0(b);").doesNotContain("nodes1(b);");
    }

    @Test
    void splits_the_nodes_into_methods_of_at_most_fifty(@TempDir Path dir) throws Exception {
        StringBuilder xml = new StringBuilder("<UANodeSet><NamespaceUris><Uri>urn:n</Uri></NamespaceUris>"
                + "<Models><Model ModelUri=\"urn:n\"/></Models>\n");
        for (int i = 0; i < 120; i++) {
            xml.append("<UAObject NodeId=\"ns=1;i=").append(i).append("\" BrowseName=\"1:O").append(i).append("\"/>\n");
        }
        Path file = dir.resolve("Many.xml");
        Files.writeString(file, xml.append("</UANodeSet>").toString());
        String java = NodeSetModelWriter.write(file, "ManyModel", "Many").content();
        assertThat(java).contains("nodes2(b);").doesNotContain("nodes3(b);").contains("(120 nodes)");
    }

    @Test
    void literals_escape_quotes_backslashes_line_breaks_and_non_ascii() {
        assertThat(NodeSetModelWriter.literal("a\"b\\c\nd\u00fc")).isEqualTo("\"a\\\"b\\\\c\\nd\\u00fc\"");
        assertThat(NodeSetModelWriter.literal(null)).isEqualTo("null");
    }
}
