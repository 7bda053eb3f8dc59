package dev.opcua.stack.core.encoding.json;

import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.types.UaEnumeration;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.builtin.XmlElement;
import java.lang.reflect.Array;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.UUID;
import java.util.function.IntFunction;

/**
 * Turns parsed JSON values into the built-in types of UA JSON (OPC 10000-6 1.05, 5.4.2 and 5.4.5), checking
 * each against its JSON type, its range and its limit: scalars by built-in type, arrays, and the objects of
 * Variant, DataValue, ExtensionObject, DiagnosticInfo, StatusCode and LocalizedText.
 *
 * <p>Static methods on the {@link JsonDecoder}'s cursor, like the binary package's readers. A missing value is
 * its type's default; JSON null is NULL, and refused as an array element of a type that has no NULL (5.4.2.1).
 */
final class JsonBuiltinReader {

    private static final UUID NULL_GUID = new UUID(0, 0);

    private JsonBuiltinReader() {
    }

    /** A scalar of {@code type} as {@link Variant} holds it, from {@code n} (null when missing). */
    static Object scalar(JsonDecoder d, String field, BuiltinType type, JsonNode n) {
        if (n == null || n.isNull()) {
            if (n != null && field == null && !nullable(type)) {
                throw d.malformed(null, "null is no " + type + " value (only nullable types may be null)");
            }
            return defaultValue(type);
        }
        return switch (type) {
            case Boolean -> {
                if (n.kind == JsonNode.Kind.TRUE || n.kind == JsonNode.Kind.FALSE) {
                    yield n.kind == JsonNode.Kind.TRUE;
                }
                throw wrongType(d, field, n, "true or false");
            }
            case SByte -> (byte) integer(d, field, n, Byte.MIN_VALUE, Byte.MAX_VALUE, "SByte");
            case Byte -> (short) integer(d, field, n, 0, 0xFF, "Byte");
            case Int16 -> (short) integer(d, field, n, Short.MIN_VALUE, Short.MAX_VALUE, "Int16");
            case UInt16 -> (int) integer(d, field, n, 0, 0xFFFF, "UInt16");
            case Int32 -> (int) integer(d, field, n, Integer.MIN_VALUE, Integer.MAX_VALUE, "Int32");
            case UInt32 -> integer(d, field, n, 0, 0xFFFFFFFFL, "UInt32");
            case Int64 -> int64(d, field, n, false);
            case UInt64 -> int64(d, field, n, true);
            case Float -> (float) floating(d, field, n, true);
            case Double -> floating(d, field, n, false);
            case String -> text(d, field, n, d.limits().maxStringLength(), "MaxStringLength");
            case DateTime -> parse(d, field, n, "a DateTime", JsonTextForms::parseDateTime);
            case Guid -> parse(d, field, n, "a Guid", JsonTextForms::parseGuid);
            case ByteString -> byteString(d, field, n);
            case XmlElement -> XmlElement.of(text(d, field, n, d.limits().maxByteStringLength(), "MaxByteStringLength"));
            case NodeId -> parse(d, field, n, "a NodeId", t -> JsonTextForms.parseNodeId(t, d.namespaces));
            case ExpandedNodeId -> parse(d, field, n, "an ExpandedNodeId",
                    t -> JsonTextForms.parseExpandedNodeId(t, d.namespaces));
            case StatusCode -> statusCode(d, field, n);
            case QualifiedName -> parse(d, field, n, "a QualifiedName",
                    t -> JsonTextForms.parseQualifiedName(t, d.namespaces));
            case LocalizedText -> localizedText(d, field, n);
            case ExtensionObject -> extensionObject(d, field, n);
            case DataValue -> dataValue(d, field, n);
            case Variant -> variant(d, field, n);
            case DiagnosticInfo -> diagnosticInfo(d, field, n);
            default -> throw d.malformed(field, "cannot read a " + type);
        };
    }

    /** Whether JSON null is a valid value of the type (5.4.2.1; Table 1 of 5.1.2 names the nullable types). */
    private static boolean nullable(BuiltinType type) {
        return switch (type) {
            case Boolean, SByte, Byte, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float, Double, StatusCode -> false;
            default -> true;
        };
    }

