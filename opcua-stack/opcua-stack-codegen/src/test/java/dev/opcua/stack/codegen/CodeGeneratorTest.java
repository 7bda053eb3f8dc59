package dev.opcua.stack.codegen;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.codegen.schema.SchemaException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generator's input directory is checked before anything is written. */
class CodeGeneratorTest {

    @Test
    void a_schema_directory_that_does_not_exist_is_refused_saying_how_to_give_one(@TempDir Path dir) {
        Path missing = dir.resolve("no-such-schema");

        assertThatThrownBy(() -> CodeGenerator.checkSchemaDirectory(missing))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("schema directory " + missing + " does not exist")
                .hasMessageContaining("-Dopcua.schema.dir=DIR");
    }

    @Test
    void a_schema_directory_without_some_files_is_refused_naming_each(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("Opc.Ua.Types.bsd"), "");
        Files.writeString(dir.resolve("NodeIds.csv"), "");

        assertThatThrownBy(() -> CodeGenerator.checkSchemaDirectory(dir))
                .isInstanceOf(SchemaException.class)
                .hasMessageContaining("lacks StatusCode.csv, AttributeIds.csv, Opc.Ua.NodeSet2.xml,"
                        + " companion/Opc.Ua.Di.NodeSet2.xml, companion/Opc.Ua.Machinery.NodeSet2.xml")
                .hasMessageContaining("UA-Nodeset");
    }
}
