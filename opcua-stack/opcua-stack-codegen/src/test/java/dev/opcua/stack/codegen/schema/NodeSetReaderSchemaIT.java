package dev.opcua.stack.codegen.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.codegen.SchemaLocations;
import dev.opcua.stack.codegen.StandardNodeSet;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.EnumMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The standard nodeset (Opc.Ua.NodeSet2.xml) read whole: every node and value. */
class NodeSetReaderSchemaIT {

    @Test
    void the_standard_nodeset_has_as_many_nodes_of_each_class_as_its_xml_has_elements() throws Exception {
        String xml = Files.readString(SchemaLocations.requireSchemaDir().resolve(NodeSetReader.STANDARD_FILE),
                StandardCharsets.UTF_8);
        Map<NodeClass, Long> inXml = new EnumMap<>(NodeClass.class);
        Matcher elements = Pattern.compile("<UA(Object|Variable|Method|View|ObjectType|VariableType|DataType"
                + "|ReferenceType)\\s").matcher(xml);
        while (elements.find()) {
            inXml.merge(NodeClass.valueOf(elements.group(1)), 1L, Long::sum);
        }

        NodeSet nodeSet = StandardNodeSet.get();

        Map<NodeClass, Long> read = new EnumMap<>(NodeClass.class);
        for (NodeClass nodeClass : NodeClass.values()) {
            if (nodeSet.count(nodeClass) > 0) {
                read.put(nodeClass, nodeSet.count(nodeClass));
            }
        }
        assertThat(read).isEqualTo(inXml);
        // opcua-stack-server's Namespace0LoaderTest expects these counts in the loaded store.
        assertThat(nodeSet.nodes()).hasSize(4956);
        assertThat(read).containsEntry(NodeClass.Object, 800L).containsEntry(NodeClass.Variable, 3063L)
                .containsEntry(NodeClass.Method, 425L).containsEntry(NodeClass.ObjectType, 263L)
                .containsEntry(NodeClass.VariableType, 62L).containsEntry(NodeClass.ReferenceType, 72L)
                .containsEntry(NodeClass.DataType, 271L);
        assertThat(nodeSet.referenceCount()).isEqualTo(countOf(xml, "<Reference "));
    }

    @Test
    void every_value_of_the_standard_nodeset_is_converted() throws Exception {
        String xml = Files.readString(SchemaLocations.requireSchemaDir().resolve(NodeSetReader.STANDARD_FILE),
                StandardCharsets.UTF_8);
        NodeSet nodeSet = StandardNodeSet.get();

        assertThat(nodeSet.droppedValues()).isEmpty();
        // Node values open with "<Value>" and a line break; the Value fields of EnumValueType bodies do not.
        assertThat(nodeSet.valueCount()).isEqualTo(countOf(xml, "<Value>\n")).isEqualTo(1153);
        assertThat(nodeSet.skippedDefinitions()).isEqualTo(countOf(xml, "<Definition "));
    }

    private static long countOf(String text, String needle) {
        long count = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length())) {
            count++;
        }
        return count;
    }
}
