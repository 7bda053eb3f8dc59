package dev.opcua.stack.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GeneratedSourcesAreUpToDateSchemaIT {

    /** The commands that regenerate sources and resource (the generator needs opcua-stack-core built). */
    static final String REGENERATE = "`mvn -B -q install -DskipTests -pl opcua-stack/opcua-stack-codegen -am`"
            + " and `mvn -B -q exec:java -pl opcua-stack/opcua-stack-codegen -Dopcua.schema.dir=<dir>`";

    @Test
    void committed_generated_sources_are_byte_identical_to_a_fresh_generation(@TempDir Path out) throws Exception {
        Path schema = SchemaLocations.requireSchemaDir();
        Path committed = SchemaLocations.committedSourcesDir();

        CodeGenerator.generate(schema, out, SourceTrees.QUIET);

        List<String> differences = SourceTrees.differences(out, committed);
        assertThat(differences)
                .as("generated sources in %s are not current (expected: fresh generation, actual: committed);"
                        + " run " + REGENERATE + " from the repository root and commit the result", committed)
                .isEmpty();
    }
}
