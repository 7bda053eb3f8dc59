package dev.opcua.stack.codegen.emit;

import dev.opcua.stack.codegen.model.EnumModel;
import dev.opcua.stack.codegen.schema.EnumValueDef;
import java.util.Set;
import java.util.TreeSet;

/** Writes enumerations as Java enums and option sets as classes of bit-mask constants. */
public final class EnumWriter {

    private EnumWriter() {
    }

    /** The source file of the given enumeration or option set. */
    public static GeneratedFile write(EnumModel model) {
        return model.optionSet() ? writeOptionSet(model) : writeEnum(model);
    }

    private static GeneratedFile writeEnum(EnumModel model) {
        String name = model.name();
        Set<String> imports = new TreeSet<>();
        imports.add(Packages.UA_ENUMERATION);
        if (model.dataTypeId() != null) {
            imports.add(Packages.NODE_ID);
            imports.add(Packages.NODE_IDS);
        }
        JavaWriter out = JavaWriter.file(Packages.ENUMERATED, imports);
        out.line("/** Standard enumeration " + name + dataTypeNote(model) + ". */");
        out.open("public enum " + name + " implements UaEnumeration");
        int count = model.values().size();
        for (int i = 0; i < count; i++) {
            EnumValueDef value = model.values().get(i);
            out.line(value.name() + "(" + value.value() + ")" + (i < count - 1 ? "," : ";"));
        }
        if (model.dataTypeId() != null) {
            out.blank();
            out.assign("public static final NodeId TYPE_ID", typeIdExpression(model));
        }
        out.blank();
        out.line("private final int value;");
        out.blank();
        out.open(name + "(int value)");
        out.line("this.value = value;");
        out.close();
        out.blank();
        out.line("@Override");
        out.open("public int value()");
        out.line("return value;");
        out.close();
        out.blank();
        out.line("/** The constant with the given numeric value, or null when there is none. */");
        out.open("public static " + name + " fromValue(int value)");
        out.open("return switch (value)");
        for (EnumValueDef value : model.values()) {
            out.line("case " + value.value() + " -> " + value.name() + ";");
        }
        out.line("default -> null;");
        out.close("};");
        out.close();
        out.close();
        return new GeneratedFile(JavaWriter.path(Packages.ENUMERATED, name), out.finish());
    }

    private static GeneratedFile writeOptionSet(EnumModel model) {
        String name = model.name();
        Set<String> imports = new TreeSet<>();
        if (model.dataTypeId() != null) {
            imports.add(Packages.NODE_ID);
            imports.add(Packages.NODE_IDS);
        }
        JavaWriter out = JavaWriter.file(Packages.ENUMERATED, imports);
        out.line("/** Bit masks of the standard option set " + name + dataTypeNote(model) + ", encoded in "
                + model.lengthInBits() + " bits. */");
        out.open("public final class " + name);
        out.blank();
        if (model.dataTypeId() != null) {
            out.assign("public static final NodeId TYPE_ID", typeIdExpression(model));
        }
        out.line("public static final int LENGTH_IN_BITS = " + model.lengthInBits() + ";");
        out.blank();
        for (EnumValueDef value : model.values()) {
            out.line("public static final long " + value.name() + " = 0x" + Long.toHexString(value.value()) + "L;");
        }
        out.blank();
        out.open("private " + name + "()");
        out.close();
        out.close();
        return new GeneratedFile(JavaWriter.path(Packages.ENUMERATED, name), out.finish());
    }

    private static String dataTypeNote(EnumModel model) {
        return model.dataTypeId() == null ? "" : " (DataType i=" + model.dataTypeId() + ")";
    }

    /**
     * {@code NodeId.ns0(NodeIds.X)}, with the classes qualified where a constant of the same simple name
     * would otherwise shadow them (NodeAttributesMask and AttributeWriteMask have a value named NodeId).
     */
    private static String typeIdExpression(EnumModel model) {
        String nodeId = model.hasValueNamed("NodeId") ? Packages.NODE_ID : "NodeId";
        String nodeIds = model.hasValueNamed("NodeIds") ? Packages.NODE_IDS : "NodeIds";
        return nodeId + ".ns0(" + nodeIds + "." + model.name() + ")";
    }
}
