package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.session.SessionManager;
import dev.opcua.stack.server.session.SessionSnapshot;
import dev.opcua.stack.server.session.SessionTakeover;
import dev.opcua.stack.server.subscriptions.SubscriptionManager;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 *       consistent, {@link SubscriptionManager#snapshotSession}), keeps those that changed since their last write
 *       (one waiting state per session: a newer snapshot replaces an older one) and writes them in batches; sessions
 *       closed or timed out here are removed from the store. No I/O thread waits for the store.</li>
 *   <li>A store that fails: the server goes on serving its sessions; the ServiceLevel falls to
 *       {@link #STORE_AWAY_LEVEL} (this mirror is a {@link ServiceLevelContributor}) so that clients prefer a
 *       partner that still mirrors; the waiting states are written when the store answers again, or, beyond
 *       {@link SessionMirrorSettings#maxPendingBytes()}, dropped (logged, {@link #droppedStates()}) and every
 *       session written anew once it answers.</li>
 *   <li>A session the store holds for another owner (the partner claimed it: its client failed over) is dropped
 *       here ({@link SessionManager#release}) and its stored state left to the partner.</li>
 *   <li>Taking over ({@link SessionTakeover}): ActivateSession with a token this server does not know finds the
 *       session by the token's hash; once the client proved it, the session is {@link SessionStateStore#claim
 *       claimed} and its subscriptions restored with their SubscriptionIds, sequence numbers, unacknowledged
 *       messages and queued values ({@link SubscriptionManager#adopt}).</li>
 * </ul>
 *
 * What a crash loses: what the failed server queued or sent after its last write, at most one interval. Owned by
 * the server: {@link #close()} writes what changed and stops the thread without removing sessions from the store (a
 * partner may take them over); {@link #abandon()} stops it without writing, as a crash would.
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
    private volatile SessionManager sessions;

    // on the mirror thread only
    private final Map<NodeId, byte[]> lastWritten = new HashMap<>();
    private final LinkedHashMap<NodeId, Pending> pending = new LinkedHashMap<>();
    private long pendingBytes;

    private volatile String storeFailure;
    private final AtomicLong writtenStates = new AtomicLong();
    private final AtomicLong writeNanos = new AtomicLong();
    private final AtomicLong cycleNanos = new AtomicLong();
    private final AtomicLong droppedStates = new AtomicLong();
    private final AtomicLong failedWrites = new AtomicLong();
    private final AtomicLong takenOver = new AtomicLong();
    private volatile boolean stopped;

    private record Pending(MirroredSession session, byte[] bytes) {
    }

    /**
     * @param owner this server's ServerUri, the owner of the sessions it writes
     */
    public SessionMirror(SessionStateStore store, String owner, SubscriptionManager subscriptions,
            SessionMirrorSettings settings) {
        this.store = Objects.requireNonNull(store, "store");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.subscriptions = Objects.requireNonNull(subscriptions, "subscriptions");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread t = new Thread(task, "opcua-session-mirror");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts writing the sessions of {@code manager}. */
    public void start(SessionManager manager) {
        this.sessions = Objects.requireNonNull(manager, "manager");
        long period = settings.interval().toMillis();
        thread.scheduleWithFixedDelay(this::cycle, period, period, TimeUnit.MILLISECONDS);
        log.info("mirroring sessions of {} to {} every {} ms", owner, store, period);
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
        } catch (RuntimeException e) { // never let the periodic task die
            log.warn("mirroring the sessions failed", e);
        } finally {
            cycleNanos.addAndGet(System.nanoTime() - started);
        }
    }

    private Set<NodeId> collect(SessionManager manager) {
        Set<NodeId> live = new HashSet<>();
        for (Session session : manager.sessions()) {
            if (session.takeoverPending()) {
                continue; // not claimed yet: the partner's until its client proves it here
            }
            SessionSnapshot snapshot = session.snapshot();
            if (snapshot == null) {
                continue;
            }
            live.add(snapshot.sessionId());
            MirroredSession mirrored = new MirroredSession(snapshot, session.authenticationTokenHash(),
                    subscriptions.snapshotSession(snapshot.sessionId()));
            byte[] bytes = MirroredSessionCodec.encode(mirrored);
            if (Arrays.equals(bytes, lastWritten.get(snapshot.sessionId()))) {
                continue;
            }
            Pending previous = pending.remove(snapshot.sessionId());
            if (previous != null) {
                pendingBytes -= previous.bytes().length;
            }
            pending.put(snapshot.sessionId(), new Pending(mirrored, bytes));
            pendingBytes += bytes.length;
        }
        return live;
    }

    private void flush(SessionManager manager, Set<NodeId> live) {
        List<NodeId> closed = new ArrayList<>();
        for (NodeId id : lastWritten.keySet()) {
            if (!live.contains(id) && !pending.containsKey(id)) {
                closed.add(id);
            }
        }
        try {
            if (!closed.isEmpty()) {
                store.remove(owner, closed);
                closed.forEach(lastWritten::remove);
            }
            while (!pending.isEmpty()) {
                List<Pending> batch = new ArrayList<>(Math.min(settings.batchSize(), pending.size()));
                for (Pending p : pending.values()) {
                    if (batch.size() == settings.batchSize()) {
                        break;
                    }
                    batch.add(p);
                }
                long started = System.nanoTime();
                Set<NodeId> ownedElsewhere = store.write(owner, batch.stream().map(Pending::session).toList());
                writeNanos.addAndGet(System.nanoTime() - started);
                for (Pending p : batch) {
                    NodeId id = p.session().sessionId();
                    pending.remove(id);
                    pendingBytes -= p.bytes().length;
                    if (ownedElsewhere.contains(id)) {
                        lastWritten.remove(id);
                        manager.release(id);
                    } else {
                        lastWritten.put(id, p.bytes());
                        writtenStates.incrementAndGet();
                    }
                }
            }
            if (storeFailure != null) {
                log.info("session state store {} answers again: the sessions of {} are mirrored", store, owner);
                storeFailure = null;
            }
        } catch (RuntimeException e) {
            failedWrites.incrementAndGet();
            if (storeFailure == null) {
                log.warn("session state store {} fails ({}): {} keeps serving its sessions, ServiceLevel {},"
                        + " their states wait (at most {} bytes)", store, e.getMessage(), owner, STORE_AWAY_LEVEL,
                        settings.maxPendingBytes());
            }
            storeFailure = e.getMessage() == null ? e.toString() : e.getMessage();
            if (pendingBytes > settings.maxPendingBytes()) {
                droppedStates.addAndGet(pending.size());
                log.warn("session state store {} away: {} waiting session states ({} bytes) dropped; every session"
                        + " is written anew when it answers", store, pending.size(), pendingBytes);
                pending.clear();
                pendingBytes = 0;
                lastWritten.clear();
            }
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
        int restored = subscriptions.adopt(session, stored.session().subscriptions());
        takenOver.incrementAndGet();
        log.info("{} taken over from {}: {} of {} subscriptions restored", session, stored.owner(), restored,
                stored.session().subscriptions().size());
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

    /** Session states written since the start. */
    public long writtenStates() {
        return writtenStates.get();
    }

    /** Time spent in {@link SessionStateStore#write}, in nanoseconds. */
    public long writeNanos() {
        return writeNanos.get();
    }

    /** Time the mirror thread spent in all, snapshots and encoding included, in nanoseconds. */
    public long cycleNanos() {
        return cycleNanos.get();
    }

    /** Session states dropped because the store was away longer than the pending bound allows. */
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

    /**
     * Writes what changed now and waits for it (tests, a clean stop): on the mirror thread, like every write.
     *
     * @return whether nothing is left waiting
     */
    public boolean flushNow() {
        try {
            return thread.submit(() -> {
                cycle();
                return pending.isEmpty();
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
    }

    @Override
    public String toString() {
        return "SessionMirror[" + owner + " -> " + store + "]";
    }
}
