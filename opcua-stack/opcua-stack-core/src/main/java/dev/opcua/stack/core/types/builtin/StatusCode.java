package dev.opcua.stack.core.types.builtin;

import dev.opcua.stack.core.ids.StatusCodes;

/**
 * Result of an operation: a 32-bit code whose top two bits give the severity (Part 4, 7.39;
 * encoded as UInt32, Part 6, 5.2.2.16).
 *
 * <p>The low 16 bits are info bits (limit, overflow, data-value info type). Equality compares all
 * 32 bits; {@link #isSameCode} compares only the code part.
 */
public final class StatusCode {

    private static final int SEVERITY_MASK = 0xC0000000;
    private static final int SEVERITY_GOOD = 0x00000000;
    private static final int SEVERITY_UNCERTAIN = 0x40000000;
    private static final int SEVERITY_BAD = 0x80000000;
    private static final int CODE_MASK = 0xFFFF0000;
    /** Overflow info bit of a data-value status (Part 4, 7.39.1): the queue of a monitored item lost values. */
    public static final int OVERFLOW_BIT = 0x0080;
    private static final int INFO_TYPE_DATA_VALUE = 0x0400;

    public static final StatusCode GOOD = new StatusCode(StatusCodes.Good);
    public static final StatusCode UNCERTAIN = new StatusCode(StatusCodes.Uncertain);
    public static final StatusCode BAD = new StatusCode(StatusCodes.Bad);

    private final int value;

    private StatusCode(int value) {
        this.value = value;
    }

    /** Status code with the given 32 bits; the common codes come from a cache and allocate nothing. */
    public static StatusCode of(int value) {
        switch (value) {
            case StatusCodes.Good:
                return GOOD;
            case StatusCodes.Uncertain:
                return UNCERTAIN;
            case StatusCodes.Bad:
                return BAD;
            default:
                return new StatusCode(value);
        }
    }

    /** Status code from its unsigned 32-bit value held in a long. */
    public static StatusCode ofUnsigned(long value) {
        return of((int) value);
    }

    /** The raw 32 bits (negative for Bad codes). */
    public int value() {
        return value;
    }

    /** The 32 bits as an unsigned value. */
    public long unsignedValue() {
        return value & 0xFFFFFFFFL;
    }

    public boolean isGood() {
        return (value & SEVERITY_MASK) == SEVERITY_GOOD;
    }

    public boolean isUncertain() {
        return (value & SEVERITY_MASK) == SEVERITY_UNCERTAIN;
    }

    public boolean isBad() {
        return (value & SEVERITY_MASK) == SEVERITY_BAD;
    }

    /** Whether the data-value overflow bit is set (Part 4, 7.39.1). */
    public boolean isOverflow() {
        return (value & INFO_TYPE_DATA_VALUE) != 0 && (value & OVERFLOW_BIT) != 0;
    }

    /** This code with the data-value info type and overflow bit set. */
    public StatusCode withOverflow() {
        return of(value | INFO_TYPE_DATA_VALUE | OVERFLOW_BIT);
    }

    /** Whether both codes are the same, ignoring the info bits. */
    public boolean isSameCode(int code) {
        return (value & CODE_MASK) == (code & CODE_MASK);
    }

    /** Symbolic name of the code part, e.g. {@code BadNodeIdUnknown}, or null when not a standard code. */
    public String name() {
        return StatusCodes.name(value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof StatusCode && ((StatusCode) o).value == value;
    }

    @Override
    public int hashCode() {
        return value;
    }

    @Override
    public String toString() {
        String name = name();
        String hex = String.format("0x%08X", value);
        return name == null ? hex : name + " (" + hex + ")";
    }
}
