package dev.opcua.stack.client.services;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.Variant;
import java.lang.reflect.Array;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Collection;

/**
 * Java values to Variants of a variable's DataType (Part 6, 5.1.2 built-in types): a value is taken
 * only when it converts without loss, so that a wrong type is refused before anything is sent
 * (BadTypeMismatch naming the Java type and the DataType), not by the server after a round trip.
 *
 * <p>Integers fit any integer type whose range holds them and any floating type that represents
 * them exactly; a Float widens to Double; floating values never become integers; a String becomes a
 * LocalizedText; an Instant a DateTime; a byte[] a ByteString; a UaStructure an ExtensionObject.
 * Arrays and Collections become arrays of the type when the variable's ValueRank allows (Part 3, 5.6.2).
 */
public final class VariantConversion {

    /** ValueRank Scalar (Part 3, 5.6.2). */
    static final int SCALAR = -1;
    static final int ANY = -2;
    static final int SCALAR_OR_ONE_DIMENSION = -3;

    private VariantConversion() {
    }

    /**
     * @param value the Java value (a {@link Variant} is taken as it is)
     * @param type the built-in type of the variable's DataType; {@link BuiltinType#Variant} for BaseDataType
     * @param valueRank the variable's ValueRank
     * @param target what the value is for, in messages
     * @throws UaException BadTypeMismatch when the value does not fit
     */
    public static Variant convert(Object value, BuiltinType type, int valueRank, String target) {
        if (value instanceof Variant v) {
            return v;
        }
        if (value == null) {
            throw mismatch(target, "null", type, valueRank, "a null value cannot be written this way; pass Variant.NULL");
        }
        boolean array = value.getClass().isArray() && !(value instanceof byte[] && type == BuiltinType.ByteString)
                || value instanceof Collection;
        if (array) {
            if (valueRank == SCALAR) {
                throw mismatch(target, describe(value), type, valueRank, "the variable holds a scalar");
            }
            return convertArray(value, type, valueRank, target);
        }
        if (valueRank >= 1) {
            throw mismatch(target, describe(value), type, valueRank, "the variable holds an array");
        }
        if (type == BuiltinType.Variant || type == BuiltinType.Null) {
            try {
                return Variant.of(value);
            } catch (IllegalArgumentException e) {
                throw mismatch(target, describe(value), type, valueRank, e.getMessage());
            }
        }
        Object scalar = scalar(value, type);
        if (scalar == null) {
            throw mismatch(target, describe(value), type, valueRank, null);
        }
        return Variant.ofScalar(type, scalar);
    }

    private static Variant convertArray(Object value, BuiltinType type, int valueRank, String target) {
        Object[] elements = value instanceof Collection<?> c ? c.toArray() : boxed(value);
        if (type == BuiltinType.Variant || type == BuiltinType.Null) {
            Variant[] variants = new Variant[elements.length];
            for (int i = 0; i < elements.length; i++) {
                variants[i] = elements[i] instanceof Variant v ? v : convert(elements[i], BuiltinType.Variant, SCALAR,
                        target + "[" + i + "]");
            }
            return Variant.ofArray(BuiltinType.Variant, variants);
        }
        Object typed = Array.newInstance(type.arrayClass().getComponentType(), elements.length);
        for (int i = 0; i < elements.length; i++) {
            Object e = elements[i] == null ? null : scalar(elements[i], type);
            if (e == null) {
                throw mismatch(target, describe(value) + " (element " + i + ": " + describe(elements[i]) + ")", type,
                        valueRank, null);
            }
            Array.set(typed, i, e);
        }
        return Variant.ofArray(type, typed);
    }

