package dev.opcua.stack.core.types.builtin;

import dev.opcua.stack.core.types.UaStructure;
import java.lang.reflect.Array;
import java.util.Arrays;
import java.util.Objects;

/**
 * A value of any built-in type: a scalar, a one-dimensional array, or a multi-dimensional array held
 * flat with its ArrayDimensions (Part 6, 5.2.2.16).
 *
 * <p>The built-in type is explicit, so an unsigned value is told from a signed one although both are
 * held in the same Java class (see {@link BuiltinType}). A Variant never holds a scalar Variant.
 */
public final class Variant {

    public static final Variant NULL = new Variant(BuiltinType.Null, null, null);

    private final BuiltinType type;
    private final Object value;
    private final int[] arrayDimensions;

    private Variant(BuiltinType type, Object value, int[] arrayDimensions) {
        this.type = type;
        this.value = value;
        this.arrayDimensions = arrayDimensions;
    }

    /**
     * A scalar of the type the Java class maps to unambiguously (see {@link BuiltinType#forScalarClass});
     * a {@link UaStructure} is wrapped in an ExtensionObject; null gives {@link #NULL}.
     */
    public static Variant of(Object value) {
        if (value == null) {
            return NULL;
        }
        if (value instanceof UaStructure) {
            return new Variant(BuiltinType.ExtensionObject, ExtensionObject.of((UaStructure) value), null);
        }
        BuiltinType type = BuiltinType.forScalarClass(value.getClass());
        if (type == null) {
            throw new IllegalArgumentException("no OPC UA built-in type for Java class " + value.getClass().getName());
        }
        return ofScalar(type, value);
    }

    /** A scalar of an explicit type; the value must be of the type's {@link BuiltinType#scalarClass()}. */
    public static Variant ofScalar(BuiltinType type, Object value) {
        Objects.requireNonNull(type, "type");
        if (type == BuiltinType.Null || value == null) {
            return NULL;
        }
        if (!type.scalarClass().isInstance(value)) {
            throw new IllegalArgumentException("a " + type + " Variant holds " + type.scalarClass().getSimpleName()
                    + ", not " + value.getClass().getSimpleName());
        }
        if (type == BuiltinType.Variant) {
            throw new IllegalArgumentException("a Variant cannot hold a scalar Variant (Part 6, 5.2.2.16)");
        }
        checkRange(type, value);
        return new Variant(type, value, null);
    }

    /**
     * A one-dimensional array; {@code array} is of the type's {@link BuiltinType#arrayClass()} (for
     * example {@code double[]} for Double, {@code long[]} for UInt32, {@code String[]} for String).
     */
    public static Variant ofArray(BuiltinType type, Object array) {
        checkArray(type, array);
        return new Variant(type, array, null);
    }

    /** A multi-dimensional array, flattened with the last index varying fastest, and its dimensions. */
    public static Variant ofMatrix(BuiltinType type, Object flatArray, int[] dimensions) {
        checkArray(type, flatArray);
        Objects.requireNonNull(dimensions, "dimensions");
        if (dimensions.length < 2) {
            throw new IllegalArgumentException("a matrix needs at least 2 dimensions, got " + dimensions.length);
        }
        long product = 1;
        for (int d : dimensions) {
            if (d < 0) {
                throw new IllegalArgumentException("array dimension " + d + " is negative");
            }
            product *= d;
            if (product > Integer.MAX_VALUE) {
                throw new IllegalArgumentException("array dimensions " + Arrays.toString(dimensions) + " are too large");
            }
        }
        int length = Array.getLength(flatArray);
        if (product != length) {
            throw new IllegalArgumentException("array dimensions " + Arrays.toString(dimensions) + " need "
                    + product + " elements, the array has " + length);
        }
        return new Variant(type, flatArray, dimensions.clone());
    }

    private static void checkArray(BuiltinType type, Object array) {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(array, "array");
        if (type == BuiltinType.Null) {
            throw new IllegalArgumentException("an array Variant needs a type other than Null");
        }
        if (type.arrayClass() != array.getClass()) {
            throw new IllegalArgumentException("a " + type + " array Variant holds " + type.arrayClass().getSimpleName()
                    + ", not " + array.getClass().getSimpleName());
        }
        switch (type) {
            case Byte:
                for (short v : (short[]) array) {
                    checkUnsigned(v, 0xFF, type);
                }
                break;
            case UInt16:
                for (int v : (int[]) array) {
                    checkUnsigned(v, 0xFFFF, type);
                }
                break;
            case UInt32:
                for (long v : (long[]) array) {
                    checkUnsigned(v, 0xFFFFFFFFL, type);
                }
                break;
            default:
                break;
        }
    }

