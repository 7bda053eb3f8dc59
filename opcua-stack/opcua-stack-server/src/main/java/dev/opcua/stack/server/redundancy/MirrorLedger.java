package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.server.session.SessionSnapshot;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * What a {@link SessionMirror} knows the store holds of each session it wrote, and the {@link SessionChanges} of a
 * new snapshot against it: the parts that differ, the messages sent since and those acknowledged since. Only
 * confirmed writes change the ledger ({@link #confirm}), so after a failed write the next snapshot's changes cover
 * everything the store missed. Used on the mirror thread only.
 */
final class MirrorLedger {

    /** The end of a lifetime moves with every Publish; it is rewritten when it moved by this much. */
    private static final long EXPIRY_TOLERANCE_MILLIS = 1_000;

    /**
     * A session that did not change is still written (an empty change) this often, so that a server whose session
     * a partner claimed learns it (the write is refused) and drops the session, changes or not.
     */
    static final long OWNERSHIP_CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    /** A session whose stored state is unknown (never written, or dropped): its next write replaces it whole. */
    private static final Written UNKNOWN = new Written(null, Map.of(), Long.MIN_VALUE);

    /** What the store holds of one session, and when it was last written ({@link System#nanoTime}). */
    record Written(byte[] session, Map<Long, WrittenSubscription> subscriptions, long writtenAtNanos) {
    }

    /** What the store holds of one subscription. */
    record WrittenSubscription(DurableSubscriptionRecord definition, long nextSequenceNumber,
            long expiresAtMillis, List<MirroredSubscriptionCodec.ItemQueue> queues, Set<Long> messages) {
    }

    /** Changes to write and the ledger's entry once they are written. */
    record Prepared(SessionChanges changes, Written written) {
    }

    private final Map<NodeId, Written> written = new HashMap<>();

    /**
     * The changes of one session's snapshot against what was written; null when nothing changed and the session was
     * written less than {@link #OWNERSHIP_CHECK_NANOS} ago (else empty changes, which check the ownership).
     *
     * @param nowNanos {@link System#nanoTime} now
     */
    Prepared changes(SessionSnapshot snapshot, byte[] tokenHash, List<DurableSubscriptionRecord> subscriptions,
            long nowNanos) {
        Written before = written.getOrDefault(snapshot.sessionId(), UNKNOWN);
        boolean replace = before == UNKNOWN;
        byte[] session = MirroredSessionCodec.encodeSession(snapshot);
        boolean sessionChanged = replace || !Arrays.equals(session, before.session());
        Map<Long, WrittenSubscription> after = new HashMap<>();
        List<SubscriptionChanges> changed = new ArrayList<>();
        for (DurableSubscriptionRecord record : subscriptions) {
            WrittenSubscription previous = before.subscriptions().get(record.subscriptionId());
            WrittenSubscription now = written(record, previous);
            after.put(record.subscriptionId(), now);
            SubscriptionChanges change = changes(record, previous, now);
            if (change != null) {
                changed.add(change);
            }
        }
        List<Long> removed = new ArrayList<>();
        for (Long id : before.subscriptions().keySet()) {
            if (!after.containsKey(id)) {
                removed.add(id);
            }
        }
        if (!sessionChanged && changed.isEmpty() && removed.isEmpty()
                && nowNanos - before.writtenAtNanos() < OWNERSHIP_CHECK_NANOS) {
            return null;
        }
        return new Prepared(new SessionChanges(snapshot.sessionId(), tokenHash, sessionChanged ? session : null,
                replace, changed, removed), new Written(session, after, nowNanos));
    }

    /** The record as the store will hold it; the end of its lifetime as written while it moved by little. */
    private static WrittenSubscription written(DurableSubscriptionRecord record, WrittenSubscription previous) {
        Set<Long> messages = new HashSet<>();
        for (NotificationMessage message : record.retransmission()) {
            messages.add(message.sequenceNumber());
        }
        long expiresAt = record.expiresAtMillis();
        if (previous != null && previous.nextSequenceNumber() == record.nextSequenceNumber()
                && Math.abs(previous.expiresAtMillis() - expiresAt) < EXPIRY_TOLERANCE_MILLIS) {
            expiresAt = previous.expiresAtMillis();
        }
        return new WrittenSubscription(MirroredSubscriptionCodec.definitionOf(record), record.nextSequenceNumber(),
                expiresAt, MirroredSubscriptionCodec.queuesOf(record), messages);
    }

    private static SubscriptionChanges changes(DurableSubscriptionRecord record, WrittenSubscription previous,
            WrittenSubscription now) {
        boolean whole = previous == null;
        byte[] definition = whole || !previous.definition().equals(now.definition())
                ? MirroredSubscriptionCodec.encodeDefinition(now.definition()) : null;
        byte[] queues = whole || !previous.queues().equals(now.queues())
                ? MirroredSubscriptionCodec.encodeQueues(now.queues()) : null;
        List<SubscriptionChanges.SentMessage> sent = new ArrayList<>();
        for (NotificationMessage message : record.retransmission()) {
            if (whole || !previous.messages().contains(message.sequenceNumber())) {
                sent.add(new SubscriptionChanges.SentMessage(message.sequenceNumber(),
                        MirroredSubscriptionCodec.encodeMessage(message)));
            }
        }
        List<Long> acknowledged = new ArrayList<>();
        if (!whole) {
            for (Long number : previous.messages()) {
                if (!now.messages().contains(number)) {
                    acknowledged.add(number);
                }
            }
        }
        boolean counters = whole || previous.nextSequenceNumber() != now.nextSequenceNumber()
                || previous.expiresAtMillis() != now.expiresAtMillis();
        if (definition == null && queues == null && sent.isEmpty() && acknowledged.isEmpty() && !counters) {
            return null;
        }
        return new SubscriptionChanges(record.subscriptionId(), definition, now.nextSequenceNumber(),
                now.expiresAtMillis(), queues, sent, acknowledged);
    }

    /** The prepared changes were written: the ledger holds what the store now holds. */
    void confirm(Prepared prepared) {
        written.put(prepared.changes().sessionId(), prepared.written());
    }

    /** The session left the store (removed, or claimed by a partner). */
    void forget(NodeId sessionId) {
        written.remove(sessionId);
    }

    /** What the store holds is no longer known: every session's next write replaces it whole. */
    void forgetContents() {
        written.replaceAll((id, w) -> UNKNOWN);
    }

    /** The sessions this mirror wrote and has not removed. */
    Set<NodeId> sessionIds() {
        return written.keySet();
    }
}
