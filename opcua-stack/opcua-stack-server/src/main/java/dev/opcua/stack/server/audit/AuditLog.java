package dev.opcua.stack.server.audit;

import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.EventSink;
import dev.opcua.stack.server.transport.uasc.OpenSecureChannelObserver;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The server's audit trail (Part 4, 6.5; Part 5, 6.3.1 Server's Auditing): the services hand it an
 * {@link AuditRecord} for each audited action, and one thread ({@code opcua-audit}) raises the record's
 * event on the Server object, where event monitored items of AuditEventType see it, then hands the record
 * to the {@link AuditListener}s.
 *
 * <p>Off unless configured: a disabled log's only cost is the {@link #enabled()} check callers make before
 * they build a record. {@link #raise} never blocks and takes no lock: the records wait in a lock-free queue
 * bounded by {@code capacity}; one that does not fit (a flood of failed logins faster than the events are
 * delivered) is dropped and counted, so that every record is either {@link #raised()} or {@link
 * #dropped()}. The thread runs from {@link #start()} to {@link #close()}, which delivers what is queued
 * first.
 */
public final class AuditLog implements AutoCloseable {

    /** Records waiting for the audit thread, by default. */
    public static final int DEFAULT_CAPACITY = 10_000;

    private static final Logger log = LoggerFactory.getLogger(AuditLog.class);
    /** The longest the idle thread sleeps before it looks again, in case a wake-up raced its parking. */
    private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final AuditLog DISABLED = new AuditLog();

    private final boolean enabled;
    private final String serverId;
    private final EventSink sink;
    private final List<AuditListener> listeners;
    private final int capacity;
    private final ConcurrentLinkedQueue<AuditRecord> queue = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queued = new AtomicInteger();
    private final LongAdder raised = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder listenerFailures = new LongAdder();
    private volatile Thread thread;
    private volatile boolean running;
    private volatile boolean idle;

    private AuditLog() {
        this.enabled = false;
        this.serverId = "";
        this.sink = (notifier, event) -> { };
        this.listeners = List.of();
        this.capacity = 0;
    }

    /**
     * An enabled audit log.
     *
     * @param serverId ServerId of the events: the server's ApplicationUri
     * @param sink where the events go, on the Server object
     * @param listeners who sees each record after its event
     * @param capacity records that may wait for the audit thread, at least 1
     * @throws IllegalArgumentException when {@code capacity} is below 1
     */
    public AuditLog(String serverId, EventSink sink, List<AuditListener> listeners, int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("audit capacity must be at least 1, was " + capacity);
        }
        this.enabled = true;
        this.serverId = Objects.requireNonNull(serverId, "serverId");
        this.sink = Objects.requireNonNull(sink, "sink");
        this.listeners = List.copyOf(listeners);
        this.capacity = capacity;
    }

    /** The log of a server that does not audit: {@link #enabled()} is false and it owns no thread. */
    public static AuditLog disabled() {
        return DISABLED;
    }

    /** Whether the server audits; callers build no record when it does not. */
    public boolean enabled() {
        return enabled;
    }

    /**
     * Queues the record for the audit thread; never blocks. A record that does not fit, or comes after
     * {@link #close()}, is dropped and counted.
     */
    public void raise(AuditRecord record) {
        if (!enabled) {
            return;
        }
        if (!running || queued.incrementAndGet() > capacity) {
            if (running) {
                queued.decrementAndGet();
            }
            dropped.increment();
            return;
        }
        queue.offer(record);
        if (idle) {
            Thread drainer = thread;
            if (drainer != null) {
                LockSupport.unpark(drainer);
            }
        }
    }

    /**
     * What the transport tells of each OpenSecureChannel answered or refused, made into AuditOpenSecureChannel
     * records (Part 4, 6.5.3): built on the connection's event loop, raised without blocking it.
     */
    public OpenSecureChannelObserver openSecureChannelObserver() {
        return (client, secureChannelId, requestType, policyUri, mode, lifetime, certificate, status, reason) ->
                raise(AuditRecords.openSecureChannel(AuditContext.address(client), secureChannelId, requestType,
                        policyUri, mode, lifetime, certificate, status, reason));
    }

    /** Records whose events were raised on the Server object since the log was made. */
    public long raised() {
        return raised.sum();
    }

    /** Records dropped because the queue was full (or the log closed) since the log was made. */
    public long dropped() {
        return dropped.sum();
    }

    /** Records waiting for the audit thread now. */
    public int backlog() {
        return Math.max(0, queued.get());
    }

    /** Calls of listeners that threw. */
    public long listenerFailures() {
        return listenerFailures.sum();
    }

    /** Starts the audit thread; nothing for a disabled log, or when it runs already. */
    public synchronized void start() {
        if (!enabled || running) {
            return;
        }
        running = true;
        Thread drainer = new Thread(this::drainUntilClosed, "opcua-audit");
        drainer.setDaemon(true);
        thread = drainer;
        drainer.start();
    }

    /** Delivers what is queued, then stops the audit thread; later records are dropped. Idempotent. */
    @Override
    public synchronized void close() {
        Thread drainer = thread;
        if (!running || drainer == null) {
            return;
        }
        running = false;
        LockSupport.unpark(drainer);
        try {
            drainer.join(TimeUnit.SECONDS.toMillis(5));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread = null;
    }

    private void drainUntilClosed() {
        while (running) {
            if (!drainQueued()) {
                idle = true;
                if (queue.isEmpty() && running) { // a record offered before idle was set is seen here
                    LockSupport.parkNanos(this, IDLE_PARK_NANOS);
                }
                idle = false;
            }
        }
        drainQueued(); // what was admitted before close
    }

    /** Delivers every queued record; whether there was one. */
    private boolean drainQueued() {
        boolean any = false;
        AuditRecord record;
        while ((record = queue.poll()) != null) {
            queued.decrementAndGet();
            any = true;
            deliver(record);
        }
        return any;
    }

    private void deliver(AuditRecord record) {
        try {
            sink.report(EventNotifierRegistry.SERVER_OBJECT, record.toEvent(serverId));
            raised.increment();
        } catch (RuntimeException e) { // a record that cannot become an event must not stop the trail
            dropped.increment();
            log.warn("audit event of {} could not be raised", record.action(), e);
            return;
        }
        for (AuditListener listener : listeners) {
            try {
                listener.onAudit(record);
            } catch (RuntimeException e) {
                listenerFailures.increment();
                if (listenerFailures.sum() == 1) { // the first only: a broken listener must not flood the log
                    log.warn("audit listener {} failed; later failures are counted, not logged", listener, e);
                }
            }
        }
    }
}
