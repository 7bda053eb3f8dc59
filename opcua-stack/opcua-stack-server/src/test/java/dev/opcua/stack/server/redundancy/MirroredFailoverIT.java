package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.redundancy.FailoverPath;
import dev.opcua.stack.core.types.builtin.DateTime;
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
    void values_that_change_after_the_last_mirror_write_reach_the_client_from_the_partners_standby_items()
            throws Exception {
        InMemorySessionStateStore store = new InMemorySessionStateStore();
        try (MirroredPair pair = new MirroredPair(store)) {
            await().atMost(MirroredPair.WAIT).alias("B samples the item of A's session while standing by")
                    .until(() -> pair.b.sessionMirror().standbyItems() == 1);
            int before = 50;
            int gap = 60;
            int after = 10;
            for (int i = 1; i <= before; i++) {
                setOnBoth(pair, i);
            }
            await().atMost(MirroredPair.WAIT).until(() -> pair.received.contains(before));
            assertThat(pair.a.sessionMirror().flushNow()).as("A's last state written").isTrue();
            pair.a.sessionMirror().abandon(); // A writes nothing more: what changes now is in no stored state
            for (int i = before + 1; i <= before + gap / 2; i++) {
                setOnBoth(pair, i);
            }
            pair.a.halt();
            for (int i = before + gap / 2 + 1; i <= before + gap; i++) {
                pair.valueB.set("Value", i, sourceTime(i)); // A is gone; the plant goes on
            }
            assertThat(pair.b.sessionMirror().takenOverSessions()).as("changed before the takeover").isZero();
            await().atMost(MirroredPair.WAIT).until(() -> pair.client.state() == ClientState.CONNECTED
                    && pair.failovers.size() == 1);
            for (int i = before + gap + 1; i <= before + gap + after; i++) {
                pair.valueB.set("Value", i, sourceTime(i));
            }
            await().atMost(MirroredPair.WAIT).until(() -> pair.received.contains(before + gap + after));

            pair.assertEveryValueOnceInOrder(before + gap + after);
            assertThat(pair.failovers.get(0).path()).isEqualTo(FailoverPath.SESSION_REACTIVATED);
            assertThat(pair.b.sessionMirror().standbyValuesAppended()).as("the gap, from B's standby item")
                    .isEqualTo(gap);
            assertThat(pair.b.sessionMirror().standbyItems()).as("the taken-over session is not shadowed").isZero();
        }
    }

    private static final long EPOCH = System.currentTimeMillis();

    /** The device's timestamp of value n: a millisecond apart, so that no two values share one. */
    private static DateTime sourceTime(int value) {
        return DateTime.ofEpochMillis(EPOCH + value);
    }

    /** One change of the plant, seen by both servers with the device's timestamp. */
    private static void setOnBoth(MirroredPair pair, int value) {
        pair.valueA.set("Value", value, sourceTime(value));
        pair.valueB.set("Value", value, sourceTime(value));
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
