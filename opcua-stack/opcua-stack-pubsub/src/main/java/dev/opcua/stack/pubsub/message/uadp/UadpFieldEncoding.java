package dev.opcua.stack.pubsub.message.uadp;

/**
 * How the fields of a UADP DataSetMessage are encoded: bits 1-2 of DataSetFlags1 (Part 14, 7.2.4.5.4,
 * Table 162), chosen by the DataSetWriter's DataSetFieldContentMask (6.2.4.2).
 */
public enum UadpFieldEncoding {
    /** 00: each field a Variant; the value only (a Bad field as its StatusCode, an Uncertain one as a DataValue). */
    VARIANT(0),
    /** 01: each field as the bare encoding of its metadata's built-in type, without type information (7.2.4.5.11). */
    RAW_DATA(1),
    /** 10: each field a DataValue with the status and timestamps the DataSetFieldContentMask keeps. */
    DATA_VALUE(2);

    private final int bits;

    UadpFieldEncoding(int bits) {
        this.bits = bits;
    }

    /** The value of bits 1-2 of DataSetFlags1, unshifted (0..2). */
    public int bits() {
        return bits;
    }

    /** The encoding for the value of bits 1-2, or null for the reserved value 3. */
    static UadpFieldEncoding fromBits(int bits) {
        return switch (bits) {
            case 0 -> VARIANT;
            case 1 -> RAW_DATA;
            case 2 -> DATA_VALUE;
            default -> null;
        };
    }
}
