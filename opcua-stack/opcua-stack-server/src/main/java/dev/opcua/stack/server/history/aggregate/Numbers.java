package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;

/** Numeric views of scalar Variants and results put back into the source's type ("Same as Source", Part 13, 5.4.3). */
final class Numbers {

    private Numbers() {
    }

    static boolean isNumeric(Variant value) {
        switch (value.type()) {
            case SByte, Byte, Int16, UInt16, Int32, UInt32, Int64, Float, Double:
                return !value.isArray();
            default:
                return false;
        }
    }

    static double toDouble(Variant value) {
        return value.doubleValue();
    }

    /** The number as a value of the given numeric type, rounded to the nearest integer and clamped for integer types. */
    static Variant ofType(BuiltinType type, double value) {
        switch (type) {
            case Float:
                return Variant.ofFloat((float) value);
            case SByte:
                return Variant.ofSByte((byte) clamp(value, Byte.MIN_VALUE, Byte.MAX_VALUE));
            case Byte:
                return Variant.ofByte((int) clamp(value, 0, 0xFF));
            case Int16:
                return Variant.ofInt16((short) clamp(value, Short.MIN_VALUE, Short.MAX_VALUE));
            case UInt16:
                return Variant.ofUInt16((int) clamp(value, 0, 0xFFFF));
            case Int32:
                return Variant.ofInt32((int) clamp(value, Integer.MIN_VALUE, Integer.MAX_VALUE));
            case UInt32:
                return Variant.ofUInt32(clamp(value, 0, 0xFFFFFFFFL));
            case Int64:
                return Variant.ofInt64(clamp(value, Long.MIN_VALUE, Long.MAX_VALUE));
            default:
                return Variant.ofDouble(value);
        }
    }

    private static long clamp(double value, long min, long max) {
        double rounded = Math.rint(value);
        if (rounded <= min) {
            return min;
        }
        return rounded >= max ? max : (long) rounded;
    }
}
