package dev.opcua.stack.codegen;

import dev.opcua.stack.codegen.emit.GeneratedFile;
import dev.opcua.stack.codegen.emit.OutputDirectory;
import dev.opcua.stack.codegen.emit.Packages;
import dev.opcua.stack.codegen.emit.Sources;
import dev.opcua.stack.codegen.model.GenerationModel;
import dev.opcua.stack.codegen.model.StructureModel;
import dev.opcua.stack.codegen.model.StructureModel.Shape;
import dev.opcua.stack.codegen.schema.SchemaData;
import dev.opcua.stack.codegen.schema.SchemaException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * Generates the standard types and id constants of opcua-stack-core from the schema data.
 *
 * <p>Usage: {@code CodeGenerator [--schema DIR] [--out DIR]}; relative paths are resolved against the
 * working directory. The generated files of the owned packages ({@link Packages#OWNED}) are replaced.
 */
public final class CodeGenerator {

    /** Default schema directory, relative to the repository root. */
    public static final String DEFAULT_SCHEMA_DIR = "../shared/opcua-schema";

    /** Default output source root, relative to the repository root. */
    public static final String DEFAULT_OUT_DIR = "opcua-stack/opcua-stack-core/src/generated/java";

    private static final String USAGE = "usage: CodeGenerator [--schema DIR] [--out DIR]";

    private CodeGenerator() {
    }

    public static void main(String[] args) {
        String schema = DEFAULT_SCHEMA_DIR;
        String out = DEFAULT_OUT_DIR;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--help") || option.equals("-h")) {
                System.out.println(USAGE);
                return;
            }
            if (!option.equals("--schema") && !option.equals("--out")) {
                fail(2, "unknown option '" + option + "'\n" + USAGE);
            }
            if (i + 1 >= args.length) {
                fail(2, "option " + option + " needs a directory\n" + USAGE);
            }
            if (option.equals("--schema")) {
                schema = args[++i];
            } else {
                out = args[++i];
            }
        }
        try {
            generate(Path.of(schema).toAbsolutePath().normalize(), Path.of(out).toAbsolutePath().normalize());
        } catch (SchemaException e) {
            fail(1, e.getMessage());
        } catch (IOException | RuntimeException e) {
            e.printStackTrace();
            fail(1, e.toString());
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
