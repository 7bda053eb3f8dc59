package dev.opcua.stack.codegen.model;

import dev.opcua.stack.codegen.model.ValueType.Kind;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** The schema types that are hand-written in the stack, and the Java types of the built-in field types. */
public final class BuiltinTypes {

    /** Package of the hand-written built-in classes. */
    public static final String BUILTIN_PACKAGE = "dev.opcua.stack.core.types.builtin";

    /**
     * Types of the dictionary that the stack implements by hand and the generator skips: the built-in
     * types and the helper types that describe their encodings (decided by name, not by position).
     */
    public static final Set<String> HAND_WRITTEN = Set.of(
            "XmlElement", "NodeIdType", "TwoByteNodeId", "FourByteNodeId", "NumericNodeId", "StringNodeId",
            "GuidNodeId", "ByteStringNodeId", "NodeId", "ExpandedNodeId", "StatusCode", "DiagnosticInfo",
            "QualifiedName", "LocalizedText", "DataValue", "ExtensionObject", "Variant");

    /** Primitive types of the binary schema namespace ({@code opc:}). */
    private static final Map<String, ValueType> OPC = new LinkedHashMap<>();

    /** Built-in types of the UA namespace ({@code ua:}) that map to hand-written classes. */
    private static final Map<String, ValueType> UA = new LinkedHashMap<>();

    static {
        primitive("Boolean", "boolean", "Boolean");
        primitive("SByte", "byte", "SByte");
        primitive("Byte", "short", "Byte");
        primitive("Int16", "short", "Int16");
        primitive("UInt16", "int", "UInt16");
        primitive("Int32", "int", "Int32");
        primitive("UInt32", "long", "UInt32");
        primitive("Int64", "long", "Int64");
        primitive("UInt64", "long", "UInt64");
        primitive("Float", "float", "Float");
        primitive("Double", "double", "Double");
        OPC.put("String", new ValueType(Kind.BUILTIN, "opc:String", "String", null, "String"));
        OPC.put("CharArray", new ValueType(Kind.BUILTIN, "opc:CharArray", "String", null, "String"));
        OPC.put("DateTime", builtin("opc:DateTime", "DateTime"));
        OPC.put("Guid", new ValueType(Kind.BUILTIN, "opc:Guid", "UUID", "java.util.UUID", "Guid"));
        OPC.put("ByteString", builtin("opc:ByteString", "ByteString"));
        for (String name : new String[] {
            "XmlElement", "NodeId", "ExpandedNodeId", "StatusCode", "QualifiedName", "LocalizedText",
            "ExtensionObject", "DataValue", "Variant", "DiagnosticInfo"}) {
            UA.put(name, builtin("ua:" + name, name));
        }
    }

    private BuiltinTypes() {
    }

    private static void primitive(String name, String javaType, String codecName) {
        OPC.put(name, new ValueType(Kind.PRIMITIVE, "opc:" + name, javaType, null, codecName));
    }

    private static ValueType builtin(String schemaName, String className) {
        return new ValueType(Kind.BUILTIN, schemaName, className, BUILTIN_PACKAGE + "." + className, className);
    }

    /** The mapping of a type of the binary schema namespace, or null when it is not supported. */
    public static ValueType binarySchemaType(String localName) {
        return OPC.get(localName);
    }

    /** The mapping of a built-in type of the UA namespace, or null when it is not one. */
    public static ValueType uaBuiltinType(String localName) {
        return UA.get(localName);
    }

    /** The primitive mapping of an option set with the given encoded size. */
    public static ValueType optionSetType(String name, int lengthInBits) {
        return switch (lengthInBits) {
            case 8 -> new ValueType(Kind.PRIMITIVE, "tns:" + name, "short", null, "Byte");
            case 16 -> new ValueType(Kind.PRIMITIVE, "tns:" + name, "int", null, "UInt16");
            case 32 -> new ValueType(Kind.PRIMITIVE, "tns:" + name, "long", null, "UInt32");
            case 64 -> new ValueType(Kind.PRIMITIVE, "tns:" + name, "long", null, "UInt64");
            default -> null;
        };
    }

    /** Simple class names the generated structure and enumeration sources refer to. */
    public static Set<String> referencedSimpleNames() {
        return Set.of(
                "Object", "String", "Class", "Override", "Boolean", "Byte", "Short", "Integer", "Long", "Float",
                "Double", "StringBuilder", "Arrays", "Objects", "List", "UUID", "NodeId", "NodeIds",
                "UaCodec", "UaEncoder", "UaDecoder", "UaStructure", "UaEnumeration", "StandardStructures",
                "DateTime", "ByteString", "XmlElement", "ExpandedNodeId", "StatusCode", "QualifiedName",
                "LocalizedText", "ExtensionObject", "DataValue", "Variant", "DiagnosticInfo", "Codec");
    }
}
