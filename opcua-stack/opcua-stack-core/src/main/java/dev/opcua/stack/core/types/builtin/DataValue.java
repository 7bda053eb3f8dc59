package dev.opcua.stack.core.types.builtin;

import java.util.Objects;

/**
 * A value with its status and timestamps (Part 4, 7.11). Encoded with a mask byte saying which fields
 * follow (Part 6, 5.2.2.17): a Null value, a Good status, an absent (null) timestamp or zero
 * picoseconds are left out.
 */
public final class DataValue {

    /** Largest picoseconds value: 9999 intervals of 10 ps, just under the 100 ns tick (Part 6, 5.2.2.17). */
    public static final int MAX_PICOSECONDS = 9999;

    public static final DataValue NULL = new DataValue(Variant.NULL, StatusCode.GOOD, null, 0, null, 0);

    private final Variant value;
    private final StatusCode statusCode;
    private final DateTime sourceTimestamp;
    private final DateTime serverTimestamp;
    // 0..9999 fits a short: keeps an instance at 32 bytes.
    private final short sourcePicoseconds;
    private final short serverPicoseconds;

    private DataValue(Variant value, StatusCode statusCode, DateTime sourceTimestamp, int sourcePicoseconds,
            DateTime serverTimestamp, int serverPicoseconds) {
        this.value = value;
        this.statusCode = statusCode;
        this.sourceTimestamp = sourceTimestamp;
        this.sourcePicoseconds = (short) sourcePicoseconds;
        this.serverTimestamp = serverTimestamp;
        this.serverPicoseconds = (short) serverPicoseconds;
    }

    /**
     * A DataValue with every field.
     *
     * @param value value, null meaning {@link Variant#NULL}
     * @param statusCode status, null meaning Good
     * @param sourceTimestamp source timestamp or null; {@link DateTime#MIN_VALUE} counts as absent
     *        (Part 6, 5.2.2.17)
     * @param sourcePicoseconds count of 10 ps intervals added to the source timestamp (0..9999); ignored
     *        without a source timestamp
     * @param serverTimestamp server timestamp or null
     * @param serverPicoseconds count of 10 ps intervals added to the server timestamp (0..9999); ignored
     *        without a server timestamp
     */
    public static DataValue of(Variant value, StatusCode statusCode, DateTime sourceTimestamp, int sourcePicoseconds,
            DateTime serverTimestamp, int serverPicoseconds) {
        if (sourcePicoseconds < 0 || sourcePicoseconds > MAX_PICOSECONDS || serverPicoseconds < 0
                || serverPicoseconds > MAX_PICOSECONDS) {
            throw new IllegalArgumentException("picoseconds must be 0.." + MAX_PICOSECONDS + ", were "
                    + sourcePicoseconds + " and " + serverPicoseconds);
        }
        DateTime source = absentIfMin(sourceTimestamp);
        DateTime server = absentIfMin(serverTimestamp);
        return new DataValue(value == null ? Variant.NULL : value, statusCode == null ? StatusCode.GOOD : statusCode,
                source, source == null ? 0 : sourcePicoseconds, server, server == null ? 0 : serverPicoseconds);
    }

    private static DateTime absentIfMin(DateTime timestamp) {
        return timestamp == null || timestamp.isNull() ? null : timestamp;
    }

    public static DataValue of(Variant value) {
        return of(value, StatusCode.GOOD, null, 0, null, 0);
    }

    public static DataValue of(Variant value, StatusCode statusCode, DateTime sourceTimestamp, DateTime serverTimestamp) {
        return of(value, statusCode, sourceTimestamp, 0, serverTimestamp, 0);
    }

    /** A DataValue holding only a status, such as the result of reading an unknown node. */
    public static DataValue ofStatus(StatusCode statusCode) {
        return of(Variant.NULL, statusCode, null, 0, null, 0);
    }

    public Variant value() {
        return value;
    }

    public StatusCode statusCode() {
        return statusCode;
    }

    /** Source timestamp, or null when absent. */
    public DateTime sourceTimestamp() {
        return sourceTimestamp;
    }

    public int sourcePicoseconds() {
        return sourcePicoseconds;
    }

    /** Server timestamp, or null when absent. */
    public DateTime serverTimestamp() {
        return serverTimestamp;
    }

    public int serverPicoseconds() {
        return serverPicoseconds;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DataValue)) {
            return false;
        }
        DataValue other = (DataValue) o;
        return value.equals(other.value) && statusCode.equals(other.statusCode)
                && Objects.equals(sourceTimestamp, other.sourceTimestamp) && sourcePicoseconds == other.sourcePicoseconds
                && Objects.equals(serverTimestamp, other.serverTimestamp) && serverPicoseconds == other.serverPicoseconds;
    }

    @Override
    public int hashCode() {
        return Objects.hash(value, statusCode, sourceTimestamp, sourcePicoseconds, serverTimestamp, serverPicoseconds);
    }

    @Override
    public String toString() {
        return "DataValue{value=" + value + ", status=" + statusCode + ", source=" + sourceTimestamp
                + (sourcePicoseconds != 0 ? "+" + sourcePicoseconds + "0ps" : "") + ", server=" + serverTimestamp
                + (serverPicoseconds != 0 ? "+" + serverPicoseconds + "0ps" : "") + "}";
    }
}
