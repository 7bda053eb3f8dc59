package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.Variant;
import java.lang.reflect.Array;
import java.util.Arrays;

/**
 * An IndexRange (Part 4, 7.27): {@code "i"} or {@code "i:j"} with {@code i < j}, per dimension,
 * dimensions separated by commas.
 *
 * <p>Reads apply to one-dimensional arrays and to String and ByteString scalars (whose elements
 * are characters and bytes); writes to one-dimensional arrays and Strings. Ranges on
 * multi-dimensional arrays are not supported yet and answer BadIndexRangeInvalid.
 */
public final class NumericRange {

    private final int[] starts;
    private final int[] ends;

    private NumericRange(int[] starts, int[] ends) {
        this.starts = starts;
        this.ends = ends;
    }

    /**
     * Parses an IndexRange; null or empty gives null (no range).
     *
     * @throws UaException BadIndexRangeInvalid naming the text
     */
    public static NumericRange parse(String text) {
        if (text == null || text.isEmpty()) {
            return null;
        }
        String[] dims = text.split(",", -1);
        int[] starts = new int[dims.length];
        int[] ends = new int[dims.length];
        for (int d = 0; d < dims.length; d++) {
            String dim = dims[d];
            int colon = dim.indexOf(':');
            starts[d] = number(text, colon < 0 ? dim : dim.substring(0, colon));
            ends[d] = colon < 0 ? starts[d] : number(text, dim.substring(colon + 1));
            if (colon >= 0 && ends[d] <= starts[d]) {
                throw invalid(text, "the end of a range must be greater than its start");
            }
        }
        return new NumericRange(starts, ends);
    }

    private static int number(String text, String digits) {
        if (digits.isEmpty() || digits.length() > 10) {
            throw invalid(text, "'" + digits + "' is not an index");
        }
        long value = 0;
        for (int i = 0; i < digits.length(); i++) {
            char c = digits.charAt(i);
            if (c < '0' || c > '9') {
                throw invalid(text, "'" + digits + "' is not an index");
            }
            value = value * 10 + (c - '0');
        }
        if (value > Integer.MAX_VALUE) {
            throw invalid(text, "index " + value + " is too large");
        }
        return (int) value;
    }

    private static UaException invalid(String text, String reason) {
        return new UaException(StatusCodes.BadIndexRangeInvalid, "IndexRange '" + text + "': " + reason);
    }

    public int dimensions() {
        return starts.length;
    }

    /**
     * The part of a value the range selects.
     *
     * @throws UaException BadIndexRangeInvalid for a range the value's shape cannot take,
     *         BadIndexRangeNoData when the range starts past the end of the value
     */
    public Variant select(Variant value) {
        if (starts.length != 1 || value.isMatrix()) {
            throw new UaException(StatusCodes.BadIndexRangeInvalid,
                    "IndexRange of " + starts.length + " dimensions on a " + (value.isMatrix() ? "matrix" : "value")
                            + " is not supported");
        }
        Object v = value.value();
        if (value.isArray()) {
            int length = Array.getLength(v);
            int from = checkStart(length);
            int to = endExclusive(length);
            Object part = Array.newInstance(v.getClass().getComponentType(), to - from);
            System.arraycopy(v, from, part, 0, to - from);
            return Variant.ofArray(value.type(), part);
        }
        if (value.type() == BuiltinType.String) {
            String s = (String) v;
            int from = checkStart(s.length());
            return Variant.ofString(s.substring(from, endExclusive(s.length())));
        }
        if (value.type() == BuiltinType.ByteString && !((ByteString) v).isNull()) {
            byte[] bytes = ((ByteString) v).unsafeBytes();
            int from = checkStart(bytes.length);
            return Variant.ofScalar(BuiltinType.ByteString,
                    ByteString.wrap(Arrays.copyOfRange(bytes, from, endExclusive(bytes.length))));
        }
        throw new UaException(StatusCodes.BadIndexRangeNoData, "an IndexRange needs an array, a String or a ByteString");
    }

    /**
     * The current value with the range replaced by {@code written}, whose element count must equal
     * the range's (Part 4, 7.27 on writes).
     *
     * @throws UaException BadIndexRangeNoData when the range lies outside the current value,
     *         BadIndexRangeInvalid when the written value does not fit the range or the shape,
     *         BadTypeMismatch when it is of another type
     */
    public Variant replace(Variant current, Variant written) {
        if (starts.length != 1 || current.isMatrix() || written.isMatrix()) {
            throw new UaException(StatusCodes.BadIndexRangeInvalid,
                    "IndexRange writes are supported on one-dimensional values only");
        }
        if (current.type() != written.type() || current.isArray() != written.isArray()) {
            throw new UaException(StatusCodes.BadTypeMismatch, "the written " + written.type()
                    + " does not match the current " + current.type());
        }
        int count = ends[0] - starts[0] + 1;
        Object v = current.value();
        if (current.isArray()) {
            int length = Array.getLength(v);
            if (ends[0] >= length) {
                throw new UaException(StatusCodes.BadIndexRangeNoData,
                        "IndexRange ends at " + ends[0] + " but the value has " + length + " elements");
            }
            Object part = written.value();
            if (Array.getLength(part) != count) {
                throw new UaException(StatusCodes.BadIndexRangeInvalid, "the range holds " + count
                        + " elements, the written value " + Array.getLength(part));
            }
            Object copy = Array.newInstance(v.getClass().getComponentType(), length);
            System.arraycopy(v, 0, copy, 0, length);
            System.arraycopy(part, 0, copy, starts[0], count);
            return Variant.ofArray(current.type(), copy);
        }
        if (current.type() == BuiltinType.String) {
            String s = (String) v;
            String part = (String) written.value();
            if (ends[0] >= s.length()) {
                throw new UaException(StatusCodes.BadIndexRangeNoData,
                        "IndexRange ends at " + ends[0] + " but the string has " + s.length() + " characters");
            }
            if (part.length() != count) {
                throw new UaException(StatusCodes.BadIndexRangeInvalid,
                        "the range holds " + count + " characters, the written string " + part.length());
            }
            return Variant.ofString(s.substring(0, starts[0]) + part + s.substring(ends[0] + 1));
        }
        throw new UaException(StatusCodes.BadIndexRangeInvalid, "an IndexRange write needs an array or a String");
    }

    /**
     * One past the last selected element: a range ending past the value selects up to its end (Part 4,
     * 7.27). Compared before adding one, so that an end of Integer.MAX_VALUE does not overflow.
     */
    private int endExclusive(int length) {
        return ends[0] >= length ? length : ends[0] + 1;
    }

    private int checkStart(int length) {
        if (starts[0] >= length) {
            throw new UaException(StatusCodes.BadIndexRangeNoData,
                    "IndexRange starts at " + starts[0] + " but the value has " + length + " elements");
        }
        return starts[0];
    }
}
