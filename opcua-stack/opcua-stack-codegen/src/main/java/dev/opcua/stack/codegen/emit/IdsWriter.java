package dev.opcua.stack.codegen.emit;

import dev.opcua.stack.codegen.schema.AttributeIdEntry;
import dev.opcua.stack.codegen.schema.NodeIdEntry;
import dev.opcua.stack.codegen.schema.SchemaException;
import dev.opcua.stack.codegen.schema.StatusCodeEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/** Writes the id constant classes NodeIds, StatusCodes and AttributeIds. */
public final class IdsWriter {

    /**
     * Cases per reverse-lookup method of NodeIds: one switch over all 12,000+ ids would exceed the 64 KB
     * limit of a method's bytecode, so the lookup dispatches on id ranges to methods of this many cases.
     */
    static final int NAME_CHUNK = 1000;

    private IdsWriter() {
    }

    /** NodeIds: an int constant per row of NodeIds.csv (file order) and a reverse lookup {@code name(int)}. */
    public static GeneratedFile writeNodeIds(List<NodeIdEntry> entries) {
        JavaWriter out = JavaWriter.file(Packages.IDS, Set.of());
        out.line("/** Numeric identifiers of the standard nodes of namespace 0 (" + entries.size() + " nodes). */");
        out.open("public final class NodeIds");
        out.blank();
        for (NodeIdEntry entry : entries) {
            out.line("public static final int " + entry.symbolicName() + " = " + entry.id() + ";");
        }
        out.blank();
        out.open("private NodeIds()");
        out.close();

        // Reverse lookup: the first row of an id wins if NodeIds.csv ever lists an id twice.
        Map<Integer, NodeIdEntry> byId = new HashMap<>();
        for (NodeIdEntry entry : entries) {
            byId.putIfAbsent(entry.id(), entry);
        }
        List<NodeIdEntry> sorted = new ArrayList<>(byId.values());
        sorted.sort(Comparator.comparingInt(NodeIdEntry::id));
        List<List<NodeIdEntry>> chunks = new ArrayList<>();
        for (int i = 0; i < sorted.size(); i += NAME_CHUNK) {
            chunks.add(sorted.subList(i, Math.min(sorted.size(), i + NAME_CHUNK)));
        }

        out.blank();
        out.line("/** The symbolic name of the node of namespace 0 with the given numeric id, or null when there is none. */");
        out.open("public static String name(int id)");
        if (chunks.isEmpty()) {
            out.line("return null;");
        }
        for (int i = 0; i < chunks.size(); i++) {
            if (i < chunks.size() - 1) {
                out.open("if (id < " + chunks.get(i + 1).get(0).id() + ")");
                out.line("return name" + i + "(id);");
                out.close();
            } else {
                out.line("return name" + i + "(id);");
            }
        }
        out.close();
        for (int i = 0; i < chunks.size(); i++) {
            out.blank();
            out.open("private static String name" + i + "(int id)");
            out.open("return switch (id)");
            for (NodeIdEntry entry : chunks.get(i)) {
                out.line("case " + entry.id() + " -> " + JavaWriter.literal(entry.symbolicName()) + ";");
            }
            out.line("default -> null;");
            out.close("};");
            out.close();
        }
        out.close();
        return new GeneratedFile(JavaWriter.path(Packages.IDS, "NodeIds"), out.finish());
    }

    /** StatusCodes: an int constant per row of StatusCode.csv and a reverse lookup of the code part. */
    public static GeneratedFile writeStatusCodes(List<StatusCodeEntry> entries) {
        JavaWriter out = JavaWriter.file(Packages.IDS, Set.of());
        out.line("/** The standard status codes (" + entries.size() + " codes); the low 16 bits of each are zero. */");
        out.open("public final class StatusCodes");
        out.blank();
        for (StatusCodeEntry entry : entries) {
            if ((entry.code() & 0xFFFF) != 0) {
                throw new SchemaException("status code " + entry.name() + " has info bits set: " + hex(entry.code()));
            }
            out.line("public static final int " + entry.name() + " = " + hex(entry.code()) + ";");
        }
        out.blank();
        out.open("private StatusCodes()");
        out.close();
        out.blank();
        out.line("/** The name of the given status code, its 16 info bits ignored, or null when it is not a standard code. */");
        out.open("public static String name(int code)");
        out.open("return switch (code & 0xFFFF0000)");
        Map<Integer, String> seen = new HashMap<>();
        for (StatusCodeEntry entry : entries) {
            String previous = seen.putIfAbsent(entry.code(), entry.name());
            if (previous != null) {
                throw new SchemaException("status codes " + previous + " and " + entry.name() + " share the code "
                        + hex(entry.code()));
            }
            out.line("case " + hex(entry.code()) + " -> " + JavaWriter.literal(entry.name()) + ";");
        }
        out.line("default -> null;");
        out.close("};");
        out.close();
        out.close();
        return new GeneratedFile(JavaWriter.path(Packages.IDS, "StatusCodes"), out.finish());
    }

    /** AttributeIds: an int constant per row of AttributeIds.csv and a reverse lookup. */
    public static GeneratedFile writeAttributeIds(List<AttributeIdEntry> entries) {
        JavaWriter out = JavaWriter.file(Packages.IDS, Set.of());
        out.line("/** Identifiers of the node attributes (" + entries.size() + " attributes). */");
        out.open("public final class AttributeIds");
        out.blank();
        for (AttributeIdEntry entry : entries) {
            out.line("public static final int " + entry.name() + " = " + entry.id() + ";");
        }
        out.blank();
        out.open("private AttributeIds()");
        out.close();
        out.blank();
        out.line("/** The name of the attribute with the given id, or null when there is none. */");
        out.open("public static String name(int id)");
        out.open("return switch (id)");
        Map<Integer, String> seen = new HashMap<>();
        for (AttributeIdEntry entry : entries) {
            String previous = seen.putIfAbsent(entry.id(), entry.name());
            if (previous != null) {
                throw new SchemaException("attributes " + previous + " and " + entry.name() + " share the id " + entry.id());
            }
            out.line("case " + entry.id() + " -> " + JavaWriter.literal(entry.name()) + ";");
        }
        out.line("default -> null;");
        out.close("};");
        out.close();
        out.close();
        return new GeneratedFile(JavaWriter.path(Packages.IDS, "AttributeIds"), out.finish());
    }

    private static String hex(int code) {
        return String.format(Locale.ROOT, "0x%08X", code);
    }
}
