package dev.opcua.cli.values;

import dev.opcua.cli.CliException;
import dev.opcua.stack.client.services.VariantConversion;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import java.lang.reflect.Array;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.UUID;

/**
 * Values as typed at a shell, converted to the Variant of a built-in type and ValueRank (Part 3, 5.6.2; Part 6,
 * 5.1.2), and Variants back to text. Numbers ({@code 42}, {@code -1.5}, {@code 0x1F}), booleans ({@code true},
 * {@code false}, {@code 1}, {@code 0}), strings as they are or in double quotes, LocalizedText as {@code text} or
 * {@code [locale] text}, DateTime as an ISO-8601 instant or {@code now}, Guids, ByteStrings in base64 or {@code 0x}
 * hex, NodeIds, QualifiedNames as {@code ns:Name}; arrays as {@code [1, 2, 3]} (elements with commas quoted).
 * A value that does not fit is refused naming the value, the type and what is expected.
 */
public final class ValueText {

    private ValueText() {
    }

    /**
     * @param type the built-in type of the DataType ({@link BuiltinType#Variant} for BaseDataType: the type is
     *        inferred from the text)
     * @param valueRank the ValueRank (-1 scalar, 1 or more arrays, -2/-3/0 either)
     * @param target what the value is for, in messages
     * @throws CliException exit code 1 when the text does not convert
     */
    public static Variant parse(String text, BuiltinType type, int valueRank, String target) {
        String t = text.strip();
        boolean array = valueRank >= 1 || valueRank != -1 && t.startsWith("[") && t.endsWith("]");
        try {
            if (array) {
                if (!(t.startsWith("[") && t.endsWith("]"))) {
                    throw new IllegalArgumentException("the value is an array: expected [a, b, ...]");
                }
                List<Object> elements = new ArrayList<>();
                for (String element : splitArray(t.substring(1, t.length() - 1))) {
                    elements.add(scalar(element, type));
                }
                return VariantConversion.convert(elements, type, valueRank < -1 || valueRank == 0 ? 1 : valueRank,
                        target);
            }
            return VariantConversion.convert(scalar(t, type), type, -1, target);
        } catch (IllegalArgumentException | UaException e) {
            throw CliException.usage("cannot use '" + text + "' for " + target + " (DataType " + type
                    + (array ? " array" : "") + "): " + e.getMessage() + "; expected " + expected(type, array));
        }
    }

    private static String expected(BuiltinType type, boolean array) {
        String one = switch (type) {
            case Boolean -> "true or false";
            case SByte, Byte, Int16, UInt16, Int32, UInt32, Int64, UInt64 -> "an integer in the range of " + type;
            case Float, Double -> "a number, e.g. 1.5";
            case String -> "text";
            case LocalizedText -> "text or [locale] text";
            case DateTime -> "an ISO-8601 instant (2026-12-05T10:15:30Z) or now";
            case Guid -> "a GUID (09087e75-8e5e-499b-954f-f2a9603db28a)";
            case ByteString -> "base64 or 0x followed by hex digits";
            case NodeId, ExpandedNodeId -> "a node id (ns=2;s=Name)";
            case QualifiedName -> "a qualified name (2:Name)";
            case Variant, Null -> "a number, true/false or text";
            default -> "a type the command line cannot type (" + type + ")";
        };
        return array ? "[" + one + ", ...]" : one;
    }

    private static Object scalar(String raw, BuiltinType type) {
        String text = raw.strip();
        switch (type) {
            case Boolean:
                return switch (text.toLowerCase(Locale.ROOT)) {
                    case "true", "1" -> Boolean.TRUE;
                    case "false", "0" -> Boolean.FALSE;
                    default -> throw new IllegalArgumentException("'" + text + "' is not a boolean");
                };
            case SByte: case Byte: case Int16: case UInt16: case Int32: case UInt32: case Int64: case UInt64:
                return integer(text);
            case Float:
                return Float.valueOf(number(text).floatValue());
            case Double:
                return number(text);
            case String:
                return unquote(raw);
            case LocalizedText:
                String s = unquote(raw);
                if (s.startsWith("[") && s.indexOf(']') > 0) {
                    return LocalizedText.of(s.substring(1, s.indexOf(']')), s.substring(s.indexOf(']') + 1).strip());
                }
                return LocalizedText.of(s);
            case DateTime:
                try {
                    return DateTime.ofInstant(text.equalsIgnoreCase("now") ? Instant.now() : Instant.parse(text));
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("'" + text + "' is not an ISO-8601 instant");
                }
            case Guid:
                return UUID.fromString(text);
            case ByteString:
                return ByteString.of(text.startsWith("0x") ? HexFormat.of().parseHex(text.substring(2))
                        : Base64.getDecoder().decode(text));
            case NodeId:
                return NodeId.parse(text);
            case ExpandedNodeId:
                return ExpandedNodeId.parse(text);
            case QualifiedName:
                int colon = text.indexOf(':');
                if (colon > 0 && text.substring(0, colon).chars().allMatch(Character::isDigit)) {
                    return QualifiedName.of(Integer.parseInt(text.substring(0, colon)), text.substring(colon + 1));
                }
                return QualifiedName.of(0, text);
            case Variant: case Null:
                return inferred(raw);
            default:
                throw new IllegalArgumentException("values of type " + type + " cannot be typed at the command line");
        }
    }

