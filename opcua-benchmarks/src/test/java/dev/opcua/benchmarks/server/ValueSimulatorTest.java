package dev.opcua.benchmarks.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

class ValueSimulatorTest {

    private static final int RATE = 2_000;
    private static final int VARIABLES = 10;

    @Test
    void two_simulators_on_one_epoch_stamp_each_value_with_the_moment_it_was_due() {
        long epoch = System.currentTimeMillis() - 5_000;
        Map<Long, Instant> first = new ConcurrentHashMap<>();
        Map<Long, Instant> second = new ConcurrentHashMap<>();
        try (ValueSimulator<Instant> a = new ValueSimulator<>(VARIABLES, RATE, recording(first), epoch);
                ValueSimulator<Instant> b = new ValueSimulator<>(VARIABLES, RATE, recording(second), epoch)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> first.size() >= 200 && second.size() >= 200);
        }

        Map<Long, Instant> both = new java.util.HashMap<>(first);
        both.keySet().retainAll(second.keySet());
        assertThat(both).as("values both set").hasSizeGreaterThan(100);
        both.forEach((n, time) -> {
            assertThat(second.get(n)).as("value %d on the other server", n).isEqualTo(time);
            assertThat(time).as("value %d", n).isEqualTo(Instant.ofEpochMilli(epoch).plusNanos(n * 1_000_000_000L / RATE));
        });
    }

    @Test
    void consecutive_values_of_one_variable_get_increasing_timestamps() {
        assertThat(ValueSimulator.dueAt(1_000, 10_000, 0)).isEqualTo(Instant.ofEpochMilli(1_000));
        assertThat(ValueSimulator.dueAt(1_000, 10_000, 1)).isEqualTo(Instant.ofEpochMilli(1_000).plusNanos(100_000));
        assertThat(ValueSimulator.dueAt(1_000, 10_000, 1_000))
                .isAfter(ValueSimulator.dueAt(1_000, 10_000, 0));
    }

    /** Records value number → source timestamp. */
    private static ValueSimulator.Target<Instant> recording(Map<Long, Instant> times) {
        return new ValueSimulator.Target<>() {
            @Override
            public Instant timestamp(Instant now) {
                return now;
            }

            @Override
            public void set(int variable, double value, Instant time) {
                times.put((long) value - BenchAddressSpace.SIMULATION_BASE, time);
            }

            @Override
            public void progress(long count) {
            }
        };
    }
}
