package dev.opcua.stack.codegen.emit;

import dev.opcua.stack.codegen.model.PropertyModel;
import dev.opcua.stack.codegen.model.StructureModel;
import dev.opcua.stack.codegen.model.ValueType;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes one structure class: immutable fields, constructor, accessors, value semantics and a nested
 * UA Binary codec.
 */
public final class StructureWriter {

    private StructureWriter() {
    }

    /** The source file of the given structure. */
    public static GeneratedFile write(StructureModel structure) {
        String name = structure.name();
        List<PropertyModel> all = structure.properties();
        List<PropertyModel> own = structure.ownProperties();
        boolean concrete = structure.isConcrete();

        Set<String> imports = new TreeSet<>();
        imports.add(Packages.NODE_ID);
        imports.add(Packages.NODE_IDS);
        String contract = contractOf(structure);
        if (structure.baseName() == null) {
            imports.add(contract);
        }
        if (concrete) {
            imports.add(Packages.UA_CODEC);
            imports.add(Packages.UA_WRITER);
            imports.add(Packages.UA_READER);
            for (PropertyModel property : all) {
                if (property.array()) {
                    imports.add("java.util.Arrays");
                } else if (!property.type().isPrimitive()) {
                    imports.add("java.util.Objects");
                }
            }
        }
        for (PropertyModel property : concrete ? all : own) {
            if (property.type().importName() != null) {
                imports.add(property.type().importName());
            }
        }

        JavaWriter out = JavaWriter.file(Packages.STRUCTURED, imports);
        String ids = concrete
                ? "(DataType i=" + structure.dataTypeId() + ", binary encoding i=" + structure.binaryEncodingId() + ")"
                : "(DataType i=" + structure.dataTypeId() + ")";
        out.line("/** Standard structure " + name + " " + ids
                + (concrete ? "." : "; an abstract base without fields of its own.") + " */");
        String head = switch (structure.shape()) {
            case FINAL -> "public final class " + name;
            case OPEN -> "public class " + name;
            case ABSTRACT -> "public abstract class " + name;
        };
        head += structure.baseName() == null
                ? " implements " + contract.substring(contract.lastIndexOf('.') + 1)
                : " extends " + structure.baseName();
        out.open(head);

        out.blank();
        out.assign("public static final NodeId TYPE_ID", "NodeId.ns0(NodeIds." + name + ")");
        if (!concrete) {
            out.blank();
            out.open("protected " + name + "()");
            out.close();
            out.close();
            return new GeneratedFile(JavaWriter.path(Packages.STRUCTURED, name), out.finish());
        }
        out.assign("public static final NodeId BINARY_ENCODING_ID",
                "NodeId.ns0(NodeIds." + name + "_Encoding_DefaultBinary)");
        out.assign("public static final UaCodec<" + name + "> CODEC", "new Codec()");

        if (!own.isEmpty()) {
            out.blank();
            for (PropertyModel property : own) {
                out.line("private final " + property.javaType() + " " + property.javaName() + ";");
            }
        }

        writeConstructor(out, structure);

        for (PropertyModel property : own) {
            out.blank();
            out.open("public " + property.javaType() + " " + property.javaName() + "()");
            out.line("return " + property.javaName() + ";");
            out.close();
        }

        out.blank();
        out.line("@Override");
        out.open("public NodeId typeId()");
        out.line("return TYPE_ID;");
        out.close();
        out.blank();
        out.line("@Override");
        out.open("public NodeId binaryEncodingId()");
        out.line("return BINARY_ENCODING_ID;");
        out.close();

        writeEquals(out, structure);
        writeHashCode(out, structure);
        writeToString(out, structure);
        writeCodec(out, structure);

        out.close();
        return new GeneratedFile(JavaWriter.path(Packages.STRUCTURED, name), out.finish());
    }

