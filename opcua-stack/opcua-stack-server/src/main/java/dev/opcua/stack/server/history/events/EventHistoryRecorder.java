package dev.opcua.stack.server.history.events;

import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.history.HistoryRecording;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import dev.opcua.stack.server.util.NamedThreadFactory;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records the events of chosen notifiers into a {@link HistoryStore} (Part 11, 5.2.4: a HistoricalEventNode's
 * history is what the server collected of the events reported on it or on the notifiers below it).
 *
 * <p>For each notifier of {@link HistoryRecording#eventNotifiers()} it subscribes to the server's {@link
 * EventNotifierRegistry}, as an event monitored item does, so every event reaching that notifier is kept in its
 * history, whole: {@link EventBytes} keeps every field the event carries, so a later HistoryRead may select and
 * filter on any of them. An in-memory notifier ({@link ObjectNode}) gets the EventNotifier HistoryRead bit (and
 * HistoryWrite with {@link HistoryRecording#eventsWritable()}); another manager's notifier declares its own.
 *
 * <p>The listener only queues (at most {@value #MAX_QUEUED} events; beyond, they are dropped and counted); the
 * {@code opcua-history-events-1} thread appends the queue in batches every {@value #FLUSH_MILLIS} ms, one append
 * after the other. {@link #close()} stops listening and appends what is queued.
 */
public final class EventHistoryRecorder implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EventHistoryRecorder.class);

    static final int MAX_QUEUED = 100_000;
    static final long FLUSH_MILLIS = 100;

    private final HistoryStore store;
    private final EventNotifierRegistry registry;
    private final NodeManagers managers;
    private final HistoryRecording recording;
    private final Set<NodeId> notifiers = new LinkedHashSet<>();
    private final List<EventNotifierRegistry.Registration> registrations = new ArrayList<>();
    private final ConcurrentLinkedQueue<EventSample> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicLong appended = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private ScheduledExecutorService executor;
    private CompletableFuture<Void> lastAppend = CompletableFuture.completedFuture(null);

    public EventHistoryRecorder(HistoryStore store, EventNotifierRegistry registry, NodeManagers managers,
            HistoryRecording recording) {
        this.store = Objects.requireNonNull(store, "store");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.managers = Objects.requireNonNull(managers, "managers");
        this.recording = Objects.requireNonNull(recording, "recording");
    }

    /** Marks the notifiers as keeping history and starts listening; once, after the node managers started. */
    public synchronized void start() {
        if (executor != null) {
            throw new IllegalStateException("the event recorder was started already");
        }
        for (ExpandedNodeId listed : recording.eventNotifiers()) {
            NodeId notifier = resolve(listed);
            if (notifier == null) {
                log.warn("event history: {} is not recorded, its namespace is not in the server", listed);
                continue;
            }
            if (managers.managerOf(notifier) instanceof NodeStoreNodeManager memory
                    && memory.store().get(notifier) instanceof ObjectNode object) {
                object.setEventHistoryAccess(recording.eventsWritable());
            } else {
                log.info("event history: {} is not an in-memory Object; its node manager declares its EventNotifier",
                        notifier);
            }
            if (notifiers.add(notifier)) {
                registrations.add(registry.subscribe(notifier, (reportedOn, event) -> record(notifier, event)));
            }
        }
        executor = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("opcua-history-events-"));
        executor.scheduleWithFixedDelay(this::flushSafely, FLUSH_MILLIS, FLUSH_MILLIS, TimeUnit.MILLISECONDS);
        log.info("event history recorder started: notifiers {}", notifiers);
    }

    private NodeId resolve(ExpandedNodeId listed) {
        if (listed.namespaceUri() == null) {
            return listed.nodeId();
        }
        int index = managers.namespaces().indexOf(listed.namespaceUri());
        return index < 0 ? null : listed.nodeId().withNamespaceIndex(index);
    }

    /** The notifiers whose events are recorded. */
    public synchronized Set<NodeId> notifiers() {
        return Set.copyOf(notifiers);
    }

    /** Queues an event of a notifier; never blocks (the registry calls it on the reporting thread). */
    private void record(NodeId notifier, UaEvent event) {
        if (queued.incrementAndGet() > MAX_QUEUED) {
            queued.decrementAndGet();
            if (dropped.incrementAndGet() % 10_000 == 1) {
                log.warn("event history: the store falls behind, {} events dropped so far", dropped.get());
            }
            return;
        }
        queue.add(new EventSample(notifier, event));
    }

    /** Hands what is queued to the store; completes once the store has it. */
    public synchronized CompletableFuture<Void> flush() {
        List<EventSample> batch = new ArrayList<>();
        EventSample sample;
        while ((sample = queue.poll()) != null) {
            batch.add(sample);
        }
        if (batch.isEmpty()) {
            return lastAppend;
        }
        queued.addAndGet(-batch.size());
        int size = batch.size();
        lastAppend = lastAppend.exceptionally(ignored -> null).thenCompose(ignored -> store.appendEvents(batch))
                .whenComplete((ok, failure) -> {
                    if (failure == null) {
                        appended.addAndGet(size);
                    } else if (failed.getAndAdd(size) == 0) {
                        log.warn("event history: the store refused {} events", size, failure);
                    }
                });
        return lastAppend;
    }

    /** Events appended to the store so far. */
    public long appendedEvents() {
        return appended.get();
    }

    /** Events dropped because the queue was full, or refused by the store. */
    public long lostEvents() {
        return dropped.get() + failed.get();
    }

    private void flushSafely() {
        try {
            flush();
        } catch (RuntimeException e) {
            log.warn("event history: flushing failed", e);
        }
    }

    /** Stops listening and appends what is queued, waiting up to 10 s for the store. */
    @Override
    public void close() {
        ScheduledExecutorService running;
        synchronized (this) {
            running = executor;
            executor = null;
            registrations.forEach(EventNotifierRegistry.Registration::cancel);
            registrations.clear();
        }
        if (running == null) {
            return;
        }
        running.shutdown();
        try {
            running.awaitTermination(10, TimeUnit.SECONDS);
            flush().get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("event history: the last events were not all appended", e);
        }
        log.info("event history recorder stopped: {} events appended, {} dropped, {} refused", appended.get(),
                dropped.get(), failed.get());
    }
}
