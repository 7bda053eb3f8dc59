package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataChangeTrigger;
import dev.opcua.stack.core.types.enumerated.DeadbandType;
import java.util.Arrays;
import java.util.Objects;

/**
 * A DataChangeFilter ready to apply (Part 4, 7.22.2; Part 8, 6.2): the trigger and the deadband as
 * an absolute amount (a percent deadband is resolved against the EURange when the item is created
 * or modified). Immutable; compares a sample with the last value queued for the item.
 */
final class ChangeFilter {

    /** No filter: StatusValue without deadband (Part 4, 7.22.2: the default). */
    static final ChangeFilter DEFAULT = new ChangeFilter(DataChangeTrigger.StatusValue, DeadbandType.None, 0);

    private final DataChangeTrigger trigger;
    private final DeadbandType deadbandType;
    private final double deadband;

    /**
     * @param deadband the absolute deadband, for {@link DeadbandType#Percent} already multiplied with
     *        the EURange's width
     */
    ChangeFilter(DataChangeTrigger trigger, DeadbandType deadbandType, double deadband) {
        this.trigger = Objects.requireNonNull(trigger, "trigger");
        this.deadbandType = Objects.requireNonNull(deadbandType, "deadbandType");
        this.deadband = deadband;
    }

    DataChangeTrigger trigger() {
        return trigger;
    }

    DeadbandType deadbandType() {
        return deadbandType;
    }

    /** The deadband as an absolute amount (0 without one). */
    double deadband() {
        return deadband;
    }

    /**
     * Whether {@code sample} is a change against {@code last}, the value queued last. A status
     * change always is (deadbands are ignored then); the value and, for StatusValueTimestamp
     * without deadband, the source timestamp count as the trigger says.
     */
    boolean isChange(DataValue last, DataValue sample) {
        if (last.statusCode().value() != sample.statusCode().value()) {
            return true;
        }
        if (trigger == DataChangeTrigger.Status) {
            return false;
        }
        boolean valueChanged = deadbandType == DeadbandType.None
                ? !last.value().equals(sample.value())
                : exceedsDeadband(last.value(), sample.value(), deadband);
        if (valueChanged) {
            return true;
        }
        // with a deadband StatusValueTimestamp behaves as StatusValue (Part 4, 7.22.2)
        return trigger == DataChangeTrigger.StatusValueTimestamp && deadbandType == DeadbandType.None
                && !sameTime(last.sourceTimestamp(), sample.sourceTimestamp(), last.sourcePicoseconds(),
                        sample.sourcePicoseconds());
    }

    private static boolean sameTime(DateTime a, DateTime b, int picosA, int picosB) {
        return Objects.equals(a, b) && picosA == picosB;
    }

    /**
     * Part 4, 7.22.2 AbsoluteDeadband: a change when |last - current| > deadband; for arrays when the
     * length or dimensions changed or any element exceeds it. NaN counts once, when the value enters
     * or leaves NaN. Values that are not numbers change when they are not equal.
     */
    static boolean exceedsDeadband(Variant last, Variant current, double deadband) {
        if (!isNumeric(last.type()) || last.type() != current.type() || last.isArray() != current.isArray()) {
            return !last.equals(current);
        }
        if (!current.isArray()) {
            return exceeds(toDouble(last.type(), last.value()), toDouble(current.type(), current.value()), deadband);
        }
        if (last.isMatrix() != current.isMatrix()
                || !Arrays.equals(last.arrayDimensions(), current.arrayDimensions())) {
            return true;
        }
        int length = java.lang.reflect.Array.getLength(current.value());
        for (int i = 0; i < length; i++) {
            if (exceeds(element(last.type(), last.value(), i), element(current.type(), current.value(), i), deadband)) {
                return true;
            }
        }
        return false;
    }

    private static boolean exceeds(double last, double current, double deadband) {
        boolean lastNaN = Double.isNaN(last);
        if (lastNaN || Double.isNaN(current)) {
            return lastNaN != Double.isNaN(current);
        }
        return Math.abs(last - current) > deadband;
    }

    /** Whether values of the built-in type are numbers a deadband applies to. */
    static boolean isNumeric(BuiltinType type) {
        return switch (type) {
            case SByte, Byte, Int16, UInt16, Int32, UInt32, Int64, UInt64, Float, Double -> true;
            default -> false;
        };
    }

    /** Whether a deadband can apply to the value: a number or an array of numbers. */
    static boolean isNumeric(Variant value) {
        return isNumeric(value.type());
    }

    private static double toDouble(BuiltinType type, Object scalar) {
        if (type == BuiltinType.UInt64) {
            return unsigned((Long) scalar);
        }
        return ((Number) scalar).doubleValue();
    }

    private static double element(BuiltinType type, Object array, int i) {
        return switch (type) {
            case SByte -> ((byte[]) array)[i];
            case Byte, Int16 -> ((short[]) array)[i];
            case UInt16, Int32 -> ((int[]) array)[i];
            case UInt32, Int64 -> ((long[]) array)[i];
            case UInt64 -> unsigned(((long[]) array)[i]);
            case Float -> ((float[]) array)[i];
            case Double -> ((double[]) array)[i];
            default -> throw new IllegalArgumentException(type + " is not numeric");
        };
    }

    private static double unsigned(long bits) {
        double value = (double) (bits >>> 1) * 2.0;
        return value + (bits & 1);
    }
}