    /**
     * The interface a root structure implements: service requests and responses (their first field is a
     * RequestHeader or a ResponseHeader, Part 4, 7.32/7.33) get the message contracts that expose it.
     */
    static String contractOf(StructureModel structure) {
        if (!structure.properties().isEmpty()) {
            PropertyModel first = structure.properties().get(0);
            if (!first.array() && first.specName().equals("RequestHeader")
                    && first.type().javaType().equals("RequestHeader")) {
                return Packages.UA_REQUEST_MESSAGE;
            }
            if (!first.array() && first.specName().equals("ResponseHeader")
                    && first.type().javaType().equals("ResponseHeader")) {
                return Packages.UA_RESPONSE_MESSAGE;
            }
        }
        return Packages.UA_STRUCTURE;
    }

    private static void writeConstructor(JavaWriter out, StructureModel structure) {
        List<String> parameters = new ArrayList<>();
        for (PropertyModel property : structure.properties()) {
            parameters.add(property.javaType() + " " + property.javaName());
        }
        out.blank();
        out.list("public " + structure.name(), parameters, " {");
        out.indent();
        List<PropertyModel> inherited = structure.inheritedProperties();
        if (!inherited.isEmpty()) {
            out.list("super", inherited.stream().map(PropertyModel::javaName).toList(), ";");
        }
        for (PropertyModel property : structure.ownProperties()) {
            out.line("this." + property.javaName() + " = " + property.javaName() + ";");
        }
        out.close();
    }

    /** How this class reads a field of itself ({@code name}) or of another instance ({@code that.name}). */
    private static String access(String target, PropertyModel property) {
        String member = property.inherited() ? property.javaName() + "()" : property.javaName();
        return target == null ? member : target + "." + member;
    }

    private static void writeEquals(JavaWriter out, StructureModel structure) {
        out.blank();
        out.line("@Override");
        out.open("public boolean equals(Object o)");
        out.open("if (this == o)");
        out.line("return true;");
        out.close();
        List<PropertyModel> properties = structure.properties();
        if (properties.isEmpty()) {
            out.line("return o != null && getClass() == o.getClass();");
            out.close();
            return;
        }
        out.open("if (o == null || getClass() != o.getClass())");
        out.line("return false;");
        out.close();
        out.line(structure.name() + " that = (" + structure.name() + ") o;");
        for (int i = 0; i < properties.size(); i++) {
            PropertyModel property = properties.get(i);
            String mine = access(null, property);
            String theirs = access("that", property);
            String test;
            if (property.array()) {
                test = "Arrays.equals(" + mine + ", " + theirs + ")";
            } else if (property.type().isPrimitive()) {
                test = switch (property.type().javaType()) {
                    case "float" -> "Float.compare(" + mine + ", " + theirs + ") == 0";
                    case "double" -> "Double.compare(" + mine + ", " + theirs + ") == 0";
                    default -> mine + " == " + theirs;
                };
            } else {
                test = "Objects.equals(" + mine + ", " + theirs + ")";
            }
            String prefix = i == 0 ? "return " : "        && ";
            String suffix = i == properties.size() - 1 ? ";" : "";
            out.line(prefix + test + suffix);
        }
        out.close();
    }

    private static void writeHashCode(JavaWriter out, StructureModel structure) {
        out.blank();
        out.line("@Override");
        out.open("public int hashCode()");
        List<PropertyModel> properties = structure.properties();
        if (properties.isEmpty()) {
            out.line("return " + JavaWriter.literal(structure.name()) + ".hashCode();");
            out.close();
            return;
        }
        for (int i = 0; i < properties.size(); i++) {
            PropertyModel property = properties.get(i);
            String value = access(null, property);
            String hash;
            if (property.array()) {
                hash = "Arrays.hashCode(" + value + ")";
            } else if (property.type().isPrimitive()) {
                hash = switch (property.type().javaType()) {
                    case "boolean" -> "Boolean.hashCode(" + value + ")";
                    case "byte" -> "Byte.hashCode(" + value + ")";
                    case "short" -> "Short.hashCode(" + value + ")";
                    case "int" -> value;
                    case "long" -> "Long.hashCode(" + value + ")";
                    case "float" -> "Float.hashCode(" + value + ")";
                    case "double" -> "Double.hashCode(" + value + ")";
                    default -> throw new IllegalStateException("primitive " + property.type().javaType());
                };
            } else {
                hash = "Objects.hashCode(" + value + ")";
            }
            out.line(i == 0 ? "int result = " + hash + ";" : "result = 31 * result + " + hash + ";");
        }
        out.line("return result;");
        out.close();
    }

