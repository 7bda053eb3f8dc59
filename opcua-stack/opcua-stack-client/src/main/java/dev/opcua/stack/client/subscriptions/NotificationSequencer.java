package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.EventNotificationList;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.RepublishRequest;
import dev.opcua.stack.core.types.structured.RepublishResponse;
import dev.opcua.stack.core.types.structured.StatusChangeNotification;
import io.netty.util.Timeout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The receiving end of one subscription: its NotificationMessages (Part 4, 7.26), from Publish and
 * from Republish, handed to its listeners' queue in sequence-number order. A message that arrives
 * after a gap waits until the missing ones were fetched with Republish (5.13.6) or are known lost (the
 * server no longer has them: BadMessageNotAvailable, or absent from availableSequenceNumbers), so a
 * listener never sees an older value after a newer one.
 *
 * <p>Sequence numbers wrap from 4,294,967,295 to 1 (Part 4, 7.26): the sequencer counts them on as a
 * growing number ({@link #extend}), so ordering, gaps and Republish work across the wrap; requests and
 * acknowledgements carry the number as on the wire ({@link #wire}).
 *
 * <p>The Publish pipeline routes each response of the subscription straight to its sequencer, and
 * notes here when the last one arrived for its watchdog. Thread-safe; sequencing is guarded by this
 * object's monitor.
 */
final class NotificationSequencer {

    private static final Logger log = LoggerFactory.getLogger(NotificationSequencer.class);

    /** Most sequence numbers of one gap asked for again; older ones of a larger gap count as lost. */
    private static final int MAX_REPUBLISH_PER_GAP = 1000;
    /** Sequence numbers run 1..4294967295 and then start at 1 again (Part 4, 7.26 NotificationMessage). */
    static final long SEQUENCE_CYCLE = 0xFFFFFFFFL;
    private static final Object LOST = new Object();

    private final ClientSubscription subscription;
    private final ServiceInvoker services;
    private final Acknowledgements acknowledgements;
    private final SubscriptionCounters counters;
    private final NotificationDelivery delivery;

    // Guarded by `this`: the last sequence number handed to the listeners, messages (or LOST) beyond a
    // gap, the numbers asked for with Republish.
    private long lastDelivered;
    /** A delivered StatusChangeNotification said BadTimeout. */
    private boolean expiredAtServer;
    private final TreeMap<Long, Object> pending = new TreeMap<>();
    private final Set<Long> republishing = new HashSet<>();
    /** Changes when the server's subscription is replaced by a new one: answers for the old one are ignored. */
    private volatile int incarnation;
    /** Items that still filter a taken-over Hot mirror's queued values (see {@link #holdBackDelivered}). */
    private int holdingBack;
    /**
     * While a new client resumes the subscription ({@link #beginResume}): the messages that arrive before it
     * knows where the numbering stands; null otherwise. Guarded by {@code this}.
     */
    private List<Object[]> heldForResume;
    /** After a resume that found nothing to go by: the first message received sets the numbering. */
    private boolean numberFromFirst;
    /** After a reconnect: acknowledge what the server still holds that this side already has. */
    private volatile boolean acknowledgeAvailableOnce;

    // The Publish pipeline's watchdog, guarded by the pipeline.
    volatile long lastResponseNanos;
    Timeout watchdog;

    NotificationSequencer(ClientSubscription subscription, ServiceInvoker services, Acknowledgements acknowledgements,
            SubscriptionCounters counters, NotificationDelivery delivery) {
        this.subscription = subscription;
        this.services = services;
        this.acknowledgements = acknowledgements;
        this.counters = counters;
        this.delivery = delivery;
    }

    /**
     * A NotificationMessage of a Publish response (or of Republish when {@code republished}): handed
     * to the listeners in sequence order, gaps before it asked for with Republish, or counted lost
     * when {@code available} shows the server no longer has them.
     *
     * @param keepAlive a message without notifications, whose sequence number is the next one the
     *        server will use (Part 4, 5.13.1.1)
     */
    void onMessage(NotificationMessage message, boolean keepAlive, long[] available, boolean republished) {
        long[] toFetch = null;
        int inc;
        synchronized (this) {
            if (heldForResume != null) {
                heldForResume.add(new Object[] {message, keepAlive, available, republished});
                return;
            }
            if (numberFromFirst) {
                numberFromFirst = false;
                lastDelivered = message.sequenceNumber() - 1;
            }
            long seq = extend(message.sequenceNumber());
            inc = incarnation;
            if (!keepAlive) {
                if (republished) {
                    republishing.remove(seq);
                }
                if (seq <= lastDelivered || pending.containsKey(seq)) {
                    return; // a duplicate: a Republish answered after the original arrived
                }
                if (seq == lastDelivered + 1) {
                    deliver(message);
                    lastDelivered = seq;
                    if (!pending.isEmpty()) {
                        drainPending();
                    }
                } else {
                    pending.put(seq, message);
                }
            }
            if (!republished && seq > lastDelivered + 1) {
                toFetch = missingBefore(seq, available);
            }
            if (acknowledgeAvailableOnce && !republished && available != null) {
                acknowledgeAvailableOnce = false;
                long id = subscription.subscriptionId();
                for (long wire : available) {
                    long n = extend(wire);
                    if (n <= lastDelivered && n != seq) {
                        acknowledgements.add(id, wire);
                    }
                }
            }
        }
        delivery.flush();
        if (toFetch != null) {
            for (long n : toFetch) {
                republish(inc, n);
            }
        }
        boolean expired;
        synchronized (this) {
            expired = expiredAtServer;
            expiredAtServer = false;
        }
        if (expired) {
            subscription.expiredAtServer();
        }
    }

    /**
     * The subscription was transferred to the current session (TransferSubscriptions, Part 4, 5.13.7):
     * what the server still holds beyond the last number received is asked for with Republish, what it
     * holds that was received already is acknowledged.
     */
    void transferred(long[] availableSequenceNumbers) {
        List<Long> toFetch = new ArrayList<>();
        int inc;
        synchronized (this) {
            inc = incarnation;
            if (availableSequenceNumbers != null) {
                for (long wire : availableSequenceNumbers) {
                    long n = extend(wire);
                    if (n <= lastDelivered || pending.containsKey(n)) {
                        acknowledgements.add(subscription.subscriptionId(), wire);
                    } else if (republishing.add(n)) {
                        toFetch.add(n);
                    }
                }
            }
        }
        for (long n : toFetch) {
            republish(inc, n);
        }
    }

    /**
     * A new client takes the subscription over from an earlier one ({@link ClientSubscriptions#resume}): until
     * {@link #resumed} its messages are held, not delivered.
     */
    synchronized void beginResume() {
        heldForResume = new ArrayList<>();
    }

    /**
     * The resumed subscription was transferred to this client's session (Part 4, 5.13.7) and its items are known:
     * the numbering continues after {@code deliveredUpTo} (the earlier client's last delivered number, 0 when
     * unknown), or after what the server acknowledged already (the number before the first it still holds):
     * those the server still holds beyond are fetched with Republish, the others acknowledged. With nothing to go
     * by (no number known, nothing held), the first message received sets the numbering. The messages held
     * meanwhile are then handled in the order they came.
     */
    void resumed(long deliveredUpTo, long[] availableSequenceNumbers) {
        List<Object[]> held;
        synchronized (this) {
            boolean holds = availableSequenceNumbers != null && availableSequenceNumbers.length > 0;
            long acknowledgedUpTo = holds ? availableSequenceNumbers[0] - 1 : 0;
            if (deliveredUpTo == 0 && !holds) {
                numberFromFirst = true;
            } else {
                lastDelivered = Math.max(deliveredUpTo, acknowledgedUpTo);
            }
            held = heldForResume;
            heldForResume = null;
            log.info("subscription {} resumed: delivered up to {} before, the server holds {} messages ({} to {}), "
                    + "numbering on from {}; {} messages received meanwhile", subscription.subscriptionId(),
                    deliveredUpTo, holds ? availableSequenceNumbers.length : 0,
                    holds ? availableSequenceNumbers[0] : "-",
                    holds ? availableSequenceNumbers[availableSequenceNumbers.length - 1] : "-",
                    numberFromFirst ? "the first message" : Long.toString(lastDelivered + 1),
                    held == null ? 0 : held.size());
        }
        transferred(availableSequenceNumbers);
        if (held != null) {
            for (Object[] m : held) {
                onMessage((NotificationMessage) m[0], (Boolean) m[1], (long[]) m[2], (Boolean) m[3]);
            }
        }
    }

    /** The sequence number (as on the wire) of the last message handed to the listeners, 0 before any. */
    synchronized long lastDeliveredWire() {
        return lastDelivered == 0 ? 0 : wire(lastDelivered);
    }

    /**
     * A Hot takeover (Part 4, 6.6.2.4.5.4): the adopted mirror's items queued, while publishing was disabled,
     * values the listeners already had from the old server; likewise a durable subscription transferred from a
     * server restored after a crash (Part 4, 6.8) holds the values queued at its last snapshot, some of which
     * it sent before the crash, and so does a HotAndMirrored partner that restored the session from the shared
     * state. Per item, a data-change value whose source
     * timestamp is not newer than the newest one delivered is dropped, until the first newer one arrives;
     * values without a source timestamp pass. Both servers stamp a value from the same source, so the
     * timestamps agree; servers that stamp it themselves with clocks apart may let the value at the
     * boundary through twice.
     */
    void holdBackDelivered(List<ClientMonitoredItem> items) {
        synchronized (this) {
            holdingBack = 0;
            for (ClientMonitoredItem item : items) {
                item.takeoverWatermark = item.isEventItem() ? 0 : item.deliveredSourceTicks();
                if (item.takeoverWatermark != 0) {
                    holdingBack++;
                }
            }
        }
    }

    /** After the session was re-activated on a new channel: the next response's available numbers are acknowledged. */
    void reactivated() {
        acknowledgeAvailableOnce = true;
    }

    /**
     * The server's subscription is replaced by a new one (a recreate): its numbers start at 1 again,
     * and answers still under way for the old one are ignored.
     */
    void restart() {
        synchronized (this) {
            incarnation++;
            holdingBack = 0;
            lastDelivered = 0;
            heldForResume = null;
            numberFromFirst = false;
            pending.clear();
            republishing.clear();
        }
        acknowledgeAvailableOnce = false;
    }

    /** Numbers between the last delivered and {@code upTo} neither here nor asked for; lost ones marked. */
    private long[] missingBefore(long upTo, long[] available) {
        long from = lastDelivered + 1;
        // Part 4, 5.14.5.2: availableSequenceNumbers lists what the server can retransmit, so an empty list says
        // it holds none (a restored durable subscription numbers on past a gap of a thousand or more)
        boolean known = available != null;
        if (upTo - from > MAX_REPUBLISH_PER_GAP) {
            for (long n = from; n < upTo - MAX_REPUBLISH_PER_GAP; n++) {
                if (!pending.containsKey(n) && !republishing.contains(n)) {
                    markLost(n);
                }
            }
            from = upTo - MAX_REPUBLISH_PER_GAP;
        }
        long[] fetch = null;
        int count = 0;
        for (long n = from; n < upTo; n++) {
            if (pending.containsKey(n) || republishing.contains(n)) {
                continue;
            }
            if (known && !contains(available, wire(n))) {
                markLost(n); // acknowledged messages are never missing: the server dropped it
            } else {
                if (fetch == null) {
                    fetch = new long[(int) (upTo - n)];
                }
                fetch[count++] = n;
                republishing.add(n);
            }
        }
        drainPending();
        return fetch == null ? null : Arrays.copyOf(fetch, count);
    }

    /** Republish of the message {@code seq} (extended; see {@link #extend}). */
    private void republish(int inc, long seq) {
        long id = subscription.subscriptionId();
        long wire = wire(seq);
        services.send(h -> new RepublishRequest(h, id, wire), RepublishResponse.class).whenComplete((response, f) -> {
            if (inc != incarnation) {
                return;
            }
            NotificationMessage m = response == null ? null : response.notificationMessage();
            if (f == null && m != null && m.sequenceNumber() == wire && m.notificationData() != null
                    && m.notificationData().length > 0) {
                counters.countRepublished();
                onMessage(m, false, null, true);
                acknowledgements.add(id, wire);
                return;
            }
            int code = f == null ? StatusCodes.BadMessageNotAvailable : Failures.status(f);
            synchronized (this) {
                if (inc != incarnation) {
                    return;
                }
                republishing.remove(seq);
                if (isDefinitelyGone(code) && seq > lastDelivered && !pending.containsKey(seq)) {
                    if (isOverLimits(code)) {
                        log.warn("subscription {}: NotificationMessage {} exceeds this client's message limits "
                                + "({}): counted lost; raise the transport quotas or set maxNotificationsPerPublish",
                                id, wire, StatusCode.of(code));
                    }
                    markLost(seq);
                    drainPending();
                }
                // else: a timeout or a lost connection; the next response finds the gap again
            }
            delivery.flush();
        });
    }

    /**
     * A sequence number from the wire as a number that keeps growing across the wrap from 4294967295
     * to 1: the one of its cycle nearest the last delivered (under the lock). The sequencer (pending,
     * republishing, gaps) counts in these; requests and acknowledgements carry {@link #wire}.
     */
    private long extend(long wireNumber) {
        long reference = lastDelivered;
        long k = Math.floorDiv(reference - wireNumber, SEQUENCE_CYCLE);
        long below = wireNumber + k * SEQUENCE_CYCLE;
        long above = below + SEQUENCE_CYCLE;
        return below >= 1 && reference - below <= above - reference ? below : above;
    }

    /** The sequence number as the server writes it, 1..4294967295. */
    static long wire(long extended) {
        return (extended - 1) % SEQUENCE_CYCLE + 1;
    }

    /** Tests: as if every message up to {@code wireNumber} had been delivered. */
    synchronized void deliveredUpTo(long wireNumber) {
        lastDelivered = wireNumber;
    }

    /**
     * Whether a failed Republish means the message will never arrive. Besides the server no longer holding
     * it, that is a message over this client's limits (BadResponseTooLarge, or BadEncodingLimitsExceeded
     * when it was decoded): asking again returns the same message, and Part 4, 5.14.5.1 leaves the client
     * only to change its limits or the subscription's parameters. Waiting for it would hold back every
     * later message of the subscription.
     */
    private static boolean isDefinitelyGone(int code) {
        return code == StatusCodes.BadMessageNotAvailable || code == StatusCodes.BadSequenceNumberUnknown
                || code == StatusCodes.BadSubscriptionIdInvalid || code == StatusCodes.BadServiceUnsupported
                || code == StatusCodes.BadNotSupported || isOverLimits(code);
    }

    static boolean isOverLimits(int code) {
        return code == StatusCodes.BadResponseTooLarge || code == StatusCodes.BadEncodingLimitsExceeded;
    }

    private void markLost(long n) {
        pending.put(n, LOST);
        counters.countLost();
    }

    private void drainPending() {
        while (!pending.isEmpty() && pending.firstKey() == lastDelivered + 1) {
            Object next = pending.pollFirstEntry().getValue();
            if (next != LOST) {
                deliver((NotificationMessage) next);
            }
            lastDelivered++;
        }
    }

    /** Hands the notifications of a message to the listeners' queue (under the lock). */
    private void deliver(NotificationMessage message) {
        ExtensionObject[] data = message.notificationData();
        if (data == null) {
            return;
        }
        for (ExtensionObject eo : data) {
            UaStructure d = eo == null ? null : eo.decoded();
            if (d instanceof DataChangeNotification dcn) {
                if (dcn.monitoredItems() != null) {
                    MonitoredItemNotification[] changes = holdingBack > 0 ? withoutDelivered(dcn.monitoredItems())
                            : dcn.monitoredItems();
                    counters.countNotifications(changes.length);
                    delivery.offerDataChanges(changes);
                }
            } else if (d instanceof EventNotificationList events) {
                if (events.events() != null) {
                    counters.countNotifications(events.events().length);
                    delivery.offerEvents(events.events());
                }
            } else if (d instanceof StatusChangeNotification change) {
                subscription.statusChanged(change.status());
                delivery.offerStatus(change.status());
                if (change.status() != null && change.status().isSameCode(StatusCodes.BadTimeout)) {
                    expiredAtServer = true; // recreated once onMessage has left the lock
                }
            }
        }
    }

    /** The values not held back by {@link #holdBackDelivered} (under the lock); the array itself when none is. */
    private MonitoredItemNotification[] withoutDelivered(MonitoredItemNotification[] in) {
        ItemsByHandle byHandle = subscription.itemsByHandle();
        MonitoredItemNotification[] out = null;
        int kept = 0;
        for (int i = 0; i < in.length; i++) {
            MonitoredItemNotification n = in[i];
            ClientMonitoredItem item = byHandle.get((int) n.clientHandle());
            boolean drop = false;
            if (item != null && item.takeoverWatermark != 0) {
                DateTime source = n.value() == null ? null : n.value().sourceTimestamp();
                if (source == null || source.isNull()) {
                    // cannot be judged: it passes, and the item's queued values after it are still filtered
                } else if (source.utcTicks() <= item.takeoverWatermark) {
                    drop = true;
                } else {
                    item.takeoverWatermark = 0;
                    holdingBack--;
                }
            }
            if (drop) {
                counters.countTakeoverDuplicate();
                if (out == null) {
                    out = Arrays.copyOf(in, in.length);
                    kept = i;
                }
            } else if (out != null) {
                out[kept++] = n;
            }
        }
        return out == null ? in : Arrays.copyOf(out, kept);
    }

    private static boolean contains(long[] values, long n) {
        for (long v : values) {
            if (v == n) {
                return true;
            }
        }
        return false;
    }
}
