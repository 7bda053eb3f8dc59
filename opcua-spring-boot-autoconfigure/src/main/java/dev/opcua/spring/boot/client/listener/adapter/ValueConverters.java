package dev.opcua.spring.boot.client.listener.adapter;

import dev.opcua.spring.boot.client.listener.OpcUaListenerArgumentException;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import java.lang.reflect.Array;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Map;
import java.util.Set;

/**
 * Converters from Variants (Part 6, 5.1.2 built-in types, as {@link BuiltinType} holds them in Java)
 * to the Java types listener parameters declare, chosen once per parameter at start-up.
 *
 * <ul>
 * <li>{@code byte short int long} and their boxes: any integer type whose value is in range
 * (UInt64 read as unsigned), or a Float or Double without fraction in range;</li>
 * <li>{@code float double} and their boxes: any number (a Double outside Float's range is refused);
 * {@link Number}, {@link BigInteger}, {@link BigDecimal}: any number (BigInteger without fraction);</li>
 * <li>{@code boolean}: Boolean; {@link String}: String, LocalizedText (its text), QualifiedName (its
 * name); {@link LocalizedText}: LocalizedText, String; {@link Instant}: DateTime; {@code byte[]}:
 * ByteString;</li>
 * <li>a built-in type's own class (DateTime, NodeId, ExpandedNodeId, QualifiedName, StatusCode,
 * UUID, ByteString, XmlElement, ExtensionObject, DiagnosticInfo): that type; a {@link UaStructure}
 * class: an ExtensionObject that decodes to it; {@link Object}: the value as the stack holds it;</li>
 * <li>arrays of any of these: an array Variant, element by element (a matrix flattened).</li>
 * </ul>
 *
 * A null Variant gives null, or fails for a primitive. Conversions never guess: a String is not
 * parsed into a number, a fraction is not rounded away.
 */
public final class ValueConverters {

    private static final Map<Class<?>, Class<?>> BOXES = Map.of(boolean.class, Boolean.class, byte.class, Byte.class,
            short.class, Short.class, int.class, Integer.class, long.class, Long.class, float.class, Float.class,
            double.class, Double.class);

    private static final Set<Class<?>> BUILTIN_CLASSES = Set.of(DateTime.class,
            dev.opcua.stack.core.types.builtin.NodeId.class, dev.opcua.stack.core.types.builtin.ExpandedNodeId.class,
            QualifiedName.class, dev.opcua.stack.core.types.builtin.StatusCode.class, java.util.UUID.class,
            ByteString.class, dev.opcua.stack.core.types.builtin.XmlElement.class, ExtensionObject.class,
            dev.opcua.stack.core.types.builtin.DiagnosticInfo.class);

    private ValueConverters() {
    }

    /** The converter to {@code type}, or null when no Variant converts to it. */
    public static ValueConverter forType(Class<?> type) {
        if (type == Variant.class) {
            return value -> value;
        }
        if (type.isArray() && type != byte[].class) {
            Scalar element = scalar(type.getComponentType());
            return element == null ? null : value -> array(value, type, element);
        }
        Scalar scalar = scalar(type);
        if (scalar == null) {
            return null;
        }
        boolean primitive = type.isPrimitive();
        return value -> {
            if (value == null || value.isNull()) {
                if (primitive) {
                    throw new OpcUaListenerArgumentException("the value is null, which a " + type.getName()
                            + " cannot hold");
                }
                return null;
            }
            if (value.isArray()) {
                throw new OpcUaListenerArgumentException("the value is an array (" + describe(value)
                        + "), the parameter a " + type.getName());
            }
            return scalar.convert(value.type(), value.value(), type);
        };
    }

    /** What the parameters of listeners may be, for messages. */
    public static String supportedTypes() {
        return "a primitive or boxed number, boolean, String, Instant, LocalizedText, NodeId, DateTime, StatusCode, "
                + "QualifiedName, ExpandedNodeId, UUID, ByteString, byte[], ExtensionObject, a UaStructure, Number, "
                + "BigInteger, BigDecimal, Object, Variant, or an array of these";
    }

    // ---- scalars ----------------------------------------------------------------------------------

