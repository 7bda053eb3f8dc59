package dev.opcua.stack.server.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.nodes.NumericRange;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * IndexRange text (Part 4, 7.27) parsed by {@link NumericRange#parse} and applied with
 * {@link NumericRange#select} and {@link NumericRange#replace} to an array, a String and a ByteString.
 * The only acceptable refusals are the documented {@link UaException}s (BadIndexRangeInvalid,
 * BadIndexRangeNoData, BadTypeMismatch); anything else is a finding.
 */
class NumericRangeFuzzTest {

    private static final Set<Integer> ALLOWED = Set.of(StatusCodes.BadIndexRangeInvalid,
            StatusCodes.BadIndexRangeNoData, StatusCodes.BadTypeMismatch);

    private static final Variant ARRAY = Variant.ofArray(BuiltinType.Int32, new int[] {0, 1, 2, 3, 4, 5, 6, 7});
    private static final Variant STRING = Variant.ofString("abcdefgh");
    private static final Variant BYTES = Variant.ofScalar(BuiltinType.ByteString, ByteString.wrap(new byte[8]));

    @FuzzTest(maxDuration = "5m")
    void parseAndApply(byte[] data) {
        String text = new String(data, StandardCharsets.UTF_8);
        NumericRange range;
        try {
            range = NumericRange.parse(text);
        } catch (UaException e) {
            check(e);
            return;
        }
        if (range == null) {
            return;
        }
        for (Variant value : new Variant[] {ARRAY, STRING, BYTES}) {
            try {
                range.select(value);
            } catch (UaException e) {
                check(e);
            }
        }
        try {
            range.replace(ARRAY, Variant.ofArray(BuiltinType.Int32, new int[] {9, 9}));
        } catch (UaException e) {
            check(e);
        }
        try {
            range.replace(STRING, Variant.ofString("zz"));
        } catch (UaException e) {
            check(e);
        }
    }

    private static void check(UaException e) {
        if (!ALLOWED.contains(e.statusCode().value())) {
            throw new AssertionError("unexpected status", e);
        }
    }
}
