package dev.opcua.stack.client.connection;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The delays between reconnect attempts: doubling steps, each drawn from the upper half of its step. */
class BackoffTest {

    private static final int DRAWS = 2_000;

    @Test
    void each_delay_lies_in_the_upper_half_of_a_step_that_doubles_per_failed_attempt() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(60));
        for (long step = 100; step <= 6_400; step *= 2) {
            long delay = backoff.nextDelayMillis();
            assertThat(delay).as("step %d ms", step).isBetween(Math.max(100, step / 2), step);
        }
        assertThat(backoff.failures()).isEqualTo(7);
    }

    @Test
    void the_delays_stop_growing_at_the_maximum_and_never_exceed_it() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofMillis(1_000));
        for (int attempt = 0; attempt < 100; attempt++) {
            backoff.nextDelayMillis();
        }
        for (int i = 0; i < DRAWS; i++) {
            assertThat(backoff.nextDelayMillis()).isBetween(500L, 1_000L);
        }
    }

    @Test
    void the_first_delay_is_never_below_the_initial_delay() {
        for (int i = 0; i < DRAWS; i++) {
            assertThat(new Backoff(Duration.ofMillis(100), Duration.ofSeconds(1)).nextDelayMillis()).isEqualTo(100);
        }
    }

    @Test
    void the_jitter_spreads_the_delays_of_clients_that_failed_alike() {
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < DRAWS; i++) {
            Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(60));
            backoff.nextDelayMillis();
            backoff.nextDelayMillis();
            seen.add(backoff.nextDelayMillis()); // step 400 ms: any of 200..400
        }
        assertThat(seen).as("distinct delays of the third attempt").hasSizeGreaterThan(100)
                .allMatch(d -> d >= 200 && d <= 400);
    }

    @Test
    void after_a_reset_the_next_delay_starts_again_at_the_initial_step() {
        Backoff backoff = new Backoff(Duration.ofMillis(100), Duration.ofSeconds(60));
        for (int attempt = 0; attempt < 10; attempt++) {
            backoff.nextDelayMillis();
        }
        backoff.reset();
        assertThat(backoff.failures()).isZero();
        assertThat(backoff.nextDelayMillis()).isEqualTo(100);
    }

    @Test
    void a_maximum_below_the_initial_delay_and_a_zero_initial_delay_still_give_positive_delays() {
        List<Long> delays = new ArrayList<>();
        Backoff zero = new Backoff(Duration.ZERO, Duration.ZERO);
        Backoff inverted = new Backoff(Duration.ofMillis(300), Duration.ofMillis(100));
        for (int i = 0; i < 40; i++) {
            delays.add(zero.nextDelayMillis());
            assertThat(inverted.nextDelayMillis()).isEqualTo(300);
        }
        assertThat(delays).containsOnly(1L);
    }
}
