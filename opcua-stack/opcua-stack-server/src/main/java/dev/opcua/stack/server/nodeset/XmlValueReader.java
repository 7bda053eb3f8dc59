package dev.opcua.stack.server.nodeset;

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
import dev.opcua.stack.core.types.builtin.XmlElement;
import java.lang.reflect.Array;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.List;
import java.util.UUID;

/**
 * Converts values in the XML encoding (Part 6, 5.3) into the Java objects {@link Variant} holds:
 * scalars and one-dimensional arrays ({@code ListOf...}) of every built-in type but DataValue and
 * DiagnosticInfo; NodeIds, ExpandedNodeIds and QualifiedNames get the server's namespace indexes;
 * ExtensionObject bodies are handed to the {@link Context}, which knows the structures.
 */
final class XmlValueReader {

    /** What a value needs from the import. */
    interface Context {
        /** A NodeId of the file (its namespace indexes) as the server's. */
        NodeId nodeId(String text);

        /** A namespace index of the file as the server's. */
        int namespaceIndex(int fileIndex);

        /** An ExtensionObject from its TypeId (already the server's) and its Body's single child, or null. */
        ExtensionObject extensionObject(NodeId typeId, XmlNode body);
    }

    /** A value that cannot be converted; the message says why. */
    static final class UnsupportedValueException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        UnsupportedValueException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static final String LIST_PREFIX = "ListOf";

    private final Context context;

    XmlValueReader(Context context) {
        this.context = context;
    }

    /** The element inside {@code <Value>}. */
    Variant toVariant(XmlNode element) {
        String name = element.name();
        if (name.startsWith(LIST_PREFIX)) {
            BuiltinType type = builtinType(name.substring(LIST_PREFIX.length()));
            return Variant.ofArray(type, array(type, element.children()));
        }
        if (name.equals("Matrix")) {
            throw unsupported("<Matrix> values are not supported", null);
        }
        BuiltinType type = builtinType(name);
        return Variant.ofScalar(type, scalar(type, element));
    }

    /** An array of {@link BuiltinType#arrayClass()} from elements each holding one value. */
    Object array(BuiltinType type, List<XmlNode> items) {
        Object array = Array.newInstance(type.arrayClass().getComponentType(), items.size());
        for (int i = 0; i < items.size(); i++) {
            Array.set(array, i, scalar(type, items.get(i)));
        }
        return array;
    }

    static BuiltinType builtinType(String name) {
        BuiltinType type;
        try {
            type = BuiltinType.valueOf(name);
        } catch (IllegalArgumentException e) {
            throw unsupported("<" + name + "> is not a built-in type", null);
        }
        if (type == BuiltinType.Null || type == BuiltinType.DataValue || type == BuiltinType.DiagnosticInfo) {
            throw unsupported(name + " values are not supported", null);
        }
        return type;
    }

    /** The value of an element whose content is one {@code type} (the element's own name does not matter). */
    Object scalar(BuiltinType type, XmlNode e) {
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
                case String -> e.children().isEmpty() ? e.text() : null; // whitespace is part of a string
                case DateTime -> text.isEmpty() ? DateTime.MIN_VALUE : parseDateTime(text);
                case Guid -> UUID.fromString(e.childText("String") != null ? e.childText("String").trim() : text);
                case ByteString -> text.isEmpty() ? ByteString.NULL : ByteString.of(Base64.getMimeDecoder().decode(text));
                case XmlElement -> XmlElement.of(e.children().isEmpty() ? e.text() : e.children().get(0).toXml());
                case NodeId -> nodeId(e.childText("Identifier"));
                case ExpandedNodeId -> expandedNodeId(e.childText("Identifier"));
                case StatusCode -> {
                    String code = e.childText("Code");
                    yield StatusCode.ofUnsigned(code == null ? 0 : unsigned(code.trim(), 0xFFFFFFFFL));
                }
                case QualifiedName -> {
                    String ns = e.childText("NamespaceIndex");
                    String qname = e.childText("Name");
                    int index = ns == null || ns.isBlank() ? 0 : context.namespaceIndex((int) unsigned(ns.trim(), 0xFFFF));
                    yield QualifiedName.of(index, qname);
                }
                case LocalizedText -> localizedText(e);
                case ExtensionObject -> extensionObject(e);
                case Variant -> variant(e);
                default -> throw unsupported(type + " values are not supported", null);
            };
        } catch (IllegalArgumentException | DateTimeParseException | ArithmeticException ex) {
            if (ex instanceof UnsupportedValueException u) {
                throw u;
            }
            throw unsupported("line " + e.line() + ": <" + e.name() + "> '" + abbreviate(text) + "' is not a valid "
                    + type + ": " + ex.getMessage(), ex);
        }
    }

    /** A Variant element: {@code <Value>} holding one typed element (Part 6, 5.3.1.17). */
    private Variant variant(XmlNode e) {
        XmlNode value = e.child("Value");
        if (value == null || value.children().isEmpty()) {
            return Variant.NULL;
        }
        return toVariant(value.children().get(0));
    }

    static LocalizedText localizedText(XmlNode e) {
        if (e == null) {
            return LocalizedText.NULL;
        }
        String locale = e.childText("Locale");
        String text = e.childText("Text");
        locale = locale == null || locale.isBlank() ? null : locale.trim();
        return locale == null && text == null ? LocalizedText.NULL : LocalizedText.of(locale, text);
    }

    private ExtensionObject extensionObject(XmlNode e) {
        XmlNode typeId = e.child("TypeId");
        String identifier = typeId == null ? null : typeId.childText("Identifier");
        if (identifier == null || identifier.isBlank()) {
            return ExtensionObject.NULL;
        }
        NodeId type = nodeId(identifier);
        XmlNode body = e.child("Body");
        if (body == null || body.children().isEmpty()) {
            return ExtensionObject.ofEmpty(type);
        }
        ExtensionObject decoded = context.extensionObject(type, body.children().get(0));
        return decoded != null ? decoded : ExtensionObject.ofXml(type, XmlElement.of(body.children().get(0).toXml()));
    }

    NodeId nodeId(String text) {
        return text == null || text.isBlank() ? NodeId.NULL : context.nodeId(text.trim());
    }

    private ExpandedNodeId expandedNodeId(String text) {
        if (text == null || text.isBlank()) {
            return ExpandedNodeId.NULL;
        }
        ExpandedNodeId parsed = ExpandedNodeId.parse(text.trim());
        if (parsed.namespaceUri() != null || parsed.serverIndex() != 0) {
            return parsed;
        }
        return ExpandedNodeId.of(context.nodeId(text.trim()));
    }

    private static boolean parseBoolean(String text) {
        return switch (text) {
            case "true", "1" -> true;
            case "false", "0", "" -> false;
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

    static long unsigned(String text, long max) {
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

    static UnsupportedValueException unsupported(String message, Throwable cause) {
        return new UnsupportedValueException(message, cause);
    }

    private static String abbreviate(String text) {
        return text.length() <= 40 ? text : text.substring(0, 40) + "...";
    }
}