    private static void checkRange(BuiltinType type, Object value) {
        long v;
        long max;
        switch (type) {
            case Byte:
                v = (Short) value;
                max = 0xFF;
                break;
            case UInt16:
                v = (Integer) value;
                max = 0xFFFF;
                break;
            case UInt32:
                v = (Long) value;
                max = 0xFFFFFFFFL;
                break;
            default:
                return;
        }
        if (v < 0 || v > max) {
            throw new IllegalArgumentException(type + " value " + v + " is outside 0.." + max);
        }
    }

    public static Variant ofBoolean(boolean value) {
        return new Variant(BuiltinType.Boolean, value, null);
    }

    public static Variant ofSByte(byte value) {
        return new Variant(BuiltinType.SByte, value, null);
    }

    /** @param value 0..255 */
    public static Variant ofByte(int value) {
        return ofScalar(BuiltinType.Byte, (short) checkUnsigned(value, 0xFF, BuiltinType.Byte));
    }

    public static Variant ofInt16(short value) {
        return new Variant(BuiltinType.Int16, value, null);
    }

    /** @param value 0..65535 */
    public static Variant ofUInt16(int value) {
        return ofScalar(BuiltinType.UInt16, (int) checkUnsigned(value, 0xFFFF, BuiltinType.UInt16));
    }

    public static Variant ofInt32(int value) {
        return new Variant(BuiltinType.Int32, value, null);
    }

    /** @param value 0..2^32-1 */
    public static Variant ofUInt32(long value) {
        return ofScalar(BuiltinType.UInt32, checkUnsigned(value, 0xFFFFFFFFL, BuiltinType.UInt32));
    }

    public static Variant ofInt64(long value) {
        return new Variant(BuiltinType.Int64, value, null);
    }

    /** @param bits the unsigned 64-bit value's bits */
    public static Variant ofUInt64(long bits) {
        return new Variant(BuiltinType.UInt64, bits, null);
    }

    public static Variant ofFloat(float value) {
        return new Variant(BuiltinType.Float, value, null);
    }

    public static Variant ofDouble(double value) {
        return new Variant(BuiltinType.Double, value, null);
    }

    public static Variant ofString(String value) {
        return value == null ? NULL : new Variant(BuiltinType.String, value, null);
    }

    private static long checkUnsigned(long value, long max, BuiltinType type) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(type + " value " + value + " is outside 0.." + max);
        }
        return value;
    }

    /** Built-in type of the value; {@link BuiltinType#Null} for the null Variant. */
    public BuiltinType type() {
        return type;
    }

    /** The scalar value, or the (flat) array; null for the null Variant. Arrays are not copied. */
    public Object value() {
        return value;
    }

    public boolean isNull() {
        return type == BuiltinType.Null;
    }

    public boolean isArray() {
        return value != null && value.getClass().isArray();
    }

    public boolean isMatrix() {
        return arrayDimensions != null;
    }

    /**
     * Dimensions of a multi-dimensional array; for a one-dimensional array its length; null for a
     * scalar.
     */
    public int[] arrayDimensions() {
        if (arrayDimensions != null) {
            return arrayDimensions.clone();
        }
        return isArray() ? new int[] {Array.getLength(value)} : null;
    }

    /** The value as a double when the type is numeric; throws otherwise. */
    public double doubleValue() {
        if (value instanceof Number && !isArray()) {
            return ((Number) value).doubleValue();
        }
        throw new IllegalStateException("a " + type + " Variant has no numeric value");
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Variant)) {
            return false;
        }
        Variant other = (Variant) o;
        return type == other.type && Objects.deepEquals(value, other.value)
                && Arrays.equals(arrayDimensions, other.arrayDimensions);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * type.hashCode() + Arrays.deepHashCode(new Object[] {value})) + Arrays.hashCode(arrayDimensions);
    }

    @Override
    public String toString() {
        if (type == BuiltinType.Null) {
            return "Variant[null]";
        }
        String text = isArray() ? Arrays.deepToString(new Object[] {value}) : String.valueOf(value);
        if (isArray()) {
            text = text.substring(1, text.length() - 1);
        }
        return "Variant[" + type + (arrayDimensions != null ? Arrays.toString(arrayDimensions) : "") + " " + text + "]";
    }
}
