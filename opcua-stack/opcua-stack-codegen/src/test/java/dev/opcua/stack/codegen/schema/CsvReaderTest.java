package dev.opcua.stack.codegen.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.codegen.SchemaLocations;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvReaderTest {

    @Test
    void quotedValuesMayHoldCommasDoubledQuotesAndLineBreaks() {
        List<CsvReader.Row> rows = CsvReader.parse("test", "\uFEFFa,\"b, \"\"c\"\"\nd\",e\r\n\r\nf,,g\n");

        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).values()).containsExactly("a", "b, \"c\"\nd", "e");
        assertThat(rows.get(1).line()).isEqualTo(4);
        assertThat(rows.get(1).values()).containsExactly("f", "", "g");
    }

    @Test
    void anUnterminatedQuoteIsReportedWithItsLine() {
        assertThatThrownBy(() -> CsvReader.parse("test.csv", "a,b\nc,\"d\n"))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("test.csv:2");
    }

    @Test
    void everyRowOfNodeIdsCsvIsReadInFileOrder() throws Exception {
        Path file = SchemaLocations.requireSchemaDir().resolve(SchemaData.NODE_IDS_FILE);
        long lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).count();

        List<NodeIdEntry> entries = CsvReader.readNodeIds(file);

        assertThat(entries).hasSize((int) lines).hasSizeGreaterThan(12_000);
        assertThat(entries.get(0)).isEqualTo(new NodeIdEntry("Boolean", 1, "DataType"));
        assertThat(entries).contains(
                new NodeIdEntry("ReadRequest", 629, "DataType"),
                new NodeIdEntry("ReadRequest_Encoding_DefaultBinary", 631, "Object"));
    }

    @Test
    void statusCodesKeepNameAndCodeAndIgnoreTheDescription() throws Exception {
        Path file = SchemaLocations.requireSchemaDir().resolve(SchemaData.STATUS_CODES_FILE);
        long lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).count();

        List<StatusCodeEntry> entries = CsvReader.readStatusCodes(file);

        assertThat(entries).hasSize((int) lines).hasSizeGreaterThan(250);
        assertThat(entries).contains(
                new StatusCodeEntry("Good", 0), new StatusCodeEntry("BadDecodingError", 0x80070000));
    }

    @Test
    void attributeIdsAreReadAsNameAndNumber() throws Exception {
        List<AttributeIdEntry> entries =
                CsvReader.readAttributeIds(SchemaLocations.requireSchemaDir().resolve(SchemaData.ATTRIBUTE_IDS_FILE));

        assertThat(entries).startsWith(new AttributeIdEntry("NodeId", 1));
        assertThat(entries).contains(new AttributeIdEntry("Value", 13));
    }

    @Test
    void aSymbolicNameThatIsNotAJavaIdentifierFailsTheRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("NodeIds.csv");
        Files.writeString(file, "Boolean,1,DataType\nNot-An-Identifier,2,DataType\n");

        assertThatThrownBy(() -> CsvReader.readNodeIds(file))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("Not-An-Identifier")
                .hasMessageContaining(":2");
    }

    @Test
    void aDuplicateSymbolicNameFailsTheRead(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("NodeIds.csv");
        Files.writeString(file, "Boolean,1,DataType\nBoolean,2,DataType\n");

        assertThatThrownBy(() -> CsvReader.readNodeIds(file))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("duplicate name 'Boolean'");
    }
}