    static Object defaultValue(BuiltinType type) {
        return switch (type) {
            case Boolean -> false;
            case SByte -> (byte) 0;
            case Byte, Int16 -> (short) 0;
            case UInt16, Int32 -> 0;
            case UInt32, Int64, UInt64 -> 0L;
            case Float -> 0f;
            case Double -> 0d;
            case DateTime -> DateTime.MIN_VALUE;
            case Guid -> NULL_GUID;
            case ByteString -> ByteString.NULL;
            case XmlElement -> XmlElement.NULL;
            case NodeId -> NodeId.NULL;
            case ExpandedNodeId -> ExpandedNodeId.NULL;
            case StatusCode -> StatusCode.GOOD;
            case QualifiedName -> QualifiedName.NULL;
            case LocalizedText -> LocalizedText.NULL;
            case ExtensionObject -> ExtensionObject.NULL;
            case DataValue -> DataValue.NULL;
            case Variant -> Variant.NULL;
            case DiagnosticInfo -> DiagnosticInfo.NULL;
            default -> null;
        };
    }

    /** A JSON array as an array of {@link BuiltinType#arrayClass()}; null when missing or JSON null. */
    static Object array(JsonDecoder d, String field, BuiltinType type, JsonNode n) {
        if (n == null || n.isNull()) {
            return null;
        }
        d.requireKind(field, n, JsonNode.Kind.ARRAY);
        int length = n.size();
        Object values = Array.newInstance(type.arrayClass().getComponentType(), length);
        d.push(n, field, 0);
        try {
            for (int i = 0; i < length; i++) {
                d.index(i);
                Array.set(values, i, scalar(d, null, type, n.element(i)));
            }
        } finally {
            d.exit();
        }
        return values;
    }

    // ---- numbers (5.4.2.3, 5.4.2.4) ------------------------------------------------------------------------

    /** An integer JSON number (no fraction or exponent) within {@code min..max}. */
    static long integer(JsonDecoder d, String field, JsonNode n, long min, long max, String typeName) {
        if (n.kind != JsonNode.Kind.NUMBER) {
            throw wrongType(d, field, n, "a " + typeName + " number");
        }
        return inRange(d, field, n.text, min, max, typeName);
    }

