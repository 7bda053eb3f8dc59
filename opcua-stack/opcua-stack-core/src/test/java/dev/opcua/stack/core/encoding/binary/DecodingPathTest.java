package dev.opcua.stack.core.encoding.binary;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import org.junit.jupiter.api.Test;

/**
 * {@link DecodingPath} on its own: the path it names a failed field with, and the nesting limit it keeps.
 * The decoder's use of it is covered end to end by {@link MalformedInputTest}.
 */
class DecodingPathTest {

    @Test
    void a_failure_names_the_structures_fields_and_array_index_entered() {
        DecodingPath path = new DecodingPath(10);
        path.enter("ReadRequest", -1);
        path.enter("NodesToRead", 0);
        path.index(3);

        UaEncodingException e = path.overLimit("IndexRange", "length 70000 exceeds MaxStringLength 65535");

        assertThat(e.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadEncodingLimitsExceeded));
        assertThat(e.getMessage())
                .endsWith(": ReadRequest.NodesToRead[3].IndexRange: length 70000 exceeds MaxStringLength 65535");
    }

    @Test
    void an_unnamed_array_shows_only_the_index_of_its_element() {
        DecodingPath path = new DecodingPath(10);
        path.enter("Value", -1);
        path.push(null, 0);
        path.index(2);

        UaEncodingException e = path.malformed("Text", "negative length -5");

        assertThat(e.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadDecodingError));
        assertThat(e.getMessage()).endsWith(": Value[2].Text: negative length -5");
    }

    @Test
    void a_failure_of_the_value_itself_names_the_path_without_a_field() {
        DecodingPath path = new DecodingPath(10);
        path.enter("ReadResponse", -1);
        path.enter("ResponseHeader", -1);

        assertThat(path.describe(null)).isEqualTo("ReadResponse.ResponseHeader");
        assertThat(new DecodingPath(10).describe("TypeId")).isEqualTo("TypeId");
    }

    @Test
    void leaving_values_and_arrays_takes_them_off_the_path() {
        DecodingPath path = new DecodingPath(10);
        path.enter("ReadRequest", -1);
        path.push("NodesToRead", 0);
        path.index(7);
        path.pop();
        path.enter("RequestHeader", -1);
        path.exit();

        assertThat(path.describe("MaxAge")).isEqualTo("ReadRequest.MaxAge");
    }

    @Test
    void entering_one_level_beyond_the_limit_fails_naming_the_limit_and_the_field() {
        DecodingPath path = new DecodingPath(2);
        path.enter("Outer", -1);
        path.enter("Middle", -1);

        UaEncodingException e = catchThrowableOfType(() -> path.enter("Inner", -1), UaEncodingException.class);

        assertThat(e.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadEncodingLimitsExceeded));
        assertThat(e.getMessage()).endsWith(": Outer.Middle.Inner: nesting depth exceeds MaxEncodingNestingLevels 2");
    }

    @Test
    void arrays_on_the_path_are_no_nesting_level() {
        DecodingPath path = new DecodingPath(1);
        path.push("Results", 0);
        path.push(null, 0);

        assertThatCode(() -> path.enter("Value", -1)).doesNotThrowAnyException();
    }

    @Test
    void a_level_left_can_be_entered_again() {
        DecodingPath path = new DecodingPath(1);
        path.enter("First", -1);
        path.exit();

        assertThatCode(() -> path.enter("Second", -1)).doesNotThrowAnyException();
        assertThat(path.describe(null)).isEqualTo("Second");
    }

    @Test
    void reset_forgets_the_path_and_the_nesting_of_the_previous_message() {
        DecodingPath path = new DecodingPath(1);
        path.enter("Abandoned", -1);

        path.reset();

        assertThat(path.describe("TypeId")).isEqualTo("TypeId");
        assertThatCode(() -> path.enter("Next", -1)).doesNotThrowAnyException();
    }

    @Test
    void a_path_deeper_than_its_first_arrays_keeps_every_level() {
        DecodingPath path = new DecodingPath(100);
        StringBuilder expected = new StringBuilder();
        for (int i = 0; i < 20; i++) {
            path.enter("L" + i, -1);
            expected.append(i == 0 ? "" : ".").append("L").append(i);
        }

        assertThat(path.describe(null)).isEqualTo(expected.toString());
    }
}
