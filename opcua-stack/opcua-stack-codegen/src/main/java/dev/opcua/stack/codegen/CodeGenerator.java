package dev.opcua.stack.codegen;

import dev.opcua.stack.codegen.emit.GeneratedFile;
import dev.opcua.stack.codegen.emit.Namespace0Writer;
import dev.opcua.stack.codegen.emit.OutputDirectory;
import dev.opcua.stack.codegen.emit.Packages;
import dev.opcua.stack.codegen.emit.Sources;
import dev.opcua.stack.codegen.model.GenerationModel;
import dev.opcua.stack.codegen.model.StructureModel;
import dev.opcua.stack.codegen.model.StructureModel.Shape;
import dev.opcua.stack.codegen.models.NodeSetModelWriter;
import dev.opcua.stack.codegen.schema.NodeSet;
import dev.opcua.stack.codegen.schema.NodeSetReader;
import dev.opcua.stack.codegen.schema.SchemaData;
import dev.opcua.stack.codegen.schema.SchemaException;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Generates the standard types and id constants of opcua-stack-core from the schema data, and the
 * namespace 0 resource of opcua-stack-server ({@link Namespace0Writer}) from the standard nodeset, and
 * the companion models DI and Machinery of opcua-stack-server ({@link NodeSetModelWriter}).
 *
 * <p>Usage: {@code CodeGenerator --schema DIR [--out DIR] [--resources DIR] [--models DIR]}; relative paths are
 * resolved against the working directory. The schema directory holds the standard's files as the OPC
 * Foundation publishes them (see this module's README.md); it has no default, the output directories
 * default to this repository's source roots. The generated files of the owned packages
 * ({@link Packages#OWNED}) are replaced; the resource is written to {@link Namespace0Writer#RESOURCE_PATH}
 * below the resources directory.
 */
public final class CodeGenerator {

    /** Default output source root, relative to the repository root. */
    public static final String DEFAULT_OUT_DIR = "opcua-stack/opcua-stack-core/src/generated/java";

    /** Default resource root for the namespace 0 resource, relative to the repository root. */
    public static final String DEFAULT_RESOURCES_DIR = "opcua-stack/opcua-stack-server/src/main/resources";

    /** Default source root of the generated companion models, relative to the repository root. */
    public static final String DEFAULT_MODELS_DIR = "opcua-stack/opcua-stack-server/src/generated/java";

    private static final String USAGE =
            "usage: CodeGenerator --schema DIR [--out DIR] [--resources DIR] [--models DIR]";

    /** The files of the schema directory the generator reads, relative to it. */
    static final List<String> SCHEMA_FILES = List.of(SchemaData.TYPES_FILE, SchemaData.NODE_IDS_FILE,
            SchemaData.STATUS_CODES_FILE, SchemaData.ATTRIBUTE_IDS_FILE, NodeSetReader.STANDARD_FILE,
            "companion/Opc.Ua.Di.NodeSet2.xml", "companion/Opc.Ua.Machinery.NodeSet2.xml");

    private CodeGenerator() {
    }

    public static void main(String[] args) {
        String schema = null;
        String out = DEFAULT_OUT_DIR;
        String resources = DEFAULT_RESOURCES_DIR;
        String models = DEFAULT_MODELS_DIR;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--help") || option.equals("-h")) {
                System.out.println(USAGE);
                return;
            }
            if (!option.equals("--schema") && !option.equals("--out") && !option.equals("--resources")
                    && !option.equals("--models")) {
                fail(2, "unknown option '" + option + "'\n" + USAGE);
            }
            if (i + 1 >= args.length) {
                fail(2, "option " + option + " needs a directory\n" + USAGE);
            }
            if (option.equals("--schema")) {
                schema = args[++i];
            } else if (option.equals("--out")) {
                out = args[++i];
            } else if (option.equals("--models")) {
                models = args[++i];
            } else {
                resources = args[++i];
            }
        }
        if (schema == null) {
            fail(2, "--schema DIR is required: the directory of the OPC UA schema files (Opc.Ua.Types.bsd,"
                    + " Opc.Ua.NodeSet2.xml, the CSV files, companion/); see opcua-stack-codegen/README.md\n" + USAGE);
        }
        try {
            checkSchemaDirectory(Path.of(schema).toAbsolutePath().normalize());
            generate(Path.of(schema).toAbsolutePath().normalize(), Path.of(out).toAbsolutePath().normalize(),
                    Path.of(resources).toAbsolutePath().normalize(), System.out);
            generateModels(Path.of(schema).toAbsolutePath().normalize(), Path.of(models).toAbsolutePath().normalize(),
                    System.out);
        } catch (SchemaException e) {
            fail(1, e.getMessage());
        } catch (IOException | RuntimeException e) {
            e.printStackTrace();
            fail(1, e.toString());
        }
    }

    /**
     * Checks, before anything is written, that the schema directory exists and holds every file the
     * generator reads.
     *
     * @throws SchemaException naming the directory and the missing files
     */
    static void checkSchemaDirectory(Path schemaDir) {
        if (!Files.isDirectory(schemaDir)) {
            throw new SchemaException("schema directory " + schemaDir + " does not exist: give the directory of the"
                    + " OPC UA schema files with --schema (with Maven: -Dopcua.schema.dir=DIR)");
        }
        List<String> missing = SCHEMA_FILES.stream().filter(f -> !Files.isRegularFile(schemaDir.resolve(f))).toList();
        if (!missing.isEmpty()) {
            throw new SchemaException("schema directory " + schemaDir + " lacks " + String.join(", ", missing)
                    + ": it holds the files of the OPC Foundation's UA-Nodeset repository (see README.md)");
        }
    }

    private static void fail(int status, String message) {
        System.err.println("opcua-stack-codegen: " + message);
        System.exit(status);
    }

    /** Reads the schema directory and replaces the generated sources below {@code outDir}, logging to stdout. */
    public static void generate(Path schemaDir, Path outDir) throws IOException {
        generate(schemaDir, outDir, System.out);
    }

    /** Replaces the generated sources below {@code outDir} and writes the namespace 0 resource below {@code resourcesDir}. */
    public static void generate(Path schemaDir, Path outDir, Path resourcesDir, PrintStream log) throws IOException {
        generate(schemaDir, outDir, log);
        generateNamespace0(schemaDir, resourcesDir, log);
    }

    /** The companion models written as Java: file below {@code companion/}, class name, description. */
    private static final String[][] MODELS = {
        {"Opc.Ua.Di.NodeSet2.xml", "DiModel", "The OPC UA for Devices (DI) model, Part 100"},
        {"Opc.Ua.Machinery.NodeSet2.xml", "MachineryModel", "The OPC UA for Machinery model, OPC 40001-1"},
    };

    /**
     * Writes the companion models ({@link #MODELS}) as classes of {@link NodeSetModelWriter#PACKAGE}
     * below {@code modelsDir}, replacing the generated files of that package.
     */
    public static void generateModels(Path schemaDir, Path modelsDir, PrintStream log) throws IOException {
        Path directory = modelsDir.resolve(NodeSetModelWriter.PACKAGE.replace('.', '/'));
        List<GeneratedFile> files = new java.util.ArrayList<>();
        for (String[] model : MODELS) {
            Path file = schemaDir.resolve("companion").resolve(model[0]);
            if (!Files.isRegularFile(file)) {
                throw new SchemaException("schema directory " + schemaDir + " has no companion/" + model[0]);
            }
            log.println("opcua-stack-codegen: reading " + file);
            files.add(NodeSetModelWriter.write(file, model[1], model[2]));
        }
        Files.createDirectories(directory);
        try (java.util.stream.Stream<Path> old = Files.list(directory)) {
            for (Path path : old.toList()) {
                if (Files.readString(path).startsWith(dev.opcua.stack.codegen.emit.JavaWriter.HEADER)) {
                    Files.delete(path);
                }
            }
        }
        for (GeneratedFile file : files) {
            Path path = modelsDir.resolve(file.relativePath());
            Files.writeString(path, file.content());
            log.println("opcua-stack-codegen: wrote " + path + " (" + file.content().length() + " chars)");
        }
    }

    /** Reads the standard nodeset of the schema directory and writes the namespace 0 resource below {@code resourcesDir}. */
    public static Namespace0Writer.Summary generateNamespace0(Path schemaDir, Path resourcesDir, PrintStream log)
            throws IOException {
        Path file = schemaDir.resolve(NodeSetReader.STANDARD_FILE);
        if (!Files.isRegularFile(file)) {
            throw new SchemaException("schema directory " + schemaDir + " has no " + NodeSetReader.STANDARD_FILE);
        }
        log.println("opcua-stack-codegen: reading " + file);
        NodeSet nodeSet = NodeSetReader.read(file);
        StringBuilder classes = new StringBuilder();
        for (NodeClass nodeClass : NodeClass.values()) {
            long count = nodeSet.count(nodeClass);
            if (count > 0) {
                classes.append(classes.length() == 0 ? "" : ", ").append(count).append(' ').append(nodeClass);
            }
        }
        log.println("  " + nodeSet.nodes().size() + " nodes (" + classes + "), " + nodeSet.referenceCount()
                + " references, " + nodeSet.aliases().size() + " aliases, " + nodeSet.valueCount() + " values");
        log.println("  " + nodeSet.droppedValues().size() + " values dropped (not convertible), "
                + nodeSet.skippedDefinitions() + " DataType definitions not read");
        for (String dropped : nodeSet.droppedValues()) {
            log.println("  dropped value: " + dropped);
        }
        Namespace0Writer.Summary summary = Namespace0Writer.write(nodeSet, resourcesDir);
        Path resource = resourcesDir.resolve(Namespace0Writer.RESOURCE_PATH);
        log.println("opcua-stack-codegen: " + (summary.written() ? "wrote " : "kept (content unchanged) ") + resource
                + ": " + summary.fileBytes() + " bytes (" + summary.bodyBytes() + " uncompressed, "
                + summary.strings() + " strings)");
        return summary;
    }

    /** Reads the schema directory and replaces the generated sources below {@code outDir}. */
    public static void generate(Path schemaDir, Path outDir, PrintStream log) throws IOException {
        log.println("opcua-stack-codegen: reading " + schemaDir);
        SchemaData schema = SchemaData.load(schemaDir);
        GenerationModel model = GenerationModel.build(schema);
        List<StructureModel> structures = model.structures();
        long abstracts = structures.stream().filter(s -> s.shape() == Shape.ABSTRACT).count();
        long open = structures.stream().filter(s -> s.shape() == Shape.OPEN).count();
        log.println("  " + schema.types().structuredTypes().size() + " structured types, "
                + schema.types().enumeratedTypes().size() + " enumerated types, "
                + schema.types().opaqueTypes().size() + " opaque types in " + SchemaData.TYPES_FILE);
        log.println("  skipped as hand-written: " + String.join(", ", model.skippedHandWritten()));
        log.println("  " + structures.size() + " structures (" + abstracts + " abstract, " + open + " open bases), "
                + model.enumerations().size() + " enumerations, " + model.optionSets().size() + " option sets");
        log.println("  " + schema.nodeIds().size() + " node ids, " + schema.statusCodes().size() + " status codes, "
                + schema.attributeIds().size() + " attribute ids");
        for (String note : model.notes()) {
            log.println("  note: " + note);
        }
        List<GeneratedFile> files = Sources.render(model);
        int deleted = new OutputDirectory(outDir).replace(files);
        log.println("opcua-stack-codegen: wrote " + files.size() + " files to " + outDir
                + " (replacing " + deleted + " previously generated files)");
    }
}
