package dev.opcua.stack.codegen.emit;

import dev.opcua.stack.codegen.model.StructureModel;
import java.util.List;
import java.util.Set;

/**
 * Writes StandardStructures, the table of every generated structure codec: the ids and class name of each, known
 * without loading its class, and the codec itself through a switch that loads the class only when it is asked
 * for. An application decodes a few dozen of the ~300 standard structures; loading the rest at start would cost
 * their classes' memory for nothing.
 */
public final class StandardStructuresWriter {

    private StandardStructuresWriter() {
    }

    /** The source of StandardStructures for the given (name-sorted) structures. */
    public static GeneratedFile write(List<StructureModel> structures) {
        List<String> names = structures.stream().filter(StructureModel::isConcrete).map(StructureModel::name).toList();
        JavaWriter out = JavaWriter.file(Packages.STRUCTURED,
                Set.of(Packages.UA_CODEC, Packages.NODE_IDS, "java.util.ArrayList", "java.util.Collections",
                        "java.util.List"));
        out.line("/**");
        out.line(" * The codecs of the generated standard structures (" + names.size() + " codecs), by index in name"
                + " order: the");
        out.line(" * ids and class name of each without loading its class, the codec loading it on first use.");
        out.line(" */");
        out.open("public final class StandardStructures");
        out.blank();
        array(out, "int[] ENCODING_IDS", names.stream().map(n -> "NodeIds." + n + "_Encoding_DefaultBinary").toList());
        array(out, "int[] DATA_TYPE_IDS", names.stream().map(n -> "NodeIds." + n).toList());
        array(out, "String[] NAMES", names.stream().map(JavaWriter::literal).toList());
        out.open("private StandardStructures()");
        out.close();
        out.blank();
        out.line("/** How many codecs there are; indexes run from 0 to size() - 1. */");
        out.open("public static int size()");
        out.line("return NAMES.length;");
        out.close();
        out.blank();
        out.line("/** The numeric namespace-0 id of the DefaultBinary encoding of the structure at the index. */");
        out.open("public static int encodingId(int index)");
        out.line("return ENCODING_IDS[index];");
        out.close();
        out.blank();
        out.line("/** The numeric namespace-0 id of the DataType of the structure at the index. */");
        out.open("public static int dataTypeId(int index)");
        out.line("return DATA_TYPE_IDS[index];");
        out.close();
        out.blank();
        out.line("/** The binary name of the Java class of the structure at the index, without loading the class. */");
        out.open("public static String typeName(int index)");
        out.line("return StandardStructures.class.getPackageName() + '.' + NAMES[index];");
        out.close();
        out.blank();
        out.line("/** The codec of the structure at the index: loads and initialises its class on the first call. */");
        out.open("public static UaCodec<?> codec(int index)");
        out.line("return switch (index) {");
        out.indent();
        for (int i = 0; i < names.size(); i++) {
            out.line("case " + i + " -> " + names.get(i) + ".CODEC;");
        }
        out.line("default -> throw new IndexOutOfBoundsException(index);");
        out.outdent();
        out.line("};");
        out.close();
        out.blank();
        out.line("/** Every codec, sorted by structure name (loads every class); the list is unmodifiable. */");
        out.open("public static List<UaCodec<?>> codecs()");
        out.line("List<UaCodec<?>> codecs = new ArrayList<>(NAMES.length);");
        out.open("for (int i = 0; i < NAMES.length; i++)");
        out.line("codecs.add(codec(i));");
        out.close();
        out.line("return Collections.unmodifiableList(codecs);");
        out.close();
        out.close();
        return new GeneratedFile(JavaWriter.path(Packages.STRUCTURED, "StandardStructures"), out.finish());
    }

    /** A private constant array, one element a line, followed by a blank line. */
    private static void array(JavaWriter out, String declaration, List<String> elements) {
        out.line("private static final " + declaration + " = {");
        out.indent().indent();
        for (int i = 0; i < elements.size(); i++) {
            out.line(elements.get(i) + (i < elements.size() - 1 ? "," : ""));
        }
        out.outdent().outdent();
        out.line("};");
        out.blank();
    }
}
