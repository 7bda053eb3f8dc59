package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.server.OpcUaServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * HotAndMirrored (Part 4, 6.6.2.4.5) over the in-memory store: the client's session and subscription go on on the
 * partner after a crash of the first server, nothing lost, nothing re-created.
 */
class MirroredFailoverIT {

    @Test
    void a_crashed_servers_session_goes_on_at_its_partner_with_every_queued_value_once_in_order() throws Exception {
        InMemorySessionStateStore store = new InMemorySessionStateStore();
        try (MirroredPair pair = new MirroredPair(store)) {
            int fromQueue = pair.crashAndFailOver(200, 20);
            assertThat(fromQueue).as("values A had queued at the crash, delivered by B").isPositive();
            assertThat(store.owner(pair.client.session().sessionId())).isEqualTo("urn:test:mirrored:b");
        }
    }

    @Test
    void a_hot_and_mirrored_server_without_a_session_state_store_refuses_to_start_naming_the_setting() {
        assertThatThrownBy(() -> OpcUaServer.builder().applicationUri("urn:test:mirrored:alone")
                .redundancy(RedundancySettings.of(RedundancyMode.HotAndMirrored,
                        new RedundancyPartner("urn:test:mirrored:other", "opc.tcp://localhost:4999/")))
                .build())
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("opcUaServer.sessionStateStore")
                .hasMessageContaining("HotAndMirrored");
        assertThat(List.of()).isEmpty();
    }
}
