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
    void twoRunsIntoEmptyDirectoriesWriteIdenticalTrees(@TempDir Path first, @TempDir Path second) throws Exception {
        Path schema = SchemaLocations.requireSchemaDir();

        CodeGenerator.generate(schema, first, SourceTrees.QUIET);
        CodeGenerator.generate(schema, second, SourceTrees.QUIET);

        assertThat(SourceTrees.files(first)).hasSizeGreaterThan(300);
        assertThat(SourceTrees.differences(first, second)).isEmpty();
    }

    @Test
    void aSecondRunIntoTheSameDirectoryChangesNothing(@TempDir Path out, @TempDir Path reference) throws Exception {
        Path schema = SchemaLocations.requireSchemaDir();
        CodeGenerator.generate(schema, reference, SourceTrees.QUIET);

        CodeGenerator.generate(schema, out, SourceTrees.QUIET);
        CodeGenerator.generate(schema, out, SourceTrees.QUIET);

        assertThat(SourceTrees.differences(reference, out)).isEmpty();
    }

    @Test
    void everyFileStartsWithTheHeaderAndUsesNewlineLineEndings(@TempDir Path out) throws Exception {
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
    void previouslyGeneratedFilesOfRemovedTypesAreDeleted(@TempDir Path out) throws Exception {
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
    void aHandWrittenFileInAGeneratedPackageStopsTheRunAndIsKept(@TempDir Path out) throws Exception {
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
