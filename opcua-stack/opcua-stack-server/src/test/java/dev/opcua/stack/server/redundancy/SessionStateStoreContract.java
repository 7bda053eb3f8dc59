package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.session.SessionSnapshot;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SessionStateStore} keeps: incremental writes (as {@link SessionMirror} makes them, through a
 * {@link MirrorLedger}) that {@link SessionStateStore#find} assembles into the session the mirror last saw, and
 * the ownership rules two servers of a set rely on. Each implementation's test extends it.
 */
public abstract class SessionStateStoreContract {

    private static final String A = "urn:test:contract:a";
    private static final String B = "urn:test:contract:b";

    private SessionStateStore store;
    /** The mirror's clock ({@link System#nanoTime} in the server), advanced by the tests. */
    private long nowNanos = 1_000;
    private final NodeId token = NodeId.opaque(0, ByteString.wrap(UUID.randomUUID().toString().getBytes()));
    private final SessionSnapshot session = new SessionSnapshot(NodeId.guid(1, UUID.randomUUID()), "line 1", null,
            "opc.tcp://localhost:4840/", 60_000, 0, null, EndpointSecurity.NONE, Identity.user("operator"), 3,
            ByteString.wrap(new byte[32]));

    /** A new, empty store of the implementation under test. */
    protected abstract SessionStateStore openStore() throws Exception;

    @BeforeEach
    void open() throws Exception {
        store = openStore();
    }

    @AfterEach
    void close() {
        store.close();
    }

    private static DataValue value(int v) {
        return DataValue.of(Variant.ofInt32(v));
    }

    private static NotificationMessage message(long sequenceNumber, int value) {
        return new NotificationMessage(sequenceNumber, DateTime.ofEpochMillis(1_700_000_000_000L + sequenceNumber),
                new ExtensionObject[] {ExtensionObject.of(new DataChangeNotification(new MonitoredItemNotification[] {
                        new MonitoredItemNotification(1, value(value))}, null))});
    }

    private static DurableSubscriptionRecord.Item item(long id, List<DataValue> queued, DataValue last) {
        return new DurableSubscriptionRecord.Item(id, id, new ReadValueId(NodeId.string(2, "Line/" + id), 13, null,
                QualifiedName.NULL), MonitoringMode.Reporting, 100, 1_000, true, ExtensionObject.NULL,
                TimestampsToReturn.Both, false, queued, last, List.of());
    }

    private static DurableSubscriptionRecord subscription(long id, double interval, long next,
            List<NotificationMessage> sent, List<DurableSubscriptionRecord.Item> items) {
        return new DurableSubscriptionRecord(id, Identity.user("operator"), interval, 2_400, 10, 0, (short) 0, true, 0,
                1_800_000_000_000L, next, sent, items);
    }

    /** Writes the session as the mirror would, after {@code ledger} saw what was written before. */
    private SessionChanges write(MirrorLedger ledger, String owner, List<DurableSubscriptionRecord> subscriptions) {
        MirrorLedger.Prepared prepared = ledger.changes(session, Session.tokenHash(token), subscriptions, nowNanos);
        assertThat(prepared).as("something changed").isNotNull();
        assertThat(store.write(owner, List.of(prepared.changes()))).as("written").isEmpty();
        ledger.confirm(prepared);
        return prepared.changes();
    }

    private List<DurableSubscriptionRecord> found() {
        StoredSession stored = store.find(Session.tokenHash(token));
        assertThat(stored).isNotNull();
        assertThat(stored.session().session()).isEqualTo(session);
        return stored.session().subscriptions();
    }

    @Test
    void a_session_written_the_first_time_is_found_by_its_token_with_queues_and_unacknowledged_messages() {
        DurableSubscriptionRecord one = subscription(7, 100, 20, List.of(message(18, 1), message(19, 2)),
                List.of(item(1, List.of(value(3), value(4)), value(4)), item(2, List.of(), null)));
        DurableSubscriptionRecord two = subscription(8, 500, 1, List.of(), List.of());

        SessionChanges first = write(new MirrorLedger(), A, List.of(one, two));

        assertThat(first.replace()).isTrue();
        assertThat(found()).usingRecursiveComparison().isEqualTo(List.of(one, two));
        assertThat(store.find(Session.tokenHash(NodeId.opaque(0, ByteString.wrap(new byte[] {1}))))).isNull();
    }

    @Test
    void later_writes_carry_only_what_changed_and_the_store_applies_them() {
        MirrorLedger ledger = new MirrorLedger();
        DurableSubscriptionRecord before = subscription(7, 100, 20, List.of(message(18, 1), message(19, 2)),
                List.of(item(1, List.of(value(3)), value(3))));
        write(ledger, A, List.of(before));

        DurableSubscriptionRecord after = subscription(7, 100, 22, List.of(message(19, 2), message(20, 3),
                message(21, 4)), List.of(item(1, List.of(value(5)), value(5))));
        SessionChanges changes = write(ledger, A, List.of(after));

        SubscriptionChanges change = changes.subscriptions().get(0);
        assertThat(changes.session()).as("the session did not change").isNull();
        assertThat(changes.replace()).isFalse();
        assertThat(change.definition()).as("nor the subscription's definition").isNull();
        assertThat(change.acknowledged()).containsExactly(18L);
        assertThat(change.sent()).extracting(SubscriptionChanges.SentMessage::sequenceNumber).containsExactly(20L, 21L);
        assertThat(found()).usingRecursiveComparison().isEqualTo(List.of(after));
        assertThat(ledger.changes(session, Session.tokenHash(token), List.of(after), nowNanos))
                .as("nothing more to write").isNull();
    }

    @Test
    void a_changed_definition_is_rewritten_and_a_subscription_that_left_is_deleted_with_its_messages() {
        MirrorLedger ledger = new MirrorLedger();
        write(ledger, A, List.of(subscription(7, 100, 5, List.of(message(4, 1)), List.of(item(1, List.of(), null))),
                subscription(8, 100, 3, List.of(message(2, 9)), List.of())));

        DurableSubscriptionRecord modified = subscription(7, 250, 5, List.of(message(4, 1)),
                List.of(item(1, List.of(), null), item(2, List.of(value(6)), value(6))));
        SessionChanges changes = write(ledger, A, List.of(modified));

        assertThat(changes.subscriptions().get(0).definition()).isNotNull();
        assertThat(changes.removedSubscriptions()).containsExactly(8L);
        assertThat(found()).usingRecursiveComparison().isEqualTo(List.of(modified));
    }

    @Test
    void a_partner_reads_the_definitions_of_the_sessions_another_server_owns_and_not_its_own() {
        DurableSubscriptionRecord one = subscription(7, 100, 20, List.of(message(19, 2)),
                List.of(item(1, List.of(value(3)), value(3))));
        DurableSubscriptionRecord two = subscription(8, 500, 1, List.of(), List.of(item(2, List.of(), null)));
        write(new MirrorLedger(), A, List.of(one, two));

        List<MirroredDefinition> seenByB = store.definitionsOwnedByOthers(B);

        assertThat(seenByB).extracting(MirroredDefinition::sessionId, MirroredDefinition::owner,
                MirroredDefinition::subscriptionId).containsExactlyInAnyOrder(
                        org.assertj.core.groups.Tuple.tuple(session.sessionId(), A, 7L),
                        org.assertj.core.groups.Tuple.tuple(session.sessionId(), A, 8L));
        assertThat(seenByB).extracting(d -> MirroredSubscriptionCodec.decodeDefinition(d.definition()))
                .as("the definitions, without queues or counters")
                .containsExactlyInAnyOrder(MirroredSubscriptionCodec.definitionOf(one),
                        MirroredSubscriptionCodec.definitionOf(two));
        assertThat(store.definitionsOwnedByOthers(A)).as("the owner's own sessions").isEmpty();

        assertThat(store.claim(session.sessionId(), B, store.find(Session.tokenHash(token)).version())).isTrue();
        assertThat(store.definitionsOwnedByOthers(B)).as("claimed by B: B's own now").isEmpty();
        assertThat(store.definitionsOwnedByOthers(A)).hasSize(2);
    }

    @Test
    void a_replacing_write_drops_what_the_store_held_of_the_session() {
        write(new MirrorLedger(), A, List.of(subscription(7, 100, 5, List.of(message(4, 1)), List.of()),
                subscription(8, 100, 3, List.of(), List.of())));
        DurableSubscriptionRecord only = subscription(9, 100, 1, List.of(), List.of(item(1, List.of(), null)));

        SessionChanges changes = write(new MirrorLedger(), A, List.of(only));

        assertThat(changes.replace()).as("a ledger that knows nothing of the session replaces it").isTrue();
        assertThat(found()).usingRecursiveComparison().isEqualTo(List.of(only));
    }

    @Test
    void unacknowledged_messages_come_back_oldest_first_across_the_sequence_number_wrap() {
        List<NotificationMessage> sent = List.of(message(4_294_967_294L, 1), message(4_294_967_295L, 2),
                message(1, 3));

        write(new MirrorLedger(), A, List.of(subscription(7, 100, 2, sent, List.of())));

        assertThat(found().get(0).retransmission()).extracting(NotificationMessage::sequenceNumber)
                .containsExactly(4_294_967_294L, 4_294_967_295L, 1L);
    }

    @Test
    void many_items_and_messages_survive_a_round_trip() {
        List<DurableSubscriptionRecord.Item> items = IntStream.rangeClosed(1, 200)
                .mapToObj(i -> item(i, List.of(value(i), value(i + 1)), value(i + 1))).toList();
        List<NotificationMessage> sent = IntStream.rangeClosed(1, 50).mapToObj(i -> message(i, i)).toList();
        DurableSubscriptionRecord big = subscription(7, 100, 51, sent, items);

        write(new MirrorLedger(), A, List.of(big));

        assertThat(found()).usingRecursiveComparison().isEqualTo(List.of(big));
    }

    @Test
    void of_two_servers_claiming_one_session_one_wins_and_the_loser_may_no_longer_write_it() {
        MirrorLedger ledgerOfA = new MirrorLedger();
        DurableSubscriptionRecord atClaim = subscription(7, 100, 5, List.of(message(4, 1)), List.of());
        write(ledgerOfA, A, List.of(atClaim));

        StoredSession found = store.find(Session.tokenHash(token));
        assertThat(found.owner()).isEqualTo(A);
        assertThat(store.claim(session.sessionId(), B, found.version())).as("the first claim").isTrue();
        assertThat(store.claim(session.sessionId(), "urn:c", found.version())).as("a second with the same version")
                .isFalse();

        MirrorLedger.Prepared late = ledgerOfA.changes(session, Session.tokenHash(token),
                List.of(subscription(7, 100, 9, List.of(message(8, 2)), List.of())), nowNanos);
        assertThat(store.write(A, List.of(late.changes()))).as("A learns that B owns it")
                .containsExactly(session.sessionId());
        assertThat(found()).as("A's late changes not applied").usingRecursiveComparison().isEqualTo(List.of(atClaim));
        store.remove(A, List.of(session.sessionId()));
        assertThat(store.find(Session.tokenHash(token)).owner()).as("A cannot remove B's session").isEqualTo(B);
        store.remove(B, List.of(session.sessionId()));
        assertThat(store.find(Session.tokenHash(token))).isNull();
    }

    @Test
    void an_unchanged_session_is_written_empty_once_a_second_so_that_its_former_owner_learns_of_a_claim() {
        MirrorLedger ledgerOfA = new MirrorLedger();
        List<DurableSubscriptionRecord> unchanged = List.of(subscription(7, 100, 5, List.of(), List.of()));
        write(ledgerOfA, A, unchanged);
        StoredSession found = store.find(Session.tokenHash(token));
        assertThat(store.claim(session.sessionId(), B, found.version())).isTrue();

        nowNanos += MirrorLedger.OWNERSHIP_CHECK_NANOS - 1;
        assertThat(ledgerOfA.changes(session, Session.tokenHash(token), unchanged, nowNanos)).as("not yet").isNull();
        nowNanos += 1;
        MirrorLedger.Prepared check = ledgerOfA.changes(session, Session.tokenHash(token), unchanged, nowNanos);

        assertThat(check.changes().session()).isNull();
        assertThat(check.changes().subscriptions()).isEmpty();
        assertThat(store.write(A, List.of(check.changes()))).as("A learns that B owns it")
                .containsExactly(session.sessionId());
        store.remove(B, List.of(session.sessionId()));
        assertThat(store.write(A, List.of(check.changes()))).as("a session no longer stored is not A's either")
                .containsExactly(session.sessionId());
    }
}