    private static void writeToString(JavaWriter out, StructureModel structure) {
        out.blank();
        out.line("@Override");
        out.open("public String toString()");
        List<PropertyModel> properties = structure.properties();
        if (properties.isEmpty()) {
            out.line("return " + JavaWriter.literal(structure.name() + "{}") + ";");
            out.close();
            return;
        }
        out.line("return " + JavaWriter.literal(structure.name() + "{"));
        for (int i = 0; i < properties.size(); i++) {
            PropertyModel property = properties.get(i);
            String label = (i == 0 ? "" : ", ") + property.javaName() + "=";
            String value = access(null, property);
            if (property.array()) {
                value = "Arrays.toString(" + value + ")";
            }
            out.line("        + " + JavaWriter.literal(label) + " + " + value);
        }
        out.line("        + \"}\";");
        out.close();
    }

    private static void writeCodec(JavaWriter out, StructureModel structure) {
        String name = structure.name();
        out.blank();
        out.open("private static final class Codec implements UaCodec<" + name + ">");
        out.blank();
        out.line("@Override");
        out.open("public Class<" + name + "> type()");
        out.line("return " + name + ".class;");
        out.close();
        out.blank();
        out.line("@Override");
        out.open("public NodeId encodingId()");
        out.line("return BINARY_ENCODING_ID;");
        out.close();
        out.blank();
        out.line("@Override");
        out.open("public NodeId dataTypeId()");
        out.line("return TYPE_ID;");
        out.close();

        out.blank();
        out.line("@Override");
        out.open("public void encode(UaWriter encoder, " + name + " value)");
        for (PropertyModel property : structure.properties()) {
            writeEncodeCall(out, property, access("value", property));
        }
        out.close();

        out.blank();
        out.line("@Override");
        out.open("public " + name + " decode(UaReader decoder)");
        List<String> arguments = new ArrayList<>();
        for (PropertyModel property : structure.properties()) {
            writeDecodeCall(out, property);
            arguments.add(property.javaName());
        }
        out.list("return new " + name, arguments, ";");
        out.close();
        out.close();
    }

    /** The encoder statement for one field. */
    private static void writeEncodeCall(JavaWriter out, PropertyModel property, String value) {
        ValueType type = property.type();
        String method = "write" + type.codecName() + (property.array() ? "Array" : "");
        List<String> arguments = new ArrayList<>(List.of(JavaWriter.literal(property.specName()), value));
        if (type.kind() == ValueType.Kind.STRUCT) {
            arguments.add(type.javaType() + ".CODEC");
        }
        out.list("encoder." + method, arguments, ";");
    }

    /** The decoder statement for one field: a local variable of the field's Java name. */
    private static void writeDecodeCall(JavaWriter out, PropertyModel property) {
        ValueType type = property.type();
        String method = "read" + type.codecName() + (property.array() ? "Array" : "");
        List<String> arguments = new ArrayList<>(List.of(JavaWriter.literal(property.specName())));
        if (type.kind() == ValueType.Kind.ENUM) {
            arguments.add(type.javaType() + "::fromValue");
        } else if (type.kind() == ValueType.Kind.STRUCT) {
            arguments.add(type.javaType() + ".CODEC");
        }
        if (property.array() && (type.kind() == ValueType.Kind.ENUM || type.kind() == ValueType.Kind.STRUCT)) {
            arguments.add(type.javaType() + "[]::new");
        }
        out.list(property.javaType() + " " + property.javaName() + " = decoder." + method, arguments, ";");
    }
}
