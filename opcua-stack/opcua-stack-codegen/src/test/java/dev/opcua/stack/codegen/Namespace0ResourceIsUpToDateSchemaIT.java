package dev.opcua.stack.codegen;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.codegen.emit.Namespace0Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class Namespace0ResourceIsUpToDateSchemaIT {

    @Test
    void committed_namespace0_resource_holds_what_a_fresh_generation_writes(@TempDir Path out) throws Exception {
        Path schema = SchemaLocations.requireSchemaDir();
        Path committed = SchemaLocations.committedResourcesDir().resolve(Namespace0Writer.RESOURCE_PATH);

        CodeGenerator.generateNamespace0(schema, out, SourceTrees.QUIET);

        byte[] fresh = Files.readAllBytes(out.resolve(Namespace0Writer.RESOURCE_PATH));
        assertThat(committed).as("namespace 0 resource").exists();
        byte[] current = Files.readAllBytes(committed);
        // Header and uncompressed body compared: a zlib build other than the committer's may compress the
        // same body into other bytes (the generator then leaves the committed file alone).
        assertThat(Namespace0Writer.sameContent(current, fresh))
                .as("%s is not current (expected: fresh generation, actual: committed); run %s and commit the"
                        + " result", committed, GeneratedSourcesAreUpToDateSchemaIT.REGENERATE)
                .isTrue();
    }
}
