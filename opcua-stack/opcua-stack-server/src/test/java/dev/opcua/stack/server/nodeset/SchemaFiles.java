package dev.opcua.stack.server.nodeset;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The standard's own companion NodeSet2 files (the OPC Foundation's UA-Nodeset repository), for the
 * {@code *SchemaIT} tests that need the originals rather than this project's export of them. They run
 * only in the build profile that {@code -Dopcua.schema.dir=<dir>} turns on; the directory holds
 * {@code companion/}. A relative directory is taken from the repository root.
 */
final class SchemaFiles {

    static final String MACHINERY_EXAMPLE = "http://opcfoundation.org/UA/Machinery_Example/";
    static final String PACKML = "http://opcfoundation.org/UA/PackML/";

    private SchemaFiles() {
    }

    static Path di() {
        return companion("Opc.Ua.Di.NodeSet2.xml");
    }

    static Path machinery() {
        return companion("Opc.Ua.Machinery.NodeSet2.xml");
    }

    static Path machineryExamples() {
        return companion("Opc.Ua.Machinery.Examples.NodeSet2.xml");
    }

    static Path packMl() {
        return companion("Opc.Ua.PackML.NodeSet2.xml");
    }

    private static Path companion(String file) {
        String dir = System.getProperty("opcua.schema.dir");
        if (dir == null || dir.isBlank()) {
            throw new IllegalStateException("this test reads the standard's " + file + ": run it with"
                    + " -Dopcua.schema.dir=<directory with companion/> (opcua-stack/opcua-stack-codegen/README.md)");
        }
        Path schema = Path.of(dir);
        if (!schema.isAbsolute()) {
            schema = Path.of(System.getProperty("opcua.project.dir", "../..")).resolve(schema);
        }
        Path path = schema.resolve("companion").resolve(file).normalize();
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException(path + " not found: -Dopcua.schema.dir names a directory without"
                    + " companion/" + file);
        }
        return path;
    }
}
