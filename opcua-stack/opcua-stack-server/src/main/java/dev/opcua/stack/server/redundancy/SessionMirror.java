package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.session.SessionManager;
import dev.opcua.stack.server.session.SessionSnapshot;
import dev.opcua.stack.server.session.SessionTakeover;
import dev.opcua.stack.server.subscriptions.ItemContainerFactory;
import dev.opcua.stack.server.subscriptions.SubscriptionManager;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HotAndMirrored half of a server (Part 4, 6.6.2.4.5; Part 5, 6.3.9): it keeps this server's sessions in the
 * shared {@link SessionStateStore} and takes over a partner's sessions when their clients activate them here.
 *
 * <ul>
 *   <li>Writing: every {@link SessionMirrorSettings#interval()} the {@code opcua-session-mirror} thread snapshots
 *       each activated session with its subscriptions (sequence numbers, retransmission queue and item queues
 *       consistent, {@link SubscriptionManager#snapshotSession}) and writes, in batches of one transaction each,
 *       only what changed since the last write ({@link SessionChanges}, computed by a {@link MirrorLedger}): the
 *       NotificationMessages sent since (appended) and acknowledged since (deleted), the sequence counter, the item
 *       queues, and the session or a subscription's definition when they changed. Sessions closed or timed out here
 *       are removed from the store. No I/O thread waits for the store.</li>
 *   <li>A store that fails: the server goes on serving its sessions; the ServiceLevel falls to
 *       {@link #STORE_AWAY_LEVEL} (this mirror is a {@link ServiceLevelContributor}) so that clients prefer a
 *       partner that still mirrors; nothing is queued meanwhile, since the ledger holds only what was written, the
 *       first write that succeeds carries every change the store missed. Changes beyond
 *       {@link SessionMirrorSettings#maxPendingBytes()} in a failed cycle are dropped (logged,
 *       {@link #droppedStates()}) and every session is written anew, whole, once the store answers.</li>
 *   <li>A session the store holds for another owner (the partner claimed it: its client failed over) is dropped
 *       here ({@link SessionManager#release}) and its stored state left to the partner.</li>
 *   <li>Taking over ({@link SessionTakeover}): ActivateSession with a token this server does not know finds the
 *       session by the token's hash; once the client proved it, the session is {@link SessionStateStore#claim
 *       claimed} and its subscriptions restored with their SubscriptionIds, sequence numbers, unacknowledged
 *       messages and queued values ({@link SubscriptionManager#adopt}), each data item's queue completed with the
 *       values this server sampled for it while standing by that are newer than the stored ones.</li>
 *   <li>Standing by ({@code StandbySampler}, thread {@code opcua-standby-sampler}, unless
 *       {@link SessionMirrorSettings#standbyWindow()} is zero): the data items of the sessions the partners serve
 *       are sampled here too, without a session and without publishing, each keeping its last values.</li>
 * </ul>
 *
 * What a crash loses: of what the failed server queued after its last write, the values this server's standby
 * items sampled alike come back (data items, within the standby window); event notifications queued after the last
 * write are lost. Owned by the server: {@link #close()} writes what changed and stops the thread without removing
 * sessions from the store (a partner may take them over); {@link #abandon()} stops it without writing, as a crash
 * would, and stops standby sampling.
 */
public final class SessionMirror implements SessionTakeover, ServiceLevelContributor, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(SessionMirror.class);

    /** The ServiceLevel while the store does not answer: Degraded, below a healthy partner's. */
    public static final int STORE_AWAY_LEVEL = 150;

    private final SessionStateStore store;
    private final String owner;
    private final SubscriptionManager subscriptions;
    private final SessionMirrorSettings settings;
    private final ScheduledExecutorService thread;
    /** Null when the standby window is zero. */
    private final StandbySampler standby;
    private volatile SessionManager sessions;

    // on the mirror thread only
    private final MirrorLedger ledger = new MirrorLedger();
    private final List<MirrorLedger.Prepared> pending = new ArrayList<>();
    private volatile boolean lastCycleWritten = true;

    private volatile String storeFailure;
    private final AtomicLong writtenStates = new AtomicLong();
    private final AtomicLong writtenBytes = new AtomicLong();
    private final AtomicLong writeNanos = new AtomicLong();
    private final AtomicLong cycleNanos = new AtomicLong();
    private final AtomicLong droppedStates = new AtomicLong();
    private final AtomicLong failedWrites = new AtomicLong();
    private final AtomicLong takenOver = new AtomicLong();
    private volatile boolean stopped;

    /**
     * @param owner this server's ServerUri, the owner of the sessions it writes
     * @param standbyItems creates the containers of the standby items this server samples for its partners'
     *        sessions (the factory of its subscriptions' items)
     */
    public SessionMirror(SessionStateStore store, String owner, SubscriptionManager subscriptions,
            SessionMirrorSettings settings, ItemContainerFactory standbyItems) {
        this.store = Objects.requireNonNull(store, "store");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.subscriptions = Objects.requireNonNull(subscriptions, "subscriptions");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, "opcua-session-mirror");
            t.setDaemon(true);
            return t;
        });
        this.standby = settings.standbyWindow().isZero() ? null
                : new StandbySampler(store, owner, Objects.requireNonNull(standbyItems, "standbyItems"),
                        settings.standbyWindow());
    }

    /** Starts writing the sessions of {@code manager}. */
    public void start(SessionManager manager) {
        this.sessions = Objects.requireNonNull(manager, "manager");
        long period = settings.interval().toMillis();
        thread.scheduleWithFixedDelay(this::cycle, period, period, TimeUnit.MILLISECONDS);
        log.info("mirroring sessions of {} to {} every {} ms", owner, store, period);
        if (standby != null) {
            standby.start();
        }
    }

    // ---- writing ----------------------------------------------------------------------------------

    /** One round on the mirror thread: snapshot what changed, write it, remove what closed. */
    private void cycle() {
        SessionManager manager = sessions;
        if (stopped || manager == null) {
            return;
        }
        long started = System.nanoTime();
        try {
            Set<NodeId> live = collect(manager);
            flush(manager, live);
            lastCycleWritten = storeFailure == null;
        } catch (RuntimeException e) { // never let the periodic task die
            log.warn("mirroring the sessions failed", e);
        } finally {
            cycleNanos.addAndGet(System.nanoTime() - started);
        }
    }

    private Set<NodeId> collect(SessionManager manager) {
        Set<NodeId> live = new HashSet<>();
        long now = System.nanoTime();
        for (Session session : manager.sessions()) {
            if (session.takeoverPending()) {
                continue; // not claimed yet: the partner's until its client proves it here
            }
            SessionSnapshot snapshot = session.snapshot();
            if (snapshot == null) {
                continue;
            }
            live.add(snapshot.sessionId());
            MirrorLedger.Prepared prepared = ledger.changes(snapshot, session.authenticationTokenHash(),
                    subscriptions.snapshotSession(snapshot.sessionId()), now);
            if (prepared != null) {
                pending.add(prepared);
            }
        }
        return live;
    }

    private void flush(SessionManager manager, Set<NodeId> live) {
        List<NodeId> closed = new ArrayList<>();
        for (NodeId id : ledger.sessionIds()) {
            if (!live.contains(id)) {
                closed.add(id);
            }
        }
        int next = 0;
        try {
            if (!closed.isEmpty()) {
                store.remove(owner, closed);
                closed.forEach(ledger::forget);
            }
            while (next < pending.size()) {
                List<MirrorLedger.Prepared> batch = pending.subList(next,
                        Math.min(pending.size(), next + settings.batchSize()));
                List<SessionChanges> changes = batch.stream().map(MirrorLedger.Prepared::changes).toList();
                long started = System.nanoTime();
                Set<NodeId> ownedElsewhere = store.write(owner, changes);
                writeNanos.addAndGet(System.nanoTime() - started);
                for (MirrorLedger.Prepared p : batch) {
                    NodeId id = p.changes().sessionId();
                    if (ownedElsewhere.contains(id)) {
                        ledger.forget(id);
                        manager.release(id);
                    } else {
                        ledger.confirm(p);
                        writtenStates.incrementAndGet();
                        writtenBytes.addAndGet(p.changes().size());
                    }
                }
                next += batch.size();
            }
            if (storeFailure != null) {
                log.info("session state store {} answers again: the sessions of {} are mirrored", store, owner);
                storeFailure = null;
            }
        } catch (RuntimeException e) {
            failedWrites.incrementAndGet();
            if (storeFailure == null) {
                log.warn("session state store {} fails ({}): {} keeps serving its sessions, ServiceLevel {},"
                        + " their changes wait (at most {} bytes)", store, e.getMessage(), owner, STORE_AWAY_LEVEL,
                        settings.maxPendingBytes());
            }
            storeFailure = e.getMessage() == null ? e.toString() : e.getMessage();
            List<MirrorLedger.Prepared> waiting = pending.subList(next, pending.size());
            long waitingBytes = waiting.stream().mapToLong(p -> p.changes().size()).sum();
            if (waitingBytes > settings.maxPendingBytes()) {
                droppedStates.addAndGet(waiting.size());
                log.warn("session state store {} away: the changes of {} sessions ({} bytes) dropped; every session"
                        + " is written anew when it answers", store, waiting.size(), waitingBytes);
                ledger.forgetContents();
            }
        } finally {
            pending.clear(); // the next cycle's changes cover what was not written: the ledger has only the written
        }
    }

    // ---- taking over ------------------------------------------------------------------------------

    @Override
    public SessionSnapshot find(NodeId authenticationToken) {
        StoredSession stored = lookup(authenticationToken);
        return stored == null ? null : stored.session().session();
    }

    private StoredSession lookup(NodeId authenticationToken) {
        try {
            return store.find(Session.tokenHash(authenticationToken));
        } catch (RuntimeException e) {
            log.warn("session state store {} cannot be asked for a session ({}): it is not taken over", store,
                    e.getMessage());
            return null;
        }
    }

    @Override
    public void takenOver(Session session, NodeId authenticationToken) {
        StoredSession stored = lookup(authenticationToken);
        if (stored == null || !stored.session().sessionId().equals(session.sessionId())) {
            throw new UaException(StatusCodes.BadSessionIdInvalid, "the session is no longer in the shared state");
        }
        boolean claimed;
        try {
            claimed = store.claim(session.sessionId(), owner, stored.version());
        } catch (RuntimeException e) {
            throw new UaException(StatusCodes.BadSessionIdInvalid, "the session cannot be claimed: "
                    + e.getMessage());
        }
        if (!claimed) {
            throw new UaException(StatusCodes.BadSessionIdInvalid, "another server claimed the session first");
        }
        List<DurableSubscriptionRecord> records = reserveSequenceNumbers(stored.session().subscriptions());
        long started = System.nanoTime();
        if (standby != null) {
            records = standby.complete(session.sessionId(), records);
        }
        int restored = subscriptions.adopt(session, records);
        long restoreMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        if (standby != null) {
            standby.drop(session.sessionId());
        }
        takenOver.incrementAndGet();
        log.info("{} taken over from {}: {} of {} subscriptions restored in {} ms", session, stored.owner(), restored,
                stored.session().subscriptions().size(), restoreMillis);
    }

    /**
     * The stored subscriptions numbering on past a reservation: the partner may have sent messages after its last
     * write, whose sequence numbers must not name other messages here (Part 4, 5.14.1.1 and 7.26; a client keeps
     * the first message of a number). Reserved: {@link #takeoverReservation}. The client sees one gap of that many
     * numbers, absent from availableSequenceNumbers; no notification is in them.
     */
    private List<DurableSubscriptionRecord> reserveSequenceNumbers(List<DurableSubscriptionRecord> records) {
        int parked = subscriptions.settings().maxPublishRequestsPerSession();
        List<DurableSubscriptionRecord> reserved = new ArrayList<>(records.size());
        for (DurableSubscriptionRecord r : records) {
            reserved.add(r.withSequenceReservation(takeoverReservation(r.publishingInterval(),
                    settings.interval().toMillis(), parked)));
        }
        return reserved;
    }

    /**
     * The sequence numbers a taken-over subscription skips: the messages its former server may have sent after its
     * last write, four write intervals (a write that took longer than one) of publishing cycles, one message each,
     * plus one for every Publish request a session may park (a subscription with a backlog answers each at once).
     * Kept small on purpose: a client may ask Republish for every number of the gap (Eclipse Milo's does).
     */
    static long takeoverReservation(double publishingIntervalMillis, long mirrorIntervalMillis, int parkedPublishes) {
        long cycles = (long) Math.ceil(4.0 * mirrorIntervalMillis / Math.max(1.0, publishingIntervalMillis));
        return cycles + parkedPublishes + 1;
    }

    // ---- health and counters ----------------------------------------------------------------------

    @Override
    public ServiceLevelStatus assess() {
        String failure = storeFailure;
        return failure == null ? ServiceLevelStatus.healthy() : ServiceLevelStatus.degraded(STORE_AWAY_LEVEL,
                "the session state store fails: " + failure);
    }

    /** Whether the last write reached the store. */
    public boolean storeReachable() {
        return storeFailure == null;
    }

    /** Sessions' changes written since the start (one per session and cycle in which it changed). */
    public long writtenStates() {
        return writtenStates.get();
    }

    /** Bytes of changes written since the start, about ({@link SessionChanges#size}). */
    public long writtenBytes() {
        return writtenBytes.get();
    }

    /** Time spent in {@link SessionStateStore#write}, in nanoseconds. */
    public long writeNanos() {
        return writeNanos.get();
    }

    /** Time the mirror thread spent in all, snapshots and encoding included, in nanoseconds. */
    public long cycleNanos() {
        return cycleNanos.get();
    }

    /** Sessions' changes dropped because the store was away longer than the pending bound allows. */
    public long droppedStates() {
        return droppedStates.get();
    }

    /** Writes that failed. */
    public long failedWrites() {
        return failedWrites.get();
    }

    /** Sessions taken over from a partner. */
    public long takenOverSessions() {
        return takenOver.get();
    }

    /** Items this server samples now for the sessions its partners serve (standby sampling); 0 when it is off. */
    public int standbyItems() {
        return standby == null ? 0 : standby.standbyItems();
    }

    /** Values sampled while standing by that takeovers added to the taken-over items' queues, since the start. */
    public long standbyValuesAppended() {
        return standby == null ? 0 : standby.appendedValues();
    }

    /**
     * Writes what changed now and waits for it (tests, a clean stop): on the mirror thread, like every write.
     *
     * @return whether nothing is left waiting
     */
    public boolean flushNow() {
        try {
            return thread.submit(() -> {
                cycle();
                return lastCycleWritten;
            }).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            return false;
        }
    }

    /** Writes what changed, then stops; stored sessions stay for a partner to take over. */
    @Override
    public void close() {
        if (!stopped) {
            flushNow();
        }
        abandon();
    }

    /** Stops at once without writing, as a crash would. */
    public void abandon() {
        stopped = true;
        thread.shutdownNow();
        if (standby != null) {
            standby.close();
        }
    }

    @Override
    public String toString() {
        return "SessionMirror[" + owner + " -> " + store + "]";
    }
}
