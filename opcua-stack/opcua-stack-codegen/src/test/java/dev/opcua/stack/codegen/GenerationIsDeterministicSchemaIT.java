package dev.opcua.stack.codegen;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.codegen.emit.JavaWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GenerationIsDeterministicSchemaIT {

    private static final String STRUCTURED = "dev/opcua/stack/core/types/structured";

    @Test
    void two_runs_into_empty_directories_write_identical_trees(@TempDir Path first, @TempDir Path second) throws Exception {
        Path schema = SchemaLocations.requireSchemaDir();

        CodeGenerator.generate(schema, first, SourceTrees.QUIET);
        CodeGenerator.generate(schema, second, SourceTrees.QUIET);

        assertThat(SourceTrees.files(first)).hasSizeGreaterThan(300);
        assertThat(SourceTrees.differences(first, second)).isEmpty();
    }

    @Test
    void a_second_run_into_the_same_directory_changes_nothing(@TempDir Path out, @TempDir Path reference) throws Exception {
        Path schema = SchemaLocations.requireSchemaDir();
        CodeGenerator.generate(schema, reference, SourceTrees.QUIET);

        CodeGenerator.generate(schema, out, SourceTrees.QUIET);
        CodeGenerator.generate(schema, out, SourceTrees.QUIET);

        assertThat(SourceTrees.differences(reference, out)).isEmpty();
    }

    @Test
    void every_file_starts_with_the_header_and_uses_newline_line_endings(@TempDir Path out) throws Exception {
        CodeGenerator.generate(SchemaLocations.requireSchemaDir(), out, SourceTrees.QUIET);

        for (String file : SourceTrees.files(out)) {
            String text = Files.readString(out.resolve(file), StandardCharsets.UTF_8);
            assertThat(text).as(file)
                    .startsWith(JavaWriter.HEADER + "\n")
                    .doesNotContain("\r")
                    .doesNotContain("\t")
                    .endsWith("\n");
        }
    }

    @Test
    void previously_generated_files_of_removed_types_are_deleted(@TempDir Path out) throws Exception {
        Path stale = out.resolve(STRUCTURED).resolve("RemovedType.java");
        write(stale, JavaWriter.HEADER + "\npackage dev.opcua.stack.core.types.structured;\n");
        Path outsideOwnedPackages = out.resolve("dev/opcua/stack/core/types/builtin/Kept.java");
        write(outsideOwnedPackages, JavaWriter.HEADER + "\n");

        CodeGenerator.generate(SchemaLocations.requireSchemaDir(), out, SourceTrees.QUIET);

        assertThat(stale).doesNotExist();
        assertThat(outsideOwnedPackages).exists();
        assertThat(out.resolve(STRUCTURED).resolve("ReadRequest.java")).exists();
    }

    @Test
    void a_hand_written_file_in_a_generated_package_stops_the_run_and_is_kept(@TempDir Path out) throws Exception {
        Path handWritten = out.resolve(STRUCTURED).resolve("Custom.java");
        write(handWritten, "package dev.opcua.stack.core.types.structured;\n");
        Path schema = SchemaLocations.requireSchemaDir();

        assertThatThrownBy(() -> CodeGenerator.generate(schema, out, SourceTrees.QUIET))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(handWritten.toString())
                .hasMessageContaining("not generated");
        assertThat(handWritten).exists();
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
