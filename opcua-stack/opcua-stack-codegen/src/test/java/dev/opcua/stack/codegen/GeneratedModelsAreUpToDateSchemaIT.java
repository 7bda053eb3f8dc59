package dev.opcua.stack.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.codegen.models.NodeSetModelWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The committed DiModel and MachineryModel of opcua-stack-server are what the generator writes now. */
class GeneratedModelsAreUpToDateSchemaIT {

    @Test
    void committed_models_hold_what_a_fresh_generation_writes(@TempDir Path out) throws Exception {
        Path schema = SchemaLocations.requireSchemaDir();
        CodeGenerator.generateModels(schema, out, SourceTrees.QUIET);
        String packagePath = NodeSetModelWriter.PACKAGE.replace('.', '/');
        Path committed = SchemaLocations.projectDir().resolve(CodeGenerator.DEFAULT_MODELS_DIR).resolve(packagePath);
        try (Stream<Path> fresh = Files.list(out.resolve(packagePath))) {
            for (Path file : fresh.toList()) {
                Path current = committed.resolve(file.getFileName().toString());
                assertThat(current).as("generated model").exists();
                assertThat(Files.readString(current)).as("%s is not current; run %s and commit the result", current,
                        GeneratedSourcesAreUpToDateSchemaIT.REGENERATE).isEqualTo(Files.readString(file));
            }
        }
    }
}
