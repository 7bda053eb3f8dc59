package dev.opcua.stack.server.nodeset;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;

/** The companion NodeSet2 files in ../shared/opcua-schema/companion beside the repository. */
final class CompanionFiles {

    static final String DI = "http://opcfoundation.org/UA/DI/";
    static final String MACHINERY = "http://opcfoundation.org/UA/Machinery/";
    static final String MACHINERY_EXAMPLE = "http://opcfoundation.org/UA/Machinery_Example/";
    static final String PACKML = "http://opcfoundation.org/UA/PackML/";

    private CompanionFiles() {
    }

    /** The directory: system property {@code opcua.schema.dir} (set by the build), else ../shared relative to the repo. */
    static Path dir() {
        String property = System.getProperty("opcua.schema.dir");
        Path schema = property != null && !property.isBlank() ? Path.of(property)
                : Path.of("").toAbsolutePath().resolve("../../../shared/opcua-schema");
        Path companion = schema.resolve("companion").normalize();
        assumeTrue(Files.isDirectory(companion), "companion nodesets not found at " + companion + ": skipping");
        return companion;
    }

    static Path di() {
        return dir().resolve("Opc.Ua.Di.NodeSet2.xml");
    }

    static Path machinery() {
        return dir().resolve("Opc.Ua.Machinery.NodeSet2.xml");
    }

    static Path machineryExamples() {
        return dir().resolve("Opc.Ua.Machinery.Examples.NodeSet2.xml");
    }

    static Path packMl() {
        return dir().resolve("Opc.Ua.PackML.NodeSet2.xml");
    }
}