    /** Converts a non-null scalar value of a built-in type. */
    @FunctionalInterface
    private interface Scalar {
        Object convert(BuiltinType type, Object value, Class<?> target);
    }

    private static Scalar scalar(Class<?> type) {
        Class<?> boxed = type.isPrimitive() ? BOXES.get(type) : type;
        if (boxed == Byte.class || boxed == Short.class || boxed == Integer.class || boxed == Long.class) {
            long min = boxed == Byte.class ? Byte.MIN_VALUE : boxed == Short.class ? Short.MIN_VALUE
                    : boxed == Integer.class ? Integer.MIN_VALUE : Long.MIN_VALUE;
            long max = boxed == Byte.class ? Byte.MAX_VALUE : boxed == Short.class ? Short.MAX_VALUE
                    : boxed == Integer.class ? Integer.MAX_VALUE : Long.MAX_VALUE;
            return (t, v, target) -> box(boxed, integral(t, v, min, max, target));
        }
        if (boxed == Double.class) {
            return (t, v, target) -> floating(t, v, target);
        }
        if (boxed == Float.class) {
            return (t, v, target) -> {
                double d = floating(t, v, target);
                if (Double.isFinite(d) && Math.abs(d) > Float.MAX_VALUE) {
                    throw mismatch(t, v, target, "out of its range");
                }
                return (float) d;
            };
        }
        if (boxed == Boolean.class) {
            return (t, v, target) -> expect(t, v, target, v instanceof Boolean);
        }
        if (type == String.class) {
            return (t, v, target) -> v instanceof String ? v : v instanceof LocalizedText l ? l.text()
                    : v instanceof QualifiedName q ? q.name() : expect(t, v, target, false);
        }
        if (type == LocalizedText.class) {
            return (t, v, target) -> v instanceof String s ? LocalizedText.of(s) : expect(t, v, target,
                    v instanceof LocalizedText);
        }
        if (type == Instant.class) {
            return (t, v, target) -> v instanceof DateTime d ? d.toInstant() : expect(t, v, target, false);
        }
        if (type == byte[].class) {
            return (t, v, target) -> v instanceof ByteString b ? b.bytes() : expect(t, v, target, false);
        }
        if (type == Number.class) {
            return (t, v, target) -> t == BuiltinType.UInt64 ? unsigned((Long) v) : expect(t, v, target,
                    v instanceof Number && isNumeric(t));
        }
        if (type == BigInteger.class) {
            return (t, v, target) -> bigInteger(t, v, target);
        }
        if (type == BigDecimal.class) {
            return (t, v, target) -> isFloating(t) ? new BigDecimal(((Number) v).toString())
                    : new BigDecimal(bigInteger(t, v, target));
        }
        if (BUILTIN_CLASSES.contains(type)) {
            return (t, v, target) -> expect(t, v, target, type.isInstance(v));
        }
        if (UaStructure.class.isAssignableFrom(type)) {
            return (t, v, target) -> {
                Object decoded = v instanceof ExtensionObject e ? e.decoded() : v;
                return expect(t, decoded, target, type.isInstance(decoded));
            };
        }
        if (type == Object.class) {
            return (t, v, target) -> v;
        }
        return null;
    }

    private static long integral(BuiltinType t, Object v, long min, long max, Class<?> target) {
        if (isIntegral(t)) {
            long value = ((Number) v).longValue();
            if (t == BuiltinType.UInt64 && value < 0 || value < min || value > max) {
                throw mismatch(t, v, target, "out of its range");
            }
            return value;
        }
        if (isFloating(t)) {
            double d = ((Number) v).doubleValue();
            if (d != Math.rint(d) || Double.isInfinite(d)) {
                throw mismatch(t, v, target, "it has a fraction");
            }
            // max + 1 as a double is exact (2^7, 2^15, 2^31, 2^63): anything from there on is too large
            if (d < min || d >= (double) max + 1.0) {
                throw mismatch(t, v, target, "out of its range");
            }
            return (long) d;
        }
        throw mismatch(t, v, target, null);
    }

