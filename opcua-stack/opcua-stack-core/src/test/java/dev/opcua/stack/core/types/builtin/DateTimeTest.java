package dev.opcua.stack.core.types.builtin;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** DateTime: 100 ns ticks since 1601-01-01 UTC, clamped as Part 6, 5.2.2.5 says. */
class DateTimeTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "2024-06-15T12:30:45.1234567Z",
        "1970-01-01T00:00:00Z",
        "1969-12-31T23:59:59.9999999Z",
        "1601-01-02T00:00:00Z",
        "9999-12-31T23:59:58.9999999Z",
    })
    void instant_round_trips_at_hundred_nanosecond_resolution(String text) {
        Instant instant = Instant.parse(text);
        assertThat(DateTime.ofInstant(instant).toInstant()).isEqualTo(instant);
    }

    @Test
    void nanoseconds_below_hundred_are_truncated() {
        DateTime t = DateTime.ofInstant(Instant.parse("2024-06-15T12:30:45.123456789Z"));
        assertThat(t.toInstant()).isEqualTo(Instant.parse("2024-06-15T12:30:45.1234567Z"));
    }

    @Test
    void unix_epoch_is_the_documented_tick_offset() {
        assertThat(DateTime.ofEpochMillis(0).utcTicks()).isEqualTo(116_444_736_000_000_000L);
        assertThat(DateTime.ofInstant(Instant.parse("2024-01-01T00:00:00Z")).utcTicks())
                .isEqualTo(133_485_408_000_000_000L);
        assertThat(DateTime.ofEpochMillis(1_000).toEpochMillis()).isEqualTo(1_000);
    }

    @Test
    void instants_at_or_before_1601_are_min_value() {
        assertThat(DateTime.ofInstant(Instant.parse("1601-01-01T00:00:00Z"))).isEqualTo(DateTime.MIN_VALUE);
        assertThat(DateTime.ofInstant(Instant.parse("1600-12-31T23:59:59.9999999Z"))).isEqualTo(DateTime.MIN_VALUE);
        assertThat(DateTime.ofInstant(Instant.parse("0001-01-01T00:00:00Z"))).isEqualTo(DateTime.MIN_VALUE);
        assertThat(DateTime.ofInstant(Instant.MIN)).isEqualTo(DateTime.MIN_VALUE);
        assertThat(DateTime.MIN_VALUE.isNull()).isTrue();
        assertThat(DateTime.MIN_VALUE.toInstant()).isEqualTo(Instant.parse("1601-01-01T00:00:00Z"));
    }

    @Test
    void instants_just_after_1601_are_not_clamped_to_min_value() {
        // Part 6, 5.2.2.5: only values "equal to or earlier than 1601-01-01 12:00AM UTC" are encoded as 0;
        // half a second later is 5 000 000 ticks.
        assertThat(DateTime.ofInstant(Instant.parse("1601-01-01T00:00:00.5Z")).utcTicks()).isEqualTo(5_000_000L);
        assertThat(DateTime.ofInstant(Instant.parse("1601-01-01T00:00:00.0000001Z")).utcTicks()).isEqualTo(1L);
    }

    @Test
    void instants_at_or_after_the_end_of_year9999_are_max_value() {
        assertThat(DateTime.ofInstant(Instant.parse("9999-12-31T23:59:59Z"))).isEqualTo(DateTime.MAX_VALUE);
        assertThat(DateTime.ofInstant(Instant.parse("9999-12-31T23:59:59.5Z"))).isEqualTo(DateTime.MAX_VALUE);
        assertThat(DateTime.ofInstant(Instant.MAX)).isEqualTo(DateTime.MAX_VALUE);
        assertThat(DateTime.MAX_VALUE.utcTicks()).isEqualTo(Long.MAX_VALUE);
        assertThat(DateTime.MAX_VALUE.toInstant()).isEqualTo(Instant.parse("9999-12-31T23:59:59.9999999Z"));
        assertThat(DateTime.ofInstant(Instant.parse("9999-12-31T23:59:58.9999999Z"))).isNotEqualTo(DateTime.MAX_VALUE);
    }

    @Test
    void ticks_from_the_wire_are_clamped() {
        assertThat(DateTime.ofTicks(0)).isSameAs(DateTime.MIN_VALUE);
        assertThat(DateTime.ofTicks(-1)).isSameAs(DateTime.MIN_VALUE);
        assertThat(DateTime.ofTicks(Long.MIN_VALUE)).isSameAs(DateTime.MIN_VALUE);
        assertThat(DateTime.ofTicks(Long.MAX_VALUE)).isSameAs(DateTime.MAX_VALUE);
        assertThat(DateTime.ofTicks(Long.MAX_VALUE - 1)).isEqualTo(DateTime.MAX_VALUE);
        assertThat(DateTime.ofTicks(1).utcTicks()).isEqualTo(1);
    }

    @Test
    void date_times_compare_by_ticks() {
        DateTime earlier = DateTime.ofEpochMillis(1_000);
        DateTime later = DateTime.ofEpochMillis(2_000);
        assertThat(earlier).isLessThan(later);
        assertThat(DateTime.MIN_VALUE).isLessThan(earlier);
        assertThat(DateTime.MAX_VALUE).isGreaterThan(later);
        assertThat(DateTime.ofEpochMillis(1_000)).isEqualTo(earlier).hasSameHashCodeAs(earlier);
    }

    @Test
    void to_string_is_iso_or_the_name_of_the_limit() {
        assertThat(DateTime.ofInstant(Instant.parse("2024-01-01T00:00:00Z")).toString()).isEqualTo("2024-01-01T00:00:00Z");
        assertThat(DateTime.MIN_VALUE.toString()).isEqualTo("DateTime.MIN_VALUE");
        assertThat(DateTime.MAX_VALUE.toString()).isEqualTo("DateTime.MAX_VALUE");
    }

    @Test
    void current_millisecond_is_now_to_the_millisecond_and_shared_within_it() {
        long before = System.currentTimeMillis();
        DateTime a = DateTime.currentMillisecond();
        DateTime b = DateTime.currentMillisecond();
        long after = System.currentTimeMillis();
        assertThat(a.toInstant().toEpochMilli()).isBetween(before, after);
        assertThat(a.utcTicks() % 10_000).as("whole milliseconds").isZero();
        if (a.utcTicks() == b.utcTicks()) {
            assertThat(b).isSameAs(a);
        }
        long millisecondOfA = a.toInstant().toEpochMilli();
        await("the clock's next millisecond").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(1))
                .until(() -> System.currentTimeMillis() > millisecondOfA);
        assertThat(DateTime.currentMillisecond().compareTo(a)).isPositive();
    }
}
