package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import dev.opcua.stack.core.types.enumerated.ServerState;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class RedundancyServiceLevelCalculatorTest {

    private final AtomicReference<ServerState> state = new AtomicReference<>(ServerState.Running);
    private volatile double fill;
    private volatile ServiceLevelStatus source = ServiceLevelStatus.healthy();
    private final ServiceLevelCalculator calculator = new ServiceLevelCalculator(state::get, () -> fill,
            List.of(() -> source));

    @Test
    void healthy_is_255() {
        assertThat(calculator.level()).isEqualTo((short) 255);
        assertThat(calculator.assess().band()).isEqualTo(ServiceLevelStatus.Band.HEALTHY);
    }

    @Test
    void a_shutdown_or_stopped_server_is_0_whatever_else() {
        calculator.set(255, "operator says fine");
        state.set(ServerState.Shutdown);
        assertThat(calculator.level()).isEqualTo((short) 0);
        assertThat(calculator.assess().reason()).contains("Shutdown");
    }

    @Test
    void the_request_queue_degrades_from_half_full_to_100_when_full() {
        fill = 0.49;
        assertThat(calculator.level()).isEqualTo((short) 255);
        fill = 0.5;
        assertThat(calculator.level()).isEqualTo((short) 199);
        fill = 0.75;
        assertThat(calculator.level()).isBetween((short) 149, (short) 150);
        fill = 1.0;
        assertThat(calculator.level()).isEqualTo((short) 100);
        assertThat(calculator.assess().reason()).isEqualTo("the request queue is 100% full");
        fill = Double.NaN;
        assertThat(calculator.level()).isEqualTo((short) 255);
    }

    @Test
    void the_lowest_contribution_wins_with_its_reason() {
        source = ServiceLevelStatus.noData("PLC line 1 unreachable");
        fill = 1.0;
        assertThat(calculator.assess()).isEqualTo(new ServiceLevelStatus(1, "PLC line 1 unreachable"));
        source = null; // null counts as healthy
        assertThat(calculator.level()).isEqualTo((short) 100);
    }

    @Test
    void a_contributor_that_throws_counts_as_degraded() {
        calculator.addContributor(() -> {
            throw new IllegalStateException("boom");
        });
        assertThat(calculator.level()).isEqualTo((short) ServiceLevelCalculator.FAILED_CHECK_LEVEL);
        assertThat(calculator.assess().reason()).contains("boom");
    }

    @Test
    void the_override_is_a_ceiling_until_cleared() {
        calculator.degrade("moving clients to the partner");
        assertThat(calculator.assess()).isEqualTo(new ServiceLevelStatus(100, "moving clients to the partner"));
        calculator.set(0, "maintenance");
        assertThat(calculator.level()).isEqualTo((short) 0);
        source = ServiceLevelStatus.degraded(50, "half the sources down");
        calculator.set(220, "operator");
        assertThat(calculator.level()).isEqualTo((short) 50); // the override does not lift a degraded server
        calculator.clear();
        source = ServiceLevelStatus.healthy();
        assertThat(calculator.level()).isEqualTo((short) 255);
        assertThat(calculator.override()).isNull();
    }

    @Test
    void levels_keep_to_the_sub_ranges_of_part_4() {
        assertThatIllegalArgumentException().isThrownBy(() -> calculator.set(256, null));
        assertThatIllegalArgumentException().isThrownBy(() -> ServiceLevelStatus.degraded(1, "x"));
        assertThatIllegalArgumentException().isThrownBy(() -> ServiceLevelStatus.degraded(200, "x"));
        assertThat(ServiceLevelStatus.Band.of(0)).isEqualTo(ServiceLevelStatus.Band.MAINTENANCE);
        assertThat(ServiceLevelStatus.Band.of(1)).isEqualTo(ServiceLevelStatus.Band.NO_DATA);
        assertThat(ServiceLevelStatus.Band.of(199)).isEqualTo(ServiceLevelStatus.Band.DEGRADED);
        assertThat(ServiceLevelStatus.Band.of(200)).isEqualTo(ServiceLevelStatus.Band.HEALTHY);
    }
}
