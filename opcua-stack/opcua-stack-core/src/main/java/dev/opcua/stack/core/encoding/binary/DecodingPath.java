package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import java.util.Arrays;

/**
 * Where a {@link UaDecoder} is inside the message it reads: the nested values and array elements it has
 * entered, and how many nested values deep it is. The nesting is checked against MaxEncodingNestingLevels
 * on every {@link #enter}; the path names the field of a failure, e.g.
 * {@code ReadRequest.NodesToRead[3].IndexRange}.
 *
 * <p>The path is kept in two small arrays that grow when needed and is only turned into a string when a
 * failure is reported, so that entering and leaving a value costs a few stores. Owned by one decoder, so
 * not thread-safe.
 */
final class DecodingPath {

    private static final int INITIAL_CAPACITY = 8;

    private final int maxNesting;
    /** Levels of nested values entered, checked against {@link #maxNesting}. */
    private int nesting;
    /** Entries on the path: nested values plus arrays whose elements are being read. */
    private int depth;
    private String[] fields = new String[INITIAL_CAPACITY];
    /** Per entry, the index of the array element being read, or -1 for a value that is no element. */
    private int[] indexes = new int[INITIAL_CAPACITY];

    DecodingPath(int maxNesting) {
        this.maxNesting = maxNesting;
    }

    /** Forgets the path of the previous message. */
    void reset() {
        depth = 0;
        nesting = 0;
    }

    /**
     * Enters a nested value (structure, Variant, DataValue, ExtensionObject body, DiagnosticInfo): checks
     * the nesting limit and records the field.
     *
     * @param index the element's index when the value is the first of an array, else -1
     * @throws UaEncodingException {@code BadEncodingLimitsExceeded} when one more level exceeds the limit
     */
    void enter(String field, int index) {
        if (nesting >= maxNesting) {
            throw overLimit(field, "nesting depth exceeds MaxEncodingNestingLevels " + maxNesting);
        }
        nesting++;
        push(field, index);
    }

    /** Leaves the value last {@link #enter entered}. */
    void exit() {
        nesting--;
        depth--;
    }

    /** Records an array whose elements are read next; an array is on the path but is no nesting level. */
    void push(String field, int index) {
        if (depth == fields.length) {
            fields = Arrays.copyOf(fields, depth * 2);
            indexes = Arrays.copyOf(indexes, depth * 2);
        }
        fields[depth] = field;
        indexes[depth] = index;
        depth++;
    }

    /** Leaves the array last {@link #push pushed}. */
    void pop() {
        depth--;
    }

    /** Sets the index of the element being read in the innermost array. */
    void index(int index) {
        indexes[depth - 1] = index;
    }

    /** A {@code BadDecodingError} for malformed or truncated input in {@code field} (null: the value itself). */
    UaEncodingException malformed(String field, String detail) {
        return failure(StatusCodes.BadDecodingError, field, detail);
    }

    /** A {@code BadEncodingLimitsExceeded} for input in {@code field} beyond a limit. */
    UaEncodingException overLimit(String field, String detail) {
        return failure(StatusCodes.BadEncodingLimitsExceeded, field, detail);
    }

    private UaEncodingException failure(int status, String field, String detail) {
        return new UaEncodingException(status, describe(field) + ": " + detail);
    }

    /**
     * The path to {@code field}, or to the current value when it is null: names joined by dots, array
     * indexes in brackets.
     */
    String describe(String field) {
        StringBuilder sb = new StringBuilder(64);
        for (int i = 0; i < depth; i++) {
            // Unnamed levels (a value inside an indexed array) show only their index, if any.
            if (fields[i] != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(fields[i]);
            }
            if (indexes[i] >= 0) {
                sb.append('[').append(indexes[i]).append(']');
            }
        }
        if (field != null) {
            if (sb.length() > 0) {
                sb.append('.');
            }
            sb.append(field);
        }
        return sb.toString();
    }
}