    /** BaseDataType: true/false, an integer (Int32 when it fits, else Int64), a decimal number (Double), else text. */
    private static Object inferred(String raw) {
        String text = raw.strip();
        if (text.startsWith("\"")) {
            return unquote(raw);
        }
        if (text.equalsIgnoreCase("true") || text.equalsIgnoreCase("false")) {
            return Boolean.valueOf(text);
        }
        try {
            long value = Long.parseLong(text);
            // (Object) keeps the ternary from promoting the Integer to a Long
            return value == (int) value ? (Object) Integer.valueOf((int) value) : (Object) Long.valueOf(value);
        } catch (NumberFormatException notInteger) {
            try {
                return Double.valueOf(text);
            } catch (NumberFormatException notNumber) {
                return text;
            }
        }
    }

    private static Object integer(String text) {
        try {
            BigInteger value = text.startsWith("0x") || text.startsWith("0X") ? new BigInteger(text.substring(2), 16)
                    : text.startsWith("-0x") ? new BigInteger(text.substring(3), 16).negate() : new BigInteger(text);
            return value.bitLength() < 64 ? (Object) Long.valueOf(value.longValue()) : value;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not an integer");
        }
    }

    private static Double number(String text) {
        try {
            return Double.valueOf(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' is not a number");
        }
    }

    private static String unquote(String raw) {
        String text = raw.strip();
        if (text.length() >= 2 && text.startsWith("\"") && text.endsWith("\"")) {
            return text.substring(1, text.length() - 1).replace("\\\"", "\"").replace("\\\\", "\\");
        }
        return raw;
    }

    /** The elements of {@code a, "b, c", d}: commas inside double quotes belong to the element. */
    static List<String> splitArray(String body) {
        List<String> elements = new ArrayList<>();
        if (body.isBlank()) {
            return elements;
        }
        StringBuilder current = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < body.length(); i++) {
            char c = body.charAt(i);
            if (c == '\\' && quoted && i + 1 < body.length()) {
                current.append(c).append(body.charAt(++i));
            } else if (c == '"') {
                quoted = !quoted;
                current.append(c);
            } else if (c == ',' && !quoted) {
                elements.add(current.toString().strip());
                current.setLength(0);
            } else {
                current.append(c);
            }
        }
        if (quoted) {
            throw new IllegalArgumentException("a double quote is not closed");
        }
        elements.add(current.toString().strip());
        return elements;
    }

    /** A value as text: arrays as {@code [a, b]}, structures by their fields, ByteStrings in hex. */
    public static String format(Variant value) {
        if (value == null || value.isNull() || value.value() == null) {
            return "null";
        }
        Object v = value.value();
        if (v.getClass().isArray()) {
            StringBuilder sb = new StringBuilder("[");
            int n = Array.getLength(v);
            for (int i = 0; i < n; i++) {
                sb.append(i == 0 ? "" : ", ").append(formatScalar(Array.get(v, i)));
            }
            return sb.append(']').toString();
        }
        return formatScalar(v);
    }

    private static String formatScalar(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Variant nested) {
            return format(nested);
        }
        if (v instanceof ByteString b) {
            return b.isNull() ? "null" : "0x" + HexFormat.of().formatHex(b.bytes());
        }
        if (v instanceof ExtensionObject e) {
            return e.isDecoded() ? String.valueOf(e.decoded()) : "ExtensionObject[" + e.encodingId() + "]";
        }
        if (v instanceof DateTime d) {
            return d.isNull() ? "null" : d.toInstant().toString();
        }
        return String.valueOf(v);
    }
}
