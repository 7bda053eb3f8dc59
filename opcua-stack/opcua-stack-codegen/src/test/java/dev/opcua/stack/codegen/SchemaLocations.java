package dev.opcua.stack.codegen;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the tests find the repository and the standard's schema directory. Only the {@code *SchemaIT}
 * tests read the schema directory; they run in the build profile that {@code -Dopcua.schema.dir=<dir>}
 * turns on (a relative directory is taken from the repository root).
 */
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

    /**
     * The schema directory of system property {@code opcua.schema.dir}.
     *
     * @throws IllegalStateException saying how to give it when the property is not set or names no directory
     */
    public static Path requireSchemaDir() {
        String property = System.getProperty("opcua.schema.dir");
        if (property == null || property.isBlank()) {
            throw new IllegalStateException("this test reads the standard's schema files: run it with"
                    + " -Dopcua.schema.dir=<dir> (opcua-stack/opcua-stack-codegen/README.md)");
        }
        Path schema = projectDir().resolve(property).normalize();
        if (!Files.isDirectory(schema)) {
            throw new IllegalStateException("-Dopcua.schema.dir=" + property + ": " + schema + " is not a directory");
        }
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
