package dev.opcua.stack.server.history.aggregate;

import static dev.opcua.stack.server.history.aggregate.RawData.at;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** ReadAtTime values (Part 11, 6.5.5.2) on {@link RawData#standard()}, expectations from Part 13, 3.1.8 and 3.1.9. */
class AtTimeInterpolationTest {

    private static final AggregateConfiguration CONFIG = AggregateConfiguration.DEFAULT;

    private static List<DataValue> at(boolean simple, boolean stepped, int... seconds) {
        List<dev.opcua.stack.core.types.builtin.DateTime> times = new java.util.ArrayList<>();
        for (int s : seconds) {
            times.add(RawData.at(s));
        }
        return AtTimeInterpolation.valuesAt(RawData.standard().list(), times, simple, stepped, CONFIG);
    }

    private static void expect(DataValue actual, Double value, int code, int bits, int second) {
        if (value == null) {
            assertThat(actual.value()).isEqualTo(Variant.NULL);
        } else {
            assertThat(actual.value()).isEqualTo(Variant.ofDouble(value));
        }
        assertThat(actual.statusCode()).as("status of %s", actual).isEqualTo(HistorianBits.with(code, bits));
        assertThat(actual.sourceTimestamp()).isEqualTo(RawData.at(second));
    }

    @Test
    void a_stored_value_is_returned_raw_and_others_are_interpolated_in_the_requested_order() {
        List<DataValue> r = at(false, false, 10, 5, -5);

        expect(r.get(0), 20.0, StatusCodes.Good, HistorianBits.RAW, 10);
        expect(r.get(1), 15.0, StatusCodes.Good, HistorianBits.INTERPOLATED, 5);
        expect(r.get(2), null, StatusCodes.BadNoData, 0, -5);
    }

    @Test
    void interpolated_bounds_look_past_bad_values() {
        List<DataValue> r = at(false, false, 30, 35);

        expect(r.get(0), 40.0, StatusCodes.UncertainDataSubNormal, HistorianBits.INTERPOLATED, 30);
        expect(r.get(1), 45.0, StatusCodes.UncertainDataSubNormal, HistorianBits.INTERPOLATED, 35);
    }

    @Test
    void simple_bounds_take_the_nearest_values_whatever_their_status() {
        List<DataValue> r = at(true, false, 30, 35, 25, 5);

        expect(r.get(0), null, StatusCodes.BadNoData, 0, 30);
        expect(r.get(1), null, StatusCodes.BadNoData, 0, 35);
        // Bad after: the value before is the bound, Uncertain.
        expect(r.get(2), 30.0, StatusCodes.UncertainDataSubNormal, HistorianBits.INTERPOLATED, 25);
        expect(r.get(3), 15.0, StatusCodes.Good, HistorianBits.INTERPOLATED, 5);
    }

    @Test
    void stepped_history_holds_the_value_before() {
        expect(at(false, true, 5).get(0), 10.0, StatusCodes.Good, HistorianBits.INTERPOLATED, 5);
        expect(at(true, true, 15).get(0), 20.0, StatusCodes.Good, HistorianBits.INTERPOLATED, 15);
    }

    @Test
    void an_uncertain_raw_value_on_the_time_is_returned_as_stored_when_uncertain_counts_as_good() {
        List<DataValue> r = AtTimeInterpolation.valuesAt(RawData.standard().list(), List.of(RawData.at(50)), true,
                false, new AggregateConfiguration(false, 100, 100, false));

        assertThat(r.get(0).value()).isEqualTo(Variant.ofDouble(60));
        assertThat(r.get(0).statusCode()).isEqualTo(StatusCode.of(StatusCodes.UncertainSensorNotAccurate));
    }
}
