package dev.opcua.stack.codegen.emit;

import dev.opcua.stack.codegen.model.StructureModel;
import java.util.List;
import java.util.Set;

/** Writes StandardStructures, the registry of every generated structure codec. */
public final class StandardStructuresWriter {

    private StandardStructuresWriter() {
    }

    /** The source of StandardStructures for the given (name-sorted) structures. */
    public static GeneratedFile write(List<StructureModel> structures) {
        List<String> codecs = structures.stream()
                .filter(StructureModel::isConcrete)
                .map(s -> s.name() + ".CODEC")
                .toList();
        JavaWriter out = JavaWriter.file(Packages.STRUCTURED, Set.of(Packages.UA_CODEC, "java.util.List"));
        out.line("/** The codecs of the generated standard structures (" + codecs.size() + " codecs). */");
        out.open("public final class StandardStructures");
        out.blank();
        // A list of a few hundred elements keeps the class initialiser far below the 64 KB method limit.
        if (codecs.isEmpty()) {
            out.line("private static final List<UaCodec<?>> CODECS = List.of();");
        } else {
            out.line("private static final List<UaCodec<?>> CODECS = List.of(");
            out.indent().indent();
            for (int i = 0; i < codecs.size(); i++) {
                out.line(codecs.get(i) + (i < codecs.size() - 1 ? "," : ");"));
            }
            out.outdent().outdent();
        }
        out.blank();
        out.open("private StandardStructures()");
        out.close();
        out.blank();
        out.line("/** Every codec, sorted by structure name; the list is unmodifiable. */");
        out.open("public static List<UaCodec<?>> codecs()");
        out.line("return CODECS;");
        out.close();
        out.close();
        return new GeneratedFile(JavaWriter.path(Packages.STRUCTURED, "StandardStructures"), out.finish());
    }
}
