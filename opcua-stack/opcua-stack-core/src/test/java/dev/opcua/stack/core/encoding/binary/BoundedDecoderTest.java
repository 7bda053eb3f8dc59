package dev.opcua.stack.core.encoding.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/**
 * {@link BoundedDecoder} on its own: the path it names a failed field with, the nesting limit it keeps, and
 * the checks of lengths against the bytes that remain and the limits. The decoder's use of it is covered end
 * to end by {@link MalformedInputTest}.
 */
class BoundedDecoderTest {

    /** A decoder of nothing but the bounds, nesting at most {@code maxNesting} deep. */
    private static BoundedDecoder bounded(int maxNesting) {
        return new BoundedDecoder(new EncodingLimits(100, 200, 10, maxNesting)) {
        };
    }

    @Test
    void a_failure_names_the_structures_fields_and_array_index_entered() {
        BoundedDecoder decoder = bounded(10);
        decoder.enter("ReadRequest", -1);
        decoder.enter("NodesToRead", 0);
        decoder.index(3);

        UaEncodingException e = decoder.overLimit("IndexRange", "length 70000 exceeds MaxStringLength 65535");

        assertThat(e.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadEncodingLimitsExceeded));
        assertThat(e.getMessage())
                .endsWith(": ReadRequest.NodesToRead[3].IndexRange: length 70000 exceeds MaxStringLength 65535");
    }

    @Test
    void an_unnamed_array_shows_only_the_index_of_its_element() {
        BoundedDecoder decoder = bounded(10);
        decoder.enter("Value", -1);
        decoder.push(null, 0);
        decoder.index(2);

        UaEncodingException e = decoder.malformed("Text", "negative length -5");

        assertThat(e.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadDecodingError));
        assertThat(e.getMessage()).endsWith(": Value[2].Text: negative length -5");
    }

    @Test
    void a_failure_of_the_value_itself_names_the_path_without_a_field() {
        BoundedDecoder decoder = bounded(10);
        decoder.enter("ReadResponse", -1);
        decoder.enter("ResponseHeader", -1);

        assertThat(decoder.path(null)).isEqualTo("ReadResponse.ResponseHeader");
        assertThat(bounded(10).path("TypeId")).isEqualTo("TypeId");
    }

    @Test
    void leaving_values_and_arrays_takes_them_off_the_path() {
        BoundedDecoder decoder = bounded(10);
        decoder.enter("ReadRequest", -1);
        decoder.push("NodesToRead", 0);
        decoder.index(7);
        decoder.pop();
        decoder.enter("RequestHeader", -1);
        decoder.exit();

        assertThat(decoder.path("MaxAge")).isEqualTo("ReadRequest.MaxAge");
    }

    @Test
    void entering_one_level_beyond_the_limit_fails_naming_the_limit_and_the_field() {
        BoundedDecoder decoder = bounded(2);
        decoder.enter("Outer", -1);
        decoder.enter("Middle", -1);

        UaEncodingException e = catchThrowableOfType(() -> decoder.enter("Inner", -1), UaEncodingException.class);

        assertThat(e.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadEncodingLimitsExceeded));
        assertThat(e.getMessage()).endsWith(": Outer.Middle.Inner: nesting depth exceeds MaxEncodingNestingLevels 2");
    }

    @Test
    void arrays_on_the_path_are_no_nesting_level() {
        BoundedDecoder decoder = bounded(1);
        decoder.push("Results", 0);
        decoder.push(null, 0);

        assertThatCode(() -> decoder.enter("Value", -1)).doesNotThrowAnyException();
    }

    @Test
    void a_level_left_can_be_entered_again() {
        BoundedDecoder decoder = bounded(1);
        decoder.enter("First", -1);
        decoder.exit();

        assertThatCode(() -> decoder.enter("Second", -1)).doesNotThrowAnyException();
        assertThat(decoder.path(null)).isEqualTo("Second");
    }

    @Test
    void starting_a_buffer_forgets_the_path_and_the_nesting_of_the_previous_message() {
        BoundedDecoder decoder = bounded(1);
        decoder.enter("Abandoned", -1);

        decoder.start(Unpooled.EMPTY_BUFFER);

        assertThat(decoder.path("TypeId")).isEqualTo("TypeId");
        assertThatCode(() -> decoder.enter("Next", -1)).doesNotThrowAnyException();
    }

    @Test
    void a_path_deeper_than_its_first_arrays_keeps_every_level() {
        BoundedDecoder decoder = bounded(100);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            decoder.enter("L" + i, -1);
            expected.append(i == 0 ? "" : ".").append("L").append(i);
        }

        assertThat(decoder.path(null)).isEqualTo(expected.toString());
    }

    @Test
    void a_length_beyond_its_limit_is_over_the_limit_and_one_the_bytes_cannot_back_is_malformed() {
        BoundedDecoder bounded = bounded(10);
        bounded.start(Unpooled.wrappedBuffer(new byte[] {11, 0, 0, 0, 5, 0, 0, 0, 1, 2}));

        UaEncodingException overLimit = catchThrowableOfType(() -> bounded.readArrayLength("Items", 1),
                UaEncodingException.class);
        UaEncodingException truncated = catchThrowableOfType(() -> bounded.readArrayLength("Items", 1),
                UaEncodingException.class);

        assertThat(overLimit.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadEncodingLimitsExceeded));
        assertThat(overLimit.getMessage()).endsWith(": Items: length 11 exceeds MaxArrayLength 10");
        assertThat(truncated.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadDecodingError));
        assertThat(truncated.getMessage()).endsWith(": Items: length 5 needs at least 5 bytes but only 2 remain");
    }

    @Test
    void length_minus_one_is_null_and_other_negative_lengths_are_malformed() {
        BoundedDecoder bounded = bounded(10);
        bounded.start(Unpooled.wrappedBuffer(new byte[] {-1, -1, -1, -1, -2, -1, -1, -1}));

        assertThat(bounded.readLength("Name", 100, "MaxStringLength", 1)).isEqualTo(-1);
        UaEncodingException e = catchThrowableOfType(() -> bounded.readLength("Name", 100, "MaxStringLength", 1),
                UaEncodingException.class);

        assertThat(e.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadDecodingError));
        assertThat(e.getMessage()).endsWith(": Name: negative length -2");
    }
}
