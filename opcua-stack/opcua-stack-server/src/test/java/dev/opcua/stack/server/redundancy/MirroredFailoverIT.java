package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.redundancy.FailoverPath;
import dev.opcua.stack.core.types.builtin.NodeId;

import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.server.OpcUaServer;
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
    void a_server_whose_session_the_partner_claimed_drops_it_and_leaves_the_stored_state_to_the_partner()
            throws Exception {
        InMemorySessionStateStore store = new InMemorySessionStateStore();
        try (MirroredPair pair = new MirroredPair(store)) {
            NodeId sessionId = pair.client.session().sessionId();
            await().atMost(MirroredPair.WAIT).until(() -> "urn:test:mirrored:a".equals(store.owner(sessionId)));
            pair.a.serviceLevel().degrade("test: move the clients to the partner");
            await().atMost(MirroredPair.WAIT).until(() -> pair.failovers.size() == 1
                    && pair.client.state() == ClientState.CONNECTED);
            assertThat(pair.failovers.get(0).path()).isEqualTo(FailoverPath.SESSION_REACTIVATED);
            assertThat(pair.client.session().sessionId()).isEqualTo(sessionId);
            await().atMost(MirroredPair.WAIT).alias("A dropped the session B claimed")
                    .until(() -> pair.a.statistics().sessions().stream().noneMatch(s -> s.sessionId().equals(sessionId)));
            assertThat(store.owner(sessionId)).as("the stored state stays, B's").isEqualTo("urn:test:mirrored:b");
            pair.valueB.set("Value", 7);
            await().atMost(MirroredPair.WAIT).until(() -> pair.received.contains(7));
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
    }
}