    private static long inRange(JsonDecoder d, String field, String text, long min, long max, String typeName) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!(c >= '0' && c <= '9') && !(i == 0 && c == '-')) {
                throw d.malformed(field, "'" + shorten(text) + "' is not an integer, as " + typeName + " needs");
            }
        }
        long value;
        try {
            value = Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw d.malformed(field, "the number " + shorten(text) + " is out of range for " + typeName);
        }
        if (value < min || value > max) {
            throw d.malformed(field, "the number " + value + " is out of range for " + typeName);
        }
        return value;
    }

    /** 5.4.2.3: a decimal string (a JSON number is accepted too); UInt64 as the bits of the unsigned value. */
    private static long int64(JsonDecoder d, String field, JsonNode n, boolean unsigned) {
        String typeName = unsigned ? "UInt64" : "Int64";
        if (n.kind != JsonNode.Kind.STRING && n.kind != JsonNode.Kind.NUMBER) {
            throw wrongType(d, field, n, "an " + typeName + " as a decimal string");
        }
        String text = n.text;
        if (!unsigned) {
            return inRange(d, field, text, Long.MIN_VALUE, Long.MAX_VALUE, typeName);
        }
        boolean digits = !text.isEmpty() && text.length() <= 20;
        for (int i = 0; i < text.length() && digits; i++) {
            digits = text.charAt(i) >= '0' && text.charAt(i) <= '9';
        }
        if (!digits) {
            throw d.malformed(field, "'" + shorten(text) + "' is not a UInt64 (unsigned decimal digits)");
        }
        try {
            return Long.parseUnsignedLong(text);
        } catch (NumberFormatException e) {
            throw d.malformed(field, "the number " + text + " is out of range for UInt64");
        }
    }

    /** 5.4.2.4: a JSON number, or "NaN", "Infinity", "-Infinity"; a finite number too large for the type is refused. */
    private static double floating(JsonDecoder d, String field, JsonNode n, boolean single) {
        String typeName = single ? "Float" : "Double";
        if (n.kind == JsonNode.Kind.STRING) {
            switch (n.text) {
                case "NaN":
                    return Double.NaN;
                case "Infinity":
                    return Double.POSITIVE_INFINITY;
                case "-Infinity":
                    return Double.NEGATIVE_INFINITY;
                default:
                    throw d.malformed(field, "the string '" + shorten(n.text) + "' is no " + typeName
                            + " (only \"NaN\", \"Infinity\" and \"-Infinity\" are strings)");
            }
        }
        if (n.kind != JsonNode.Kind.NUMBER) {
            throw wrongType(d, field, n, "a " + typeName + " number");
        }
        double value = single ? Float.parseFloat(n.text) : Double.parseDouble(n.text);
        if (Double.isInfinite(value)) {
            throw d.malformed(field, "the number " + shorten(n.text) + " is out of range for " + typeName);
        }
        return value;
    }

    // ---- text forms (5.4.2.5 - 5.4.2.14) ---------------------------------------------------------------------

    private static String text(JsonDecoder d, String field, JsonNode n, int limit, String limitName) {
        if (n.kind != JsonNode.Kind.STRING) {
            throw wrongType(d, field, n, "a string");
        }
        if (n.utf8Length > limit) {
            throw d.overLimit(field, "string of " + n.utf8Length + " UTF-8 bytes exceeds " + limitName + " " + limit);
        }
        return n.text;
    }

    private interface TextParser<T> {
        T parse(String text);
    }

    private static <T> T parse(JsonDecoder d, String field, JsonNode n, String what, TextParser<T> parser) {
        String text = text(d, field, n, d.limits().maxStringLength(), "MaxStringLength");
        try {
            return parser.parse(text);
        } catch (IllegalArgumentException e) {
            throw d.malformed(field, "invalid " + what.substring(what.indexOf(' ') + 1) + ": " + e.getMessage());
        }
    }

    /** 5.4.2.8: base64; the decoded length is checked against MaxByteStringLength before decoding. */
    private static ByteString byteString(JsonDecoder d, String field, JsonNode n) {
        if (n.kind != JsonNode.Kind.STRING) {
            throw wrongType(d, field, n, "a base64 string");
        }
        long decodedAtMost = (long) n.text.length() / 4 * 3 + 3;
        int limit = d.limits().maxByteStringLength();
        if (decodedAtMost > limit + 3L) {
            throw d.overLimit(field, "base64 of about " + decodedAtMost + " bytes exceeds MaxByteStringLength " + limit);
        }
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(n.text);
        } catch (IllegalArgumentException e) {
            throw d.malformed(field, "invalid base64: " + e.getMessage());
        }
        if (bytes.length > limit) {
            throw d.overLimit(field, "ByteString of " + bytes.length + " bytes exceeds MaxByteStringLength " + limit);
        }
        return ByteString.wrap(bytes);
    }

    // ---- objects (5.4.2.12 - 5.4.2.18) -----------------------------------------------------------------------

    /** 5.4.2.12: {@code {"Code":n,"Symbol":..}} (Symbol ignored); a plain number, the 1.04 form, is accepted. */
    private static StatusCode statusCode(JsonDecoder d, String field, JsonNode n) {
        if (n.kind == JsonNode.Kind.NUMBER) {
            return StatusCode.ofUnsigned(integer(d, field, n, Integer.MIN_VALUE, 0xFFFFFFFFL, "StatusCode"));
        }
        d.requireKind(field, n, JsonNode.Kind.OBJECT);
        JsonNode code = n.member("Code");
        if (code == null || code.isNull()) {
            return StatusCode.GOOD;
        }
        d.push(n, field, -1);
        try {
            return StatusCode.ofUnsigned(integer(d, "Code", code, Integer.MIN_VALUE, 0xFFFFFFFFL, "StatusCode"));
        } finally {
            d.exit();
        }
    }

    private static LocalizedText localizedText(JsonDecoder d, String field, JsonNode n) {
        d.requireKind(field, n, JsonNode.Kind.OBJECT);
        d.push(n, field, -1);
        try {
            return LocalizedText.of((String) scalar(d, "Locale", BuiltinType.String, n.member("Locale")),
                    (String) scalar(d, "Text", BuiltinType.String, n.member("Text")));
        } finally {
            d.exit();
        }
    }

    /** 5.4.2.17; see {@link #variantMembers}. */
    static Variant variant(JsonDecoder d, String field, JsonNode n) {
        if (n == null || n.isNull()) {
            return Variant.NULL;
        }
        d.enterNested(field, n);
        try {
            return variantMembers(d);
        } finally {
            d.exitNested();
        }
    }

    /**
     * The Variant members of the current object: UaType (0..25), Value (a scalar, or an array flattened as
     * 5.2.2.16 lays out a matrix) and Dimensions (non-negative, their product the array's length).
     */
    private static Variant variantMembers(JsonDecoder d) {
        JsonNode typeNode = d.value("UaType");
        JsonNode valueNode = d.value("Value");
        if (typeNode == null || typeNode.isNull()) {
            if (valueNode != null && !valueNode.isNull()) {
                throw d.malformed("UaType", "is missing although a Value is present");
            }
            return Variant.NULL;
        }
        int typeId = (int) integer(d, "UaType", typeNode, 0, 25, "UaType (a built-in type id 0..25)");
        BuiltinType type = BuiltinType.fromTypeId(typeId);
        if (type == BuiltinType.Null) {
            return Variant.NULL;
        }
        JsonNode dimsNode = d.value("Dimensions");
        boolean hasDims = dimsNode != null && !dimsNode.isNull();
        if (valueNode == null || valueNode.kind != JsonNode.Kind.ARRAY) {
            if (hasDims) {
                throw d.malformed("Dimensions", "are present but the Value is not an array");
            }
            if (type == BuiltinType.Variant) {
                throw d.malformed("Value", "a Variant cannot contain a scalar Variant");
            }
            return Variant.ofScalar(type, scalar(d, "Value", type, valueNode));
        }
        Object values = array(d, "Value", type, valueNode);
        if (!hasDims) {
            return Variant.ofArray(type, values);
        }
        int[] dims = (int[]) array(d, "Dimensions", BuiltinType.Int32, dimsNode);
        int length = Array.getLength(values);
        if (dims.length == 0) {
            throw d.malformed("Dimensions", "are empty");
        }
        long product = 1;
        for (int dimension : dims) {
            if (dimension < 0) {
                throw d.malformed("Dimensions", "dimension " + dimension + " is negative");
            }
            product = Math.min(product * dimension, Integer.MAX_VALUE + 1L);
        }
        if (product != length) {
            throw d.malformed("Dimensions", Arrays.toString(dims) + " do not match the array length " + length);
        }
        return dims.length == 1 ? Variant.ofArray(type, values) : Variant.ofMatrix(type, values, dims);
    }

    /** 5.4.2.18: the Variant members plus Status, timestamps and picoseconds (ignored without their timestamp). */
    private static DataValue dataValue(JsonDecoder d, String field, JsonNode n) {
        d.enterNested(field, n);
        try {
            Variant value = variantMembers(d);
            StatusCode status = (StatusCode) scalar(d, "Status", BuiltinType.StatusCode, d.value("Status"));
            DateTime source = timestamp(d, "SourceTimestamp");
            int sourcePico = (Integer) scalar(d, "SourcePicoseconds", BuiltinType.UInt16, d.value("SourcePicoseconds"));
            DateTime server = timestamp(d, "ServerTimestamp");
            int serverPico = (Integer) scalar(d, "ServerPicoseconds", BuiltinType.UInt16, d.value("ServerPicoseconds"));
            return DataValue.of(value, status, source, picoseconds(source, sourcePico), server,
                    picoseconds(server, serverPico));
        } finally {
            d.exitNested();
        }
    }

    private static DateTime timestamp(JsonDecoder d, String field) {
        JsonNode n = d.value(field);
        return n == null || n.isNull() ? null : (DateTime) scalar(d, field, BuiltinType.DateTime, n);
    }

    private static int picoseconds(DateTime timestamp, int picoseconds) {
        return timestamp == null || timestamp.isNull() ? 0 : Math.min(picoseconds, DataValue.MAX_PICOSECONDS);
    }

    /**
     * 5.4.2.16: {@code UaEncoding} 1 or 2 keeps the {@code UaBody} undecoded (binary, or XML as UTF-8 bytes);
     * otherwise the object is the structure of the {@code UaTypeId}'s codec.
     */
    private static ExtensionObject extensionObject(JsonDecoder d, String field, JsonNode n) {
        d.enterNested(field, n);
        try {
            NodeId typeId = (NodeId) scalar(d, "UaTypeId", BuiltinType.NodeId, d.value("UaTypeId"));
            JsonNode encodingNode = d.value("UaEncoding");
            long encoding = encodingNode == null || encodingNode.isNull() ? 0
                    : integer(d, "UaEncoding", encodingNode, 0, 2, "UaEncoding (1 binary, 2 XML)");
            if (encoding != 0) {
                ByteString body = (ByteString) scalar(d, "UaBody", BuiltinType.ByteString, d.value("UaBody"));
                if (encoding == 1) {
                    return ExtensionObject.ofBinary(typeId, body);
                }
                return ExtensionObject.ofXml(typeId, body.isNull() ? XmlElement.NULL
                        : XmlElement.of(new String(body.unsafeBytes(), StandardCharsets.UTF_8)));
            }
            boolean bodyless = n.size() == 0 || (n.size() == 1 && n.member("UaTypeId") != null);
            if (typeId.isNull()) {
                if (bodyless) {
                    return ExtensionObject.NULL;
                }
                throw d.malformed("UaTypeId", "is missing from an ExtensionObject with members");
            }
            UaCodec<?> codec = d.registry().codecForDataTypeId(typeId);
            if (codec == null) {
                codec = d.registry().codecForEncodingId(typeId);
            }
            if (codec == null) {
                if (bodyless) {
                    return ExtensionObject.ofEmpty(typeId);
                }
                throw d.malformed("UaTypeId", "no codec is registered for the DataType " + typeId);
            }
            Object value = d.decodeStruct(null, n, codec);
            if (!(value instanceof UaStructure structure)) {
                throw d.malformed("UaTypeId", "the codec of " + typeId + " does not make a structure");
            }
            return ExtensionObject.of(structure);
        } finally {
            d.exitNested();
        }
    }

    /** 5.4.2.13: missing fields are -1, null or (InnerStatusCode) absent. */
    private static DiagnosticInfo diagnosticInfo(JsonDecoder d, String field, JsonNode n) {
        d.enterNested(field, n);
        try {
            int symbolicId = index(d, "SymbolicId");
            int namespaceUri = index(d, "NamespaceUri");
            int locale = index(d, "Locale");
            int localizedText = index(d, "LocalizedText");
            String additionalInfo = (String) scalar(d, "AdditionalInfo", BuiltinType.String, d.value("AdditionalInfo"));
            JsonNode innerStatusNode = d.value("InnerStatusCode");
            StatusCode innerStatus = innerStatusNode == null || innerStatusNode.isNull() ? null
                    : statusCode(d, "InnerStatusCode", innerStatusNode);
            JsonNode innerNode = d.value("InnerDiagnosticInfo");
            DiagnosticInfo inner = innerNode == null || innerNode.isNull() ? null
                    : diagnosticInfo(d, "InnerDiagnosticInfo", innerNode);
            return DiagnosticInfo.of(symbolicId, namespaceUri, locale, localizedText, additionalInfo, innerStatus, inner);
        } finally {
            d.exitNested();
        }
    }

    private static int index(JsonDecoder d, String field) {
        JsonNode n = d.value(field);
        return n == null || n.isNull() ? -1 : (int) integer(d, field, n, Integer.MIN_VALUE, Integer.MAX_VALUE, "Int32");
    }

    // ---- enumerations (5.4.4) ---------------------------------------------------------------------------------

    static <E extends UaEnumeration> E enumeration(JsonDecoder d, String field, JsonNode n, IntFunction<E> fromValue) {
        int value;
        if (n == null || (n.isNull() && field != null)) {
            value = 0;
        } else if (n.kind == JsonNode.Kind.NUMBER) {
            value = (int) integer(d, field, n, Integer.MIN_VALUE, Integer.MAX_VALUE, "enumeration (Int32)");
        } else if (n.kind == JsonNode.Kind.STRING) {
            String text = n.text;
            String digits = text.substring(text.lastIndexOf('_') + 1);
            value = (int) inRange(d, field, digits.isEmpty() ? "x" : digits, Integer.MIN_VALUE, Integer.MAX_VALUE,
                    "an enumeration \"Name_Value\" string");
        } else {
            throw wrongType(d, field, n, "an enumeration number or \"Name_Value\" string");
        }
        E e = fromValue.apply(value);
        if (e == null) {
            throw d.malformed(field, "unknown enumeration value " + value);
        }
        return e;
    }

    private static RuntimeException wrongType(JsonDecoder d, String field, JsonNode n, String expected) {
        return d.malformed(field, "expected " + expected + " but found " + n.describe());
    }

    private static String shorten(String text) {
        return text.length() > 40 ? text.substring(0, 40) + "..." : text;
    }
}
