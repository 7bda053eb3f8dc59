package dev.opcua.stack.codegen.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.codegen.CodeGenerator;
import dev.opcua.stack.codegen.TestSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SchemaDataTest {

    @Test
    void a_missing_schema_directory_fails_with_a_message_naming_the_path(@TempDir Path dir) {
        Path missing = dir.resolve("no-such-schema");

        assertThatThrownBy(() -> CodeGenerator.generate(missing, dir.resolve("out")))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining(missing.toString());
        assertThat(dir.resolve("out")).doesNotExist();
    }

    @Test
    void a_schema_directory_without_the_type_dictionary_fails_naming_the_file(@TempDir Path dir) throws Exception {
        Path schema = TestSchema.write(dir, "", "");
        Files.delete(schema.resolve(SchemaData.TYPES_FILE));

        assertThatThrownBy(() -> SchemaData.load(schema))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining(schema.toString())
                .hasMessageContaining(SchemaData.TYPES_FILE);
    }

    @Test
    void a_file_that_is_not_a_type_dictionary_is_rejected(@TempDir Path dir) throws Exception {
        Path schema = TestSchema.write(dir, "", "");
        Files.writeString(schema.resolve(SchemaData.TYPES_FILE), "<html/>");

        assertThatThrownBy(() -> SchemaData.load(schema))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("opc:TypeDictionary");
    }

    @Test
    void status_code_descriptions_with_quotes_and_commas_are_skipped(@TempDir Path dir) throws Exception {
        SchemaData data = SchemaData.load(TestSchema.write(dir, "", ""));

        assertThat(data.statusCodes()).containsExactly(
                new StatusCodeEntry("Good", 0), new StatusCodeEntry("BadDecodingError", 0x80070000));
    }
}
