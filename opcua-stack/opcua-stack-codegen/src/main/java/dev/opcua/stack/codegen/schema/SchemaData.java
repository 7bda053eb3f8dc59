package dev.opcua.stack.codegen.schema;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Everything the generator reads from the schema directory.
 *
 * @param directory the schema directory
 * @param types the binary type dictionary (Opc.Ua.Types.bsd)
 * @param nodeIds the rows of NodeIds.csv, in file order
 * @param statusCodes the rows of StatusCode.csv, in file order
 * @param attributeIds the rows of AttributeIds.csv, in file order
 */
public record SchemaData(
        Path directory,
        TypeDictionary types,
        List<NodeIdEntry> nodeIds,
        List<StatusCodeEntry> statusCodes,
        List<AttributeIdEntry> attributeIds) {

    public static final String TYPES_FILE = "Opc.Ua.Types.bsd";
    public static final String NODE_IDS_FILE = "NodeIds.csv";
    public static final String STATUS_CODES_FILE = "StatusCode.csv";
    public static final String ATTRIBUTE_IDS_FILE = "AttributeIds.csv";

    public SchemaData {
        nodeIds = List.copyOf(nodeIds);
        statusCodes = List.copyOf(statusCodes);
        attributeIds = List.copyOf(attributeIds);
    }

    /**
     * Reads the schema directory.
     *
     * @throws SchemaException when the directory or one of its files is missing or invalid
     */
    public static SchemaData load(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            throw new SchemaException("schema directory " + directory + " does not exist or is not a directory");
        }
        for (String file : List.of(TYPES_FILE, NODE_IDS_FILE, STATUS_CODES_FILE, ATTRIBUTE_IDS_FILE)) {
            if (!Files.isRegularFile(directory.resolve(file))) {
                throw new SchemaException("schema directory " + directory + " has no " + file);
            }
        }
        return new SchemaData(
                directory,
                BsdReader.read(directory.resolve(TYPES_FILE)),
                CsvReader.readNodeIds(directory.resolve(NODE_IDS_FILE)),
                CsvReader.readStatusCodes(directory.resolve(STATUS_CODES_FILE)),
                CsvReader.readAttributeIds(directory.resolve(ATTRIBUTE_IDS_FILE)));
    }
}
