package dev.opcua.stack.codegen.schema;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.Argument;
import dev.opcua.stack.core.types.structured.EUInformation;
import dev.opcua.stack.core.types.structured.EnumValueType;
import dev.opcua.stack.core.types.structured.Range;
import java.lang.reflect.Array;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * Converts the XML encoding of a node's value (Part 6, 5.3) into a {@link Variant}.
 *
 * <p>Converted: scalars and one-dimensional arrays ({@code ListOf...}) of the built-in types other than
 * XmlElement, DataValue, Variant and DiagnosticInfo, and ExtensionObjects whose body is an Argument,
 * EnumValueType, EUInformation or Range (the structures ns0 values use). Anything else is
 * {@link Unconvertible}: the caller drops the value and reports it.
 */
public final class NodeSetValues {

    /** A value this converter does not handle; the message says what it is. */
    public static final class Unconvertible extends Exception {

        private static final long serialVersionUID = 1L;

        Unconvertible(String message) {
            super(message);
        }

        Unconvertible(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static final String LIST_PREFIX = "ListOf";

    private NodeSetValues() {
    }

    /** Converts the single element inside {@code <Value>}. */
    public static Variant toVariant(ValueElement element) throws Unconvertible {
        String name = element.name();
        if (name.startsWith(LIST_PREFIX)) {
            BuiltinType type = builtinType(name.substring(LIST_PREFIX.length()));
            List<ValueElement> items = element.children();
            Object array = Array.newInstance(type.arrayClass().getComponentType(), items.size());
            for (int i = 0; i < items.size(); i++) {
                ValueElement item = items.get(i);
                if (!item.name().equals(type.name())) {
                    throw new Unconvertible(name + " holds a <" + item.name() + "> element");
                }
                Array.set(array, i, scalar(type, item));
            }
            return Variant.ofArray(type, array);
        }
        BuiltinType type = builtinType(name);
        return Variant.ofScalar(type, scalar(type, element));
    }

    private static BuiltinType builtinType(String name) throws Unconvertible {
        BuiltinType type;
        try {
            type = BuiltinType.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw new Unconvertible("<" + name + "> is not a supported value element (matrix or unknown type)");
        }
        switch (type) {
            case Null, XmlElement, DataValue, Variant, DiagnosticInfo ->
                throw new Unconvertible(name + " values are not supported");
            default -> {
                return type;
            }
        }
    }

    /** The Java object {@link Variant} holds for a scalar of {@code type} (see {@link BuiltinType#scalarClass()}). */
    private static Object scalar(BuiltinType type, ValueElement e) throws Unconvertible {
        String text = e.text().trim();
        try {
            return switch (type) {
                case Boolean -> parseBoolean(text);
                case SByte -> Byte.parseByte(text);
                case Byte -> (short) unsigned(text, 0xFF);
                case Int16 -> Short.parseShort(text);
                case UInt16 -> (int) unsigned(text, 0xFFFF);
                case Int32 -> Integer.parseInt(text);
                case UInt32 -> unsigned(text, 0xFFFFFFFFL);
                case Int64 -> Long.parseLong(text);
                case UInt64 -> Long.parseUnsignedLong(text);
                case Float -> (float) parseDouble(text);
                case Double -> parseDouble(text);
                // Strings keep their whitespace: it is part of the value.
                case String -> e.text();
                case DateTime -> parseDateTime(text);
                case Guid -> UUID.fromString(requiredChild(e, "String"));
                case ByteString -> ByteString.of(Base64.getMimeDecoder().decode(text));
                case NodeId -> nodeId(e.childText("Identifier"));
                case ExpandedNodeId -> {
                    String identifier = e.childText("Identifier");
                    yield identifier == null || identifier.isEmpty()
                            ? ExpandedNodeId.NULL : ExpandedNodeId.parse(identifier);
                }
                case StatusCode -> {
                    String code = e.childText("Code");
                    yield StatusCode.ofUnsigned(code == null ? 0 : unsigned(code, 0xFFFFFFFFL));
                }
                case QualifiedName -> {
                    String ns = e.childText("NamespaceIndex");
                    ValueElement qname = e.child("Name");
                    yield QualifiedName.of(ns == null ? 0 : (int) unsigned(ns, 0xFFFF), qname == null ? null : qname.text());
                }
                case LocalizedText -> localizedText(e);
                case ExtensionObject -> extensionObject(e);
                default -> throw new Unconvertible(type + " values are not supported");
            };
        } catch (IllegalArgumentException | DateTimeParseException e2) {
            // NumberFormatException is an IllegalArgumentException
            throw new Unconvertible("<" + e.name() + "> '" + abbreviate(e.text()) + "' is not a valid " + type
                    + ": " + e2.getMessage(), e2);
        }
    }

    private static ExtensionObject extensionObject(ValueElement e) throws Unconvertible {
        String typeId = e.child("TypeId") == null ? null : e.child("TypeId").childText("Identifier");
        ValueElement body = e.child("Body");
        if (typeId == null || body == null || body.children().size() != 1) {
            throw new Unconvertible("ExtensionObject without a TypeId or a single body element");
        }
        ValueElement content = body.children().get(0);
        int id = (int) nodeId(typeId).numericId();
        UaStructure structure = switch (content.name()) {
            case "Argument" -> {
                expectType(content, typeId, id, NodeIds.Argument, NodeIds.Argument_Encoding_DefaultXml,
                        NodeIds.Argument_Encoding_DefaultBinary);
                yield new Argument(optionalText(content, "Name"), nodeIdOf(content.child("DataType")),
                        intOf(content, "ValueRank", -1), uint32List(content.child("ArrayDimensions")),
                        localizedText(content.child("Description")));
            }
            case "EnumValueType" -> {
                expectType(content, typeId, id, NodeIds.EnumValueType, NodeIds.EnumValueType_Encoding_DefaultXml,
                        NodeIds.EnumValueType_Encoding_DefaultBinary);
                String value = content.childText("Value");
                yield new EnumValueType(value == null ? 0 : Long.parseLong(value),
                        localizedText(content.child("DisplayName")), localizedText(content.child("Description")));
            }
            case "EUInformation" -> {
                expectType(content, typeId, id, NodeIds.EUInformation, NodeIds.EUInformation_Encoding_DefaultXml,
                        NodeIds.EUInformation_Encoding_DefaultBinary);
                yield new EUInformation(optionalText(content, "NamespaceUri"), intOf(content, "UnitId", 0),
                        localizedText(content.child("DisplayName")), localizedText(content.child("Description")));
            }
            case "Range" -> {
                expectType(content, typeId, id, NodeIds.Range, NodeIds.Range_Encoding_DefaultXml,
                        NodeIds.Range_Encoding_DefaultBinary);
                yield new Range(doubleOf(content, "Low"), doubleOf(content, "High"));
            }
            default -> throw new Unconvertible("ExtensionObject body <" + content.name() + "> (TypeId " + typeId
                    + ") is not supported");
        };
        return ExtensionObject.of(structure);
    }

    /** The TypeId must name the structure's data type or one of its encodings, and be in namespace 0. */
    private static void expectType(ValueElement content, String typeId, int id, int dataType, int xml, int binary)
            throws Unconvertible {
        NodeId parsed = nodeId(typeId);
        if (parsed.namespaceIndex() != 0 || (id != dataType && id != xml && id != binary)) {
            throw new Unconvertible("ExtensionObject body <" + content.name() + "> has TypeId " + typeId
                    + ", expected i=" + dataType + " or one of its encodings");
        }
    }

    private static LocalizedText localizedText(ValueElement e) {
        if (e == null) {
            return LocalizedText.NULL;
        }
        ValueElement locale = e.child("Locale");
        ValueElement text = e.child("Text");
        String localeText = locale == null ? null : locale.text().trim();
        return LocalizedText.of(localeText == null || localeText.isEmpty() ? null : localeText,
                text == null ? null : text.text());
    }

    /** A list of UInt32 elements: null when absent, empty when present without items. */
    private static long[] uint32List(ValueElement e) throws Unconvertible {
        if (e == null) {
            return null;
        }
        long[] values = new long[e.children().size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = unsigned(e.children().get(i).text().trim(), 0xFFFFFFFFL);
        }
        return values;
    }

    private static NodeId nodeIdOf(ValueElement e) {
        return e == null ? NodeId.NULL : nodeId(e.childText("Identifier"));
    }

    private static NodeId nodeId(String text) {
        return text == null || text.isEmpty() ? NodeId.NULL : NodeId.parse(text);
    }

    private static String optionalText(ValueElement e, String child) {
        ValueElement c = e.child(child);
        return c == null ? null : c.text();
    }

    private static int intOf(ValueElement e, String child, int absent) {
        String text = e.childText(child);
        return text == null || text.isEmpty() ? absent : Integer.parseInt(text);
    }

    private static double doubleOf(ValueElement e, String child) {
        String text = e.childText(child);
        return text == null || text.isEmpty() ? 0.0 : parseDouble(text);
    }

    private static String requiredChild(ValueElement e, String child) throws Unconvertible {
        String text = e.childText(child);
        if (text == null) {
            throw new Unconvertible("<" + e.name() + "> without <" + child + ">");
        }
        return text;
    }

    private static boolean parseBoolean(String text) {
        return switch (text) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw new IllegalArgumentException("not an xs:boolean");
        };
    }

    /** xs:double, with its INF, -INF and NaN spellings. */
    private static double parseDouble(String text) {
        return switch (text) {
            case "INF" -> Double.POSITIVE_INFINITY;
            case "-INF" -> Double.NEGATIVE_INFINITY;
            case "NaN" -> Double.NaN;
            default -> Double.parseDouble(text);
        };
    }

    private static long unsigned(String text, long max) {
        long value = Long.parseLong(text);
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(value + " is outside 0.." + max);
        }
        return value;
    }

    /** xs:dateTime; a time without an offset is taken as UTC. */
    private static DateTime parseDateTime(String text) {
        try {
            return DateTime.ofInstant(OffsetDateTime.parse(text).toInstant());
        } catch (DateTimeParseException e) {
            return DateTime.ofInstant(LocalDateTime.parse(text).toInstant(ZoneOffset.UTC));
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
