package dev.opcua.stack.core.encoding.binary;

import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import io.netty.buffer.ByteBuf;
import java.util.Arrays;

/**
 * What every read of a {@link UaDecoder} is checked against, and how it fails: the bytes that remain in the
 * buffer, the {@link EncodingLimits} on lengths and on the nesting of values (MaxEncodingNestingLevels), and
 * the path of the field being read, which names the field of a failure, e.g.
 * {@code ReadRequest.NodesToRead[3].IndexRange: length 70000 exceeds MaxStringLength 65535}.
 *
 * <p>The path is kept in two small arrays that grow when needed and is only turned into a string when a
 * failure is reported, so that entering and leaving a value costs a few stores.
 *
 * <p>A base class of the decoder rather than an object it holds: decoders are made per message or per
 * stored value in places, where one more object would be one more allocation each time, and every value
 * entered would load it first. Everything here is package-private, for the decoder and the readers it
 * hands work to; none of it is part of the decoder's public API. The methods are final: calls to them bind
 * statically, as the private methods of one class do.
 */
abstract class BoundedDecoder {

    private static final int INITIAL_PATH_CAPACITY = 8;

    final EncodingLimits limits;
    ByteBuf buf;

    /** Levels of nested values entered, checked against the limit's maxNestingDepth. */
    private int nesting;
    /** Entries on the path: nested values plus arrays whose elements are being read. */
    private int depth;
    private String[] pathFields = new String[INITIAL_PATH_CAPACITY];
    /** Per entry, the index of the array element being read, or -1 for a value that is no element. */
    private int[] pathIndexes = new int[INITIAL_PATH_CAPACITY];

    BoundedDecoder(EncodingLimits limits) {
        this.limits = limits;
    }

    /** Reads {@code buf} next, forgetting the path and nesting of the previous message. */
    final void start(ByteBuf buf) {
        this.buf = buf;
        this.depth = 0;
        this.nesting = 0;
    }

    // ---- bytes and lengths ----------------------------------------------------------------------

    /** Checks that {@code bytes} more bytes remain; fewer is truncated input. */
    final void need(String field, int bytes) {
        int remaining = buf.readableBytes();
        if (remaining < bytes) {
            throw malformed(field, "needs " + bytes + " bytes but only " + remaining + " remain");
        }
    }

    /**
     * Reads an Int32 length and checks it: -1 is null (returned as -1), other negative values are
     * malformed, values above {@code limit} exceed it, and values whose elements cannot fit in the
     * remaining bytes are truncated input.
     */
    final int readLength(String field, int limit, String limitName, int minElementBytes) {
        need(field, 4);
        int length = buf.readIntLE();
        if (length < 0) {
            if (length == -1) {
                return -1;
            }
            throw malformed(field, "negative length " + length);
        }
        if (length > limit) {
            throw overLimit(field, "length " + length + " exceeds " + limitName + " " + limit);
        }
        long needed = (long) length * minElementBytes;
        if (needed > buf.readableBytes()) {
            throw malformed(field, "length " + length + " needs at least " + needed + " bytes but only "
                    + buf.readableBytes() + " remain");
        }
        return length;
    }

    final int readArrayLength(String field, int minElementBytes) {
        return readLength(field, limits.maxArrayLength(), "MaxArrayLength", minElementBytes);
    }

    // ---- the path -------------------------------------------------------------------------------

    /**
     * Enters a nested value (structure, Variant, DataValue, ExtensionObject body, DiagnosticInfo): checks
     * the nesting limit and records the field.
     *
     * @param index the element's index when the value is the first of an array, else -1
     * @throws UaEncodingException {@code BadEncodingLimitsExceeded} when one more level exceeds the limit
     */
    final void enter(String field, int index) {
        if (nesting >= limits.maxNestingDepth()) {
            throw overLimit(field, "nesting depth exceeds MaxEncodingNestingLevels " + limits.maxNestingDepth());
        }
        nesting++;
        push(field, index);
    }

    /** Leaves the value last {@link #enter entered}. */
    final void exit() {
        nesting--;
        depth--;
    }

    /** Records an array whose elements are read next; an array is on the path but is no nesting level. */
    final void push(String field, int index) {
        if (depth == pathFields.length) {
            pathFields = Arrays.copyOf(pathFields, depth * 2);
            pathIndexes = Arrays.copyOf(pathIndexes, depth * 2);
        }
        pathFields[depth] = field;
        pathIndexes[depth] = index;
        depth++;
    }

    /** Leaves the array last {@link #push pushed}. */
    final void pop() {
        depth--;
    }

    /** Sets the index of the element being read in the innermost array. */
    final void index(int index) {
        pathIndexes[depth - 1] = index;
    }

    // ---- failures -------------------------------------------------------------------------------

    /** A {@code BadDecodingError} for malformed or truncated input in {@code field} (null: the value itself). */
    final UaEncodingException malformed(String field, String detail) {
        return failure(StatusCodes.BadDecodingError, field, detail);
    }

    /** A {@code BadEncodingLimitsExceeded} for input in {@code field} beyond a limit. */
    final UaEncodingException overLimit(String field, String detail) {
        return failure(StatusCodes.BadEncodingLimitsExceeded, field, detail);
    }

    private UaEncodingException failure(int status, String field, String detail) {
        return new UaEncodingException(status, path(field) + ": " + detail);
    }

    /**
     * The path to {@code field}, or to the current value when it is null: names joined by dots, array
     * indexes in brackets.
     */
    final String path(String field) {
        StringBuilder sb = new StringBuilder(64);
        for (int i = 0; i < depth; i++) {
            // Unnamed levels (a value inside an indexed array) show only their index, if any.
            if (pathFields[i] != null) {
                if (sb.length() > 0) {
                    sb.append('.');
                }
                sb.append(pathFields[i]);
            }
            if (pathIndexes[i] >= 0) {
                sb.append('[').append(pathIndexes[i]).append(']');
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
