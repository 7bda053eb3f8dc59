package dev.opcua.stack.codegen.schema;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.codegen.SchemaLocations;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The standard's CSV files (NodeIds, StatusCode, AttributeIds) read whole. */
class CsvReaderSchemaIT {

    @Test
    void every_row_of_node_ids_csv_is_read_in_file_order() throws Exception {
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
    void status_codes_keep_name_and_code_and_ignore_the_description() throws Exception {
        Path file = SchemaLocations.requireSchemaDir().resolve(SchemaData.STATUS_CODES_FILE);
        long lines = Files.readAllLines(file, StandardCharsets.UTF_8).stream().filter(l -> !l.isBlank()).count();

        List<StatusCodeEntry> entries = CsvReader.readStatusCodes(file);

        assertThat(entries).hasSize((int) lines).hasSizeGreaterThan(250);
        assertThat(entries).contains(
                new StatusCodeEntry("Good", 0), new StatusCodeEntry("BadDecodingError", 0x80070000));
    }

    @Test
    void attribute_ids_are_read_as_name_and_number() throws Exception {
        List<AttributeIdEntry> entries =
                CsvReader.readAttributeIds(SchemaLocations.requireSchemaDir().resolve(SchemaData.ATTRIBUTE_IDS_FILE));

        assertThat(entries).startsWith(new AttributeIdEntry("NodeId", 1));
        assertThat(entries).contains(new AttributeIdEntry("Value", 13));
    }
}
