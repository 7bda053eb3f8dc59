package dev.opcua.stack.server.subscriptions.events;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes reported events to the listeners (event monitored items) of notifiers (Part 3, 5.5.1
 * EventNotifier; HasNotifier; Part 4, 5.12.1 event monitored items).
 *
 * <h2>Design</h2>
 * <ul>
 * <li><b>Reporting</b>: the server and node managers hold this as an {@link EventSink} and call
 * {@code report(notifier, event)}; node managers report on the notifier the event belongs to (their
 * object, or an area above it). {@link #isObserved} lets them skip building events nobody receives.</li>
 * <li><b>Propagation</b>: an event reaches the listeners of its notifier, then of each notifier above it
 * along the links set with {@link #linkNotifier} (HasNotifier, parent to child), and always, once, those
 * of the root: the Server object (i=2253), whose EventNotifier is SubscribeToEvents, so a client
 * monitoring the Server object receives every event of the server. Each notifier has at most one parent
 * here; links that would form a cycle are refused.</li>
 * <li><b>Subscribing</b>: an event monitored item calls {@link #subscribe} with the NodeId it monitors
 * and keeps the {@link Registration}; deleting the item (or its subscription or session) cancels it.
 * The item evaluates its {@link EventFilterEvaluator} in {@link EventListener#onEvent} and queues the
 * EventFieldList; the engine publishes it like any notification.</li>
 * <li><b>Cost and concurrency</b>: listeners are kept per notifier in a concurrent set, changed under
 * the map's per-key lock so that an emptied notifier leaves the map, so {@code report} takes no lock:
 * one map lookup per notifier on the way to the root, then a walk over each set (weakly consistent:
 * a listener added during a report may miss that event). Subscribing and cancelling are O(1) and
 * touch no other notifier, so 100,000 items on the Server object subscribe in linear time: no lock
 * shared by all sessions, no scan of all items.</li>
 * <li><b>Failures</b>: a listener that throws is logged and skipped; the others still receive the
 * event.</li>
 * </ul>
 */
public final class EventNotifierRegistry implements EventSink {

    /** The Server object, root of the notifier hierarchy (Part 5, 8.3.2). */
    public static final NodeId SERVER_OBJECT = NodeId.ns0(NodeIds.Server);

    private static final Logger log = LoggerFactory.getLogger(EventNotifierRegistry.class);

    /** Bound on the walk to the root, in case links change during a report. */
    private static final int MAX_HOPS = 64;

    private final NodeId root;
    private final ConcurrentHashMap<NodeId, Set<Entry>> listeners = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<NodeId, NodeId> parents = new ConcurrentHashMap<>();
    private final Object linkLock = new Object();

    /** A registry whose root is the Server object. */
    public EventNotifierRegistry() {
        this(SERVER_OBJECT);
    }

    /** A registry with another root notifier (for tests or an embedded server). */
    public EventNotifierRegistry(NodeId root) {
        this.root = Objects.requireNonNull(root, "root");
    }

    public NodeId root() {
        return root;
    }

    /** A listener's subscription to a notifier; {@link #cancel()} is idempotent. */
    public interface Registration extends AutoCloseable {

        NodeId notifier();

        /** Stops delivery; O(1). */
        void cancel();

        @Override
        default void close() {
            cancel();
        }
    }

    private final class Entry implements Registration {
        final NodeId notifier;
        final EventListener listener;
        final AtomicBoolean cancelled = new AtomicBoolean();

        Entry(NodeId notifier, EventListener listener) {
            this.notifier = notifier;
            this.listener = listener;
        }

        @Override
        public NodeId notifier() {
            return notifier;
        }

        @Override
        public void cancel() {
            if (cancelled.compareAndSet(false, true)) {
                listeners.computeIfPresent(notifier, (k, entries) -> {
                    entries.remove(this);
                    return entries.isEmpty() ? null : entries; // null removes the notifier's key
                });
            }
        }
    }

    /** Delivers the notifier's events, and those of the notifiers below it, to the listener. */
    public Registration subscribe(NodeId notifier, EventListener listener) {
        Objects.requireNonNull(notifier, "notifier");
        Objects.requireNonNull(listener, "listener");
        Entry entry = new Entry(notifier, listener);
        listeners.compute(notifier, (k, entries) -> {
            Set<Entry> next = entries == null ? ConcurrentHashMap.newKeySet() : entries;
            next.add(entry);
            return next;
        });
        return entry;
    }

    /**
     * Makes {@code parent} a notifier of {@code child} (HasNotifier from parent to child): events
     * reported on the child also reach the parent's listeners. Replaces an earlier parent.
     *
     * @throws IllegalArgumentException when the link would form a cycle, or the child is the root
     */
    public void linkNotifier(NodeId parent, NodeId child) {
        Objects.requireNonNull(parent, "parent");
        Objects.requireNonNull(child, "child");
        synchronized (linkLock) {
            if (child.equals(root)) {
                throw new IllegalArgumentException("the root notifier " + root + " cannot have a parent");
            }
            for (NodeId n = parent; n != null; n = parents.get(n)) {
                if (n.equals(child)) {
                    throw new IllegalArgumentException(
                            "HasNotifier " + parent + " -> " + child + " would form a cycle");
                }
            }
            parents.put(child, parent);
        }
    }

    /** Removes the child's link to its parent; its events then go straight to the root. */
    public void unlinkNotifier(NodeId child) {
        synchronized (linkLock) {
            parents.remove(child);
        }
    }

    /** The parent notifier, or null when the notifier is linked straight to the root. */
    public NodeId parentOf(NodeId notifier) {
        return parents.get(notifier);
    }

    /**
     * Whether an event reported on {@code notifier} reaches the listeners of {@code listened}: it is
     * that notifier, one above it, or the root.
     */
    public boolean reaches(NodeId notifier, NodeId listened) {
        if (listened.equals(root)) {
            return true;
        }
        NodeId n = notifier;
        for (int hops = 0; n != null && hops < MAX_HOPS && !n.equals(root); hops++) {
            if (n.equals(listened)) {
                return true;
            }
            n = parents.get(n);
        }
        return false;
    }

    /** Number of listeners subscribed to exactly this notifier. */
    public int listenerCount(NodeId notifier) {
        Set<Entry> entries = listeners.get(notifier);
        return entries == null ? 0 : entries.size();
    }

    /** Whether an event reported on the notifier would reach any listener. */
    public boolean isObserved(NodeId notifier) {
        NodeId n = notifier;
        for (int hops = 0; n != null && hops < MAX_HOPS; hops++) {
            if (listeners.containsKey(n)) {
                return true;
            }
            n = n.equals(root) ? null : parents.get(n);
        }
        return listeners.containsKey(root);
    }

    /**
     * Delivers the event to the listeners of the notifier, of each notifier above it, and of the
     * root, each once, on the calling thread.
     */
    @Override
    public void report(NodeId notifier, UaEvent event) {
        Objects.requireNonNull(notifier, "notifier");
        Objects.requireNonNull(event, "event");
        NodeId n = notifier;
        for (int hops = 0; n != null && hops < MAX_HOPS; hops++) {
            if (n.equals(root)) {
                break;
            }
            deliver(listeners.get(n), notifier, event);
            n = parents.get(n);
        }
        deliver(listeners.get(root), notifier, event);
    }

    private static void deliver(Set<Entry> entries, NodeId notifier, UaEvent event) {
        if (entries == null) {
            return;
        }
        for (Entry e : entries) {
            if (e.cancelled.get()) {
                continue;
            }
            try {
                e.listener.onEvent(notifier, event);
            } catch (RuntimeException failure) {
                log.warn("event listener on notifier {} failed for {}", e.notifier, event, failure);
            }
        }
    }
}
