package dev.opcua.spring.boot.console;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.Variant;
import java.math.BigInteger;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.EnumSet;
import java.util.Locale;

/**
 * A value typed by a person, as a {@link Variant} of a variable's built-in type (Part 6, 5.1.2): the console
 * writes what the DataType asks for, so that a Write is not refused with BadTypeMismatch for typing "42" into a
 * Double. Scalars of the numeric types, Boolean, String, LocalizedText and DateTime (ISO-8601) are understood;
 * other types cannot be typed in a text field and are refused.
 */
final class ConsoleValueParser {

    private static final EnumSet<BuiltinType> TYPED = EnumSet.of(BuiltinType.Boolean, BuiltinType.SByte,
            BuiltinType.Byte, BuiltinType.Int16, BuiltinType.UInt16, BuiltinType.Int32, BuiltinType.UInt32,
            BuiltinType.Int64, BuiltinType.UInt64, BuiltinType.Float, BuiltinType.Double, BuiltinType.String,
            BuiltinType.LocalizedText, BuiltinType.DateTime);

    private static final BigInteger UINT64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private ConsoleValueParser() {
    }

    /**
     * @throws IllegalArgumentException naming the text and the type when the text is no value of that type, or
     *         the type is not one a person types
     */
    static Variant parse(String text, BuiltinType type) {
        if (!TYPED.contains(type)) {
            throw new IllegalArgumentException("a value of type " + type + " cannot be written from the console: it writes "
                    + "numbers, Boolean, String, LocalizedText and DateTime");
        }
        String trimmed = text == null ? "" : text.strip();
        try {
            return switch (type) {
                case Boolean -> Variant.ofBoolean(bool(trimmed));
                case SByte -> Variant.ofSByte(Byte.parseByte(trimmed));
                case Byte -> Variant.ofByte(Integer.parseInt(trimmed));
                case Int16 -> Variant.ofInt16(Short.parseShort(trimmed));
                case UInt16 -> Variant.ofUInt16(Integer.parseInt(trimmed));
                case Int32 -> Variant.ofInt32(Integer.parseInt(trimmed));
                case UInt32 -> Variant.ofUInt32(Long.parseLong(trimmed));
                case Int64 -> Variant.ofInt64(Long.parseLong(trimmed));
                case UInt64 -> Variant.ofUInt64(uint64(trimmed));
                case Float -> Variant.ofFloat(java.lang.Float.parseFloat(number(trimmed)));
                case Double -> Variant.ofDouble(java.lang.Double.parseDouble(number(trimmed)));
                case String -> Variant.ofString(text == null ? "" : text);
                case LocalizedText -> Variant.ofScalar(BuiltinType.LocalizedText, LocalizedText.of(null, text));
                case DateTime -> Variant.ofScalar(BuiltinType.DateTime,
                        dev.opcua.stack.core.types.builtin.DateTime.ofInstant(Instant.parse(trimmed)));
                default -> throw new IllegalStateException("not in TYPED: " + type);
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            throw new IllegalArgumentException("'" + text + "' is not a " + type + expected(type), e);
        } catch (IllegalArgumentException e) { // a range check of Variant
            throw new IllegalArgumentException("'" + text + "' is not a " + type + expected(type) + ": "
                    + e.getMessage(), e);
        }
    }

    private static boolean bool(String text) {
        return switch (text.toLowerCase(Locale.ROOT)) {
            case "true", "1" -> true;
            case "false", "0" -> false;
            default -> throw new NumberFormatException(text);
        };
    }

    /** Java's parser takes "1d", "0x1p3" and "NaN " forms that nobody types for a measurement: only digits. */
    private static String number(String text) {
        if (!text.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?|NaN|[+-]?Infinity")) {
            throw new NumberFormatException(text);
        }
        return text;
    }

    private static long uint64(String text) {
        BigInteger value = new BigInteger(text);
        if (value.signum() < 0 || value.compareTo(UINT64_MAX) > 0) {
            throw new NumberFormatException(text);
        }
        return value.longValue();
    }

    private static String expected(BuiltinType type) {
        return switch (type) {
            case Boolean -> " (true or false)";
            case SByte -> " (-128 to 127)";
            case Byte -> " (0 to 255)";
            case Int16 -> " (-32768 to 32767)";
            case UInt16 -> " (0 to 65535)";
            case Int32 -> " (-2147483648 to 2147483647)";
            case UInt32 -> " (0 to 4294967295)";
            case Int64 -> " (a 64-bit integer)";
            case UInt64 -> " (0 to 18446744073709551615)";
            case Float, Double -> " (a number such as 12.5 or -3e2)";
            case DateTime -> " (an ISO-8601 instant such as 2026-12-05T10:00:00Z)";
            default -> "";
        };
    }
}
