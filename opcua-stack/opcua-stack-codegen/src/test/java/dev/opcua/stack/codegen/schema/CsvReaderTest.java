package dev.opcua.stack.codegen.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvReaderTest {

    @Test
    void quoted_values_may_hold_commas_doubled_quotes_and_line_breaks() {
        List<CsvReader.Row> rows = CsvReader.parse("test", "\uFEFFa,\"b, \"\"c\"\"\nd\",e\r\n\r\nf,,g\n");

        assertThat(rows).hasSize(2);
        assertThat(rows.get(0).values()).containsExactly("a", "b, \"c\"\nd", "e");
        assertThat(rows.get(1).line()).isEqualTo(4);
        assertThat(rows.get(1).values()).containsExactly("f", "", "g");
    }

    @Test
    void an_unterminated_quote_is_reported_with_its_line() {
        assertThatThrownBy(() -> CsvReader.parse("test.csv", "a,b\nc,\"d\n"))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("test.csv:2");
    }

    @Test
    void a_symbolic_name_that_is_not_a_java_identifier_fails_the_read(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("NodeIds.csv");
        Files.writeString(file, "Boolean,1,DataType\nNot-An-Identifier,2,DataType\n");

        assertThatThrownBy(() -> CsvReader.readNodeIds(file))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("Not-An-Identifier")
                .hasMessageContaining(":2");
    }

    @Test
    void a_duplicate_symbolic_name_fails_the_read(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("NodeIds.csv");
        Files.writeString(file, "Boolean,1,DataType\nBoolean,2,DataType\n");

        assertThatThrownBy(() -> CsvReader.readNodeIds(file))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("duplicate name 'Boolean'");
    }
}