    /** The value as the type's scalar class, or null when it does not convert without loss. */
    static Object scalar(Object v, BuiltinType type) {
        switch (type) {
            case Boolean:
                return v instanceof Boolean ? v : null;
            case SByte:
                return integral(v, Byte.MIN_VALUE, Byte.MAX_VALUE) ? Byte.valueOf(((Number) v).byteValue()) : null;
            case Byte:
                return integral(v, 0, 0xFF) ? Short.valueOf(((Number) v).shortValue()) : null;
            case Int16:
                return integral(v, Short.MIN_VALUE, Short.MAX_VALUE) ? Short.valueOf(((Number) v).shortValue()) : null;
            case UInt16:
                return integral(v, 0, 0xFFFF) ? Integer.valueOf(((Number) v).intValue()) : null;
            case Int32:
                return integral(v, Integer.MIN_VALUE, Integer.MAX_VALUE) ? Integer.valueOf(((Number) v).intValue()) : null;
            case UInt32:
                return integral(v, 0, 0xFFFFFFFFL) ? Long.valueOf(((Number) v).longValue()) : null;
            case Int64:
                return integral(v, Long.MIN_VALUE, Long.MAX_VALUE) ? Long.valueOf(((Number) v).longValue()) : null;
            case UInt64:
                if (v instanceof BigInteger b) {
                    return b.signum() >= 0 && b.bitLength() <= 64 ? Long.valueOf(b.longValue()) : null;
                }
                return integral(v, 0, Long.MAX_VALUE) ? Long.valueOf(((Number) v).longValue()) : null;
            case Float:
                if (v instanceof Float) {
                    return v;
                }
                if (v instanceof Double d) {
                    return (double) (float) d.doubleValue() == d || d.isNaN() ? Float.valueOf(d.floatValue()) : null;
                }
                return integral(v, -(1L << 24), 1L << 24) ? Float.valueOf(((Number) v).floatValue()) : null;
            case Double:
                if (v instanceof Double) {
                    return v;
                }
                if (v instanceof Float f) {
                    return Double.valueOf(f.doubleValue());
                }
                return integral(v, -(1L << 53), 1L << 53) ? Double.valueOf(((Number) v).doubleValue()) : null;
            case String:
                return v instanceof String ? v : null;
            case LocalizedText:
                return v instanceof LocalizedText ? v : v instanceof String s ? LocalizedText.of(s) : null;
            case DateTime:
                return v instanceof DateTime ? v : v instanceof Instant i ? DateTime.ofInstant(i) : null;
            case ByteString:
                return v instanceof ByteString ? v : v instanceof byte[] b ? ByteString.of(b) : null;
            case ExtensionObject:
                return v instanceof ExtensionObject ? v : v instanceof UaStructure s ? ExtensionObject.of(s) : null;
            default:
                return type.scalarClass().isInstance(v) ? v : null;
        }
    }

    /** Whether {@code v} is a Java integer (Byte, Short, Integer, Long, BigInteger) within min..max. */
    private static boolean integral(Object v, long min, long max) {
        long value;
        if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long) {
            value = ((Number) v).longValue();
        } else if (v instanceof BigInteger b && b.bitLength() < 64) {
            value = b.longValue();
        } else {
            return false;
        }
        return value >= min && value <= max;
    }

    private static Object[] boxed(Object array) {
        int n = Array.getLength(array);
        Object[] out = new Object[n];
        for (int i = 0; i < n; i++) {
            out[i] = Array.get(array, i);
        }
        return out;
    }

    private static String describe(Object value) {
        if (value == null) {
            return "null";
        }
        return value.getClass().isArray() ? value.getClass().getComponentType().getName() + "[]"
                : value.getClass().getName() + " " + abbreviate(String.valueOf(value));
    }

    private static String abbreviate(String s) {
        return s.length() <= 40 ? s : s.substring(0, 37) + "...";
    }

    private static UaException mismatch(String target, String value, BuiltinType type, int valueRank, String why) {
        String shape = valueRank == SCALAR ? "" : valueRank >= 1 ? " array" : "";
        return new UaException(StatusCodes.BadTypeMismatch, "cannot write " + value + " to " + target + ": its DataType is "
                + type + shape + (why == null ? "" : " (" + why + ")"));
    }
}
