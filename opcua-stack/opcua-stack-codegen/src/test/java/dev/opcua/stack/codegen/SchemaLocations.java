package dev.opcua.stack.codegen;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** Where the tests find the repository and the schema directory. */
public final class SchemaLocations {

    private SchemaLocations() {
    }

    /** The repository root: system property {@code opcua.project.dir}, else two levels above the module. */
    public static Path projectDir() {
        String property = System.getProperty("opcua.project.dir");
        if (property != null && !property.isBlank()) {
            return Path.of(property).toAbsolutePath().normalize();
        }
        return Path.of("").toAbsolutePath().resolve("../..").normalize();
    }

    /** The schema directory: system property {@code opcua.schema.dir}, else ../shared/opcua-schema of the repository. */
    public static Path schemaDir() {
        String property = System.getProperty("opcua.schema.dir");
        if (property != null && !property.isBlank()) {
            return Path.of(property).toAbsolutePath().normalize();
        }
        return projectDir().resolve(CodeGenerator.DEFAULT_SCHEMA_DIR).normalize();
    }

    /** The schema directory, skipping the calling test when it is not there. */
    public static Path requireSchemaDir() {
        Path schema = schemaDir();
        assumeTrue(Files.isDirectory(schema), "schema directory " + schema + " not found: skipping the test");
        return schema;
    }

    /** The committed resource root of opcua-stack-server, which holds the namespace 0 resource. */
    public static Path committedResourcesDir() {
        return projectDir().resolve(CodeGenerator.DEFAULT_RESOURCES_DIR).normalize();
    }

    /** The committed generated source root of opcua-stack-core. */
    public static Path committedSourcesDir() {
        return projectDir().resolve(CodeGenerator.DEFAULT_OUT_DIR).normalize();
    }
}
