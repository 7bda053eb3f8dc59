package dev.opcua.stack.codegen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a small synthetic schema directory for tests of the generator's checks. */
public final class TestSchema {

    private static final String HEAD = """
            <?xml version="1.0" encoding="utf-8" ?>
            <opc:TypeDictionary
              xmlns:opc="http://opcfoundation.org/BinarySchema/"
              xmlns:ua="http://opcfoundation.org/UA/"
              xmlns:tns="http://opcfoundation.org/UA/"
              DefaultByteOrder="LittleEndian"
              TargetNamespace="http://opcfoundation.org/UA/">
              <opc:Import Namespace="http://opcfoundation.org/BinarySchema/" />
            """;

    private TestSchema() {
    }

    /**
     * Writes a schema directory below {@code parent} with the given type dictionary body (the elements
     * inside opc:TypeDictionary) and NodeIds.csv rows; StatusCode.csv and AttributeIds.csv get two rows each.
     */
    public static Path write(Path parent, String dictionaryBody, String nodeIdRows) throws IOException {
        Path dir = Files.createDirectories(parent.resolve("schema"));
        Files.writeString(dir.resolve("Opc.Ua.Types.bsd"), HEAD + dictionaryBody + "</opc:TypeDictionary>\n",
                StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("NodeIds.csv"), nodeIdRows, StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("StatusCode.csv"),
                "Good,0x00000000,\"Fine, really.\"\nBadDecodingError,0x80070000,\"Said \"\"no\"\".\"\n",
                StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("AttributeIds.csv"), "NodeId,1\nValue,13\n", StandardCharsets.UTF_8);
        return dir;
    }
}
