package dev.opcua.stack.server.history.aggregate;

import dev.opcua.stack.core.types.builtin.StatusCode;

/**
 * The historian info bits of a DataValue's StatusCode (Part 4, 7.39.1; Part 11, 6.3; Part 13, 5.3.3): bits 0..1
 * say whether a value is Raw (0), Calculated or Interpolated, bit 2 marks a Partial interval, bit 4 Multiple
 * values. They are only meaningful with the DataValue info type (bit 10) set, which {@link #with} sets.
 */
public final class HistorianBits {

    /** A raw value as stored: no bits. */
    public static final int RAW = 0x00;
    public static final int CALCULATED = 0x01;
    public static final int INTERPOLATED = 0x02;
    public static final int PARTIAL = 0x04;
    public static final int EXTRA_DATA = 0x08;
    public static final int MULTI_VALUE = 0x10;

    private static final int INFO_TYPE_DATA_VALUE = 0x0400;
    private static final int HISTORIAN_MASK = 0x1F;

    private HistorianBits() {
    }

    /** The code with the given historian bits added; with no bits the code is returned unchanged. */
    public static StatusCode with(int code, int bits) {
        if (bits == 0) {
            return StatusCode.of(code);
        }
        return StatusCode.of(code | INFO_TYPE_DATA_VALUE | (bits & HISTORIAN_MASK));
    }

    /** The status with the given historian bits added to those it has. */
    public static StatusCode with(StatusCode status, int bits) {
        return with(status.value(), bits);
    }

    /** The historian bits of a status; 0 when its info type is not DataValue. */
    public static int of(StatusCode status) {
        return (status.value() & INFO_TYPE_DATA_VALUE) != 0 ? status.value() & HISTORIAN_MASK : 0;
    }
}
