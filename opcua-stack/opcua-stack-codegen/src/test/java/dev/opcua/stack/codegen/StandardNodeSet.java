package dev.opcua.stack.codegen;

import dev.opcua.stack.codegen.schema.NodeSet;
import dev.opcua.stack.codegen.schema.NodeSetReader;
import java.io.IOException;
import java.io.UncheckedIOException;

/** The standard nodeset of the schema directory, read once per test JVM (it takes most of a second). */
public final class StandardNodeSet {

    private static NodeSet nodeSet;

    private StandardNodeSet() {
    }

    /** The parsed Opc.Ua.NodeSet2.xml of the schema directory ({@link SchemaLocations#requireSchemaDir()}). */
    public static synchronized NodeSet get() {
        var schema = SchemaLocations.requireSchemaDir();
        if (nodeSet == null) {
            try {
                nodeSet = NodeSetReader.read(schema.resolve(NodeSetReader.STANDARD_FILE));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return nodeSet;
    }
}