    private static double floating(BuiltinType t, Object v, Class<?> target) {
        if (t == BuiltinType.UInt64) {
            long bits = (Long) v;
            return bits >= 0 ? bits : unsigned(bits).doubleValue();
        }
        if (isNumeric(t)) {
            return ((Number) v).doubleValue();
        }
        throw mismatch(t, v, target, null);
    }

    private static BigInteger bigInteger(BuiltinType t, Object v, Class<?> target) {
        if (t == BuiltinType.UInt64) {
            return unsigned((Long) v);
        }
        if (isIntegral(t)) {
            return BigInteger.valueOf(((Number) v).longValue());
        }
        if (isFloating(t)) {
            double d = ((Number) v).doubleValue();
            if (!Double.isFinite(d) || d != Math.rint(d)) {
                throw mismatch(t, v, target, "it has a fraction");
            }
            return new BigDecimal(d).toBigIntegerExact();
        }
        throw mismatch(t, v, target, null);
    }

    private static BigInteger unsigned(long bits) {
        BigInteger value = BigInteger.valueOf(bits & Long.MAX_VALUE);
        return bits < 0 ? value.setBit(63) : value;
    }

    private static boolean isIntegral(BuiltinType t) {
        return switch (t) {
            case SByte, Byte, Int16, UInt16, Int32, UInt32, Int64, UInt64 -> true;
            default -> false;
        };
    }

    private static boolean isFloating(BuiltinType t) {
        return t == BuiltinType.Float || t == BuiltinType.Double;
    }

    private static boolean isNumeric(BuiltinType t) {
        return isIntegral(t) || isFloating(t);
    }

    private static Object box(Class<?> boxed, long value) {
        if (boxed == Byte.class) {
            return (byte) value;
        }
        if (boxed == Short.class) {
            return (short) value;
        }
        if (boxed == Integer.class) {
            return (int) value;
        }
        return value;
    }

    private static Object expect(BuiltinType t, Object v, Class<?> target, boolean fits) {
        if (!fits) {
            throw mismatch(t, v, target, null);
        }
        return v;
    }

    // ---- arrays -----------------------------------------------------------------------------------

    private static Object array(Variant value, Class<?> arrayType, Scalar element) {
        if (value == null || value.isNull()) {
            return null;
        }
        if (!value.isArray()) {
            throw new OpcUaListenerArgumentException("the value is a scalar (" + describe(value)
                    + "), the parameter an array " + arrayType.getComponentType().getName() + "[]");
        }
        Object source = value.value();
        Class<?> componentType = arrayType.getComponentType();
        int length = Array.getLength(source);
        if (source.getClass() == arrayType) { // double[] from Double, String[] from String ...
            Object copy = Array.newInstance(componentType, length);
            System.arraycopy(source, 0, copy, 0, length);
            return copy;
        }
        Object result = Array.newInstance(componentType, length);
        for (int i = 0; i < length; i++) {
            Object e = Array.get(source, i);
            BuiltinType type = value.type();
            if (e instanceof Variant v) { // an array of Variants: each element of its own type
                type = v.type();
                e = v.isNull() || v.isArray() ? null : v.value();
            }
            if (e == null) {
                if (componentType.isPrimitive()) {
                    throw new OpcUaListenerArgumentException("element " + i + " is null, which a "
                            + componentType.getName() + " cannot hold");
                }
                continue;
            }
            try {
                Array.set(result, i, element.convert(type, e, componentType));
            } catch (OpcUaListenerArgumentException ex) {
                throw new OpcUaListenerArgumentException("element " + i + ": " + ex.getMessage());
            }
        }
        return result;
    }

    // ---- messages ---------------------------------------------------------------------------------

    private static OpcUaListenerArgumentException mismatch(BuiltinType t, Object v, Class<?> target, String why) {
        return new OpcUaListenerArgumentException("the value " + abbreviate(String.valueOf(v)) + " (" + t
                + ") does not convert to " + target.getName() + (why == null ? "" : ": " + why));
    }

    private static String describe(Variant value) {
        return value.type() + (value.isArray() ? " array" : "");
    }

    private static String abbreviate(String s) {
        return s.length() <= 60 ? s : s.substring(0, 57) + "...";
    }
}
