package dev.opcua.stack.server.transport.uasc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** SecureChannelIds (Part 6, 6.7.2.2): never 0, unique among live channels, seeded randomly. */
class SecureChannelIdsTest {

    @Test
    void ids_wrap_around_the_u_int32_range_without_zero() {
        SecureChannelIds ids = new SecureChannelIds(0xFFFF_FFFEL);

        assertThat(ids.acquire()).isEqualTo(0xFFFF_FFFFL);
        assertThat(ids.acquire()).isEqualTo(1);
    }

    @Test
    void live_ids_are_unique() {
        SecureChannelIds ids = new SecureChannelIds(5);
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            assertThat(seen.add(ids.acquire())).isTrue();
        }
        assertThat(ids.liveCount()).isEqualTo(1000);
        seen.forEach(ids::release);
        assertThat(ids.liveCount()).isZero();
    }

    @Test
    void two_servers_start_at_different_ids() {
        assertThat(new SecureChannelIds().acquire()).isNotEqualTo(new SecureChannelIds().acquire());
    }
}
