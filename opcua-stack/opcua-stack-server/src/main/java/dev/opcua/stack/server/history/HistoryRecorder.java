package dev.opcua.stack.server.history;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.util.NamedThreadFactory;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records the values of historizing variables into a {@link HistoryStore} (Part 11, 4.2: a
 * HistoricalDataNode's history is collected by the server while Historizing is true).
 *
 * <p>Which variables: those of in-memory node managers ({@link NodeStoreNodeManager}) whose Historizing
 * attribute is true when the server starts, and those listed in {@link HistoryRecording#nodes()}, which
 * get Historizing and the HistoryRead bit (HistoryWrite when asked) if they live in memory. How values
 * arrive, without a scan of other nodes:
 * <ul>
 *   <li>pushed: an in-memory variable's value when the recorder starts, every value stored with {@link
 *       VariableNode#setValue} (client writes, the application's updates), and every value given to {@link
 *       #record};</li>
 *   <li>sampled: every {@link HistoryRecording#samplingInterval()} the recorded variables are read in one
 *       batch through their node managers, and a value whose value or status differs from the last one
 *       recorded is recorded; so values of suppliers, getters and devices are recorded too, at the
 *       sampling resolution.</li>
 * </ul>
 * A value without a source timestamp is recorded with the time it was seen.
 *
 * <p>Between the recorder and the store: values wait in a bounded queue (at most {@value #MAX_QUEUED}) and
 * every {@value #FLUSH_MILLIS} ms the {@code opcua-history-recorder} thread hands them to the store in batches of
 * at most {@value #MAX_BATCH}, without waiting for earlier batches to be acknowledged (the stores apply appends
 * in the order they were called and commit everything waiting at once: group commit), but with at most
 * {@value #MAX_APPENDING} values handed over and not yet acknowledged. Overflow policy: when the store falls that
 * far behind the recorder stops handing values over, its queue fills, and newly recorded values are dropped and
 * counted ({@link #droppedValues()}): the history gets a gap at its newest end rather than unbounded memory;
 * {@link #backlog()} says how many values wait. The same thread applies the retention. {@link #close()} appends
 * what is queued.
 */
public final class HistoryRecorder implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(HistoryRecorder.class);

    static final int MAX_QUEUED = 100_000;
    static final int MAX_APPENDING = 100_000;
    static final long FLUSH_MILLIS = 100;
    static final int MAX_BATCH = 10_000;
    private static final long SAMPLE_TIMEOUT_SECONDS = 10;

    private final HistoryStore store;
    private final NodeManagers managers;
    private final HistoryRecording recording;
    private final Set<NodeId> recorded = new LinkedHashSet<>();
    private final Map<NodeId, DataValue> lastRecorded = new ConcurrentHashMap<>();
    /** Bounded, and without a node object per value (ConcurrentLinkedQueue allocated one). */
    private final ArrayBlockingQueue<HistorySample> queue = new ArrayBlockingQueue<>(MAX_QUEUED);
    private final AtomicLong appended = new AtomicLong();
    /** Values handed to the store whose append has not completed yet. */
    private final AtomicLong appending = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile ReadValueId[] sampled = new ReadValueId[0];
    private volatile ScheduledExecutorService executor;
    /** Completes when every append handed to the store so far has completed. */
    private CompletableFuture<Void> lastAppend = CompletableFuture.completedFuture(null);

    public HistoryRecorder(HistoryStore store, NodeManagers managers, HistoryRecording recording) {
        this.store = Objects.requireNonNull(store, "store");
        this.managers = Objects.requireNonNull(managers, "managers");
        this.recording = Objects.requireNonNull(recording, "recording");
    }

    /** Finds the variables to record, hooks their value changes and starts sampling; once, after the managers started. */
    public synchronized void start() {
        if (executor != null) {
            throw new IllegalStateException("the recorder was started already");
        }
        for (NodeManager manager : managers.managers()) {
            if (manager instanceof NodeStoreNodeManager memory) {
                for (UaNode node : memory.store().nodes()) {
                    if (node instanceof VariableNode variable && variable.historizing()) {
                        hook(variable);
                    }
                }
            }
        }
        for (ExpandedNodeId listed : recording.nodes()) {
            NodeId nodeId = resolve(listed);
            if (nodeId == null) {
                log.warn("history recorder: {} is not recorded, its namespace is not in the server", listed);
                continue;
            }
            if (managers.managerOf(nodeId) instanceof NodeStoreNodeManager memory
                    && memory.store().get(nodeId) instanceof VariableNode variable) {
                variable.setHistoryAccess(true, recording.historyWritable());
                hook(variable);
            } else {
                recorded.add(nodeId); // another manager's variable: sampled, it declares its own access
            }
        }
        List<ReadValueId> reads = new ArrayList<>(recorded.size());
        for (NodeId nodeId : recorded) {
            reads.add(new ReadValueId(nodeId, AttributeIds.Value, null, QualifiedName.NULL));
        }
        sampled = reads.toArray(new ReadValueId[0]);
        executor = Executors.newSingleThreadScheduledExecutor(new NamedThreadFactory("opcua-history-recorder-"));
        long sampling = recording.samplingInterval().toMillis();
        executor.scheduleWithFixedDelay(this::sampleSafely, 0, sampling, TimeUnit.MILLISECONDS);
        executor.scheduleWithFixedDelay(this::flushSafely, FLUSH_MILLIS, FLUSH_MILLIS, TimeUnit.MILLISECONDS);
        if (!recording.retention().isUnlimited()) {
            long check = recording.retentionCheckInterval().toMillis();
            executor.scheduleWithFixedDelay(this::trimSafely, check, check, TimeUnit.MILLISECONDS);
        }
        log.info("history recorder started: {} variables, sampled every {} ms, retention {}", recorded.size(),
                sampling, recording.retention());
    }

    /** The node id with the namespace index of its URI, or null when the server has no such namespace. */
    private NodeId resolve(ExpandedNodeId listed) {
        if (listed.namespaceUri() == null) {
            return listed.nodeId();
        }
        int index = managers.namespaces().indexOf(listed.namespaceUri());
        return index < 0 ? null : listed.nodeId().withNamespaceIndex(index);
    }

    /** Records the variable's value now (its history starts with the server) and every value stored later. */
    private void hook(VariableNode variable) {
        NodeId nodeId = variable.nodeId();
        recorded.add(nodeId);
        variable.setValueListener(value -> record(nodeId, value));
        record(nodeId, variable.value());
    }

    /** The variables recorded. */
    public synchronized Set<NodeId> recordedNodes() {
        return Set.copyOf(recorded);
    }

    /**
     * Records a value of a node now (a node manager that knows of a change); thread-safe, never waits for the store.
     * Dropped and counted when {@value #MAX_QUEUED} values wait already.
     */
    public void record(NodeId nodeId, DataValue value) {
        value = stamped(value);
        lastRecorded.put(nodeId, value);
        enqueue(nodeId, value);
    }

    /** The value with a source timestamp: its own, or now when it has none. */
    private static DataValue stamped(DataValue value) {
        if (value.sourceTimestamp() == null || value.sourceTimestamp().isNull()) {
            return HistoryTime.withSourceTime(value, DateTime.now()); // the clock only when needed: it costs
        }
        return value;
    }

    private void enqueue(NodeId nodeId, DataValue value) {
        if (!queue.offer(new HistorySample(nodeId, value))) {
            if (dropped.incrementAndGet() % 10_000 == 1) {
                log.warn("history recorder: the store falls behind, {} values dropped so far", dropped.get());
            }
        }
    }

    /** Reads the recorded variables once and records what changed since the last value recorded. */
    void sample() {
        ReadValueId[] reads = sampled;
        if (reads.length == 0) {
            return;
        }
        // what was recorded before the read: a value stored while the read ran is newer than the one read
        DataValue[] before = new DataValue[reads.length];
        for (int i = 0; i < reads.length; i++) {
            before[i] = lastRecorded.get(reads[i].nodeId());
        }
        DataValue[] values;
        try {
            // a manager that never answers must not stop the recording: this sample is skipped
            values = managers.read(OperationContext.INTERNAL, reads, 0, TimestampsToReturn.Both)
                    .get(SAMPLE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        } catch (ExecutionException | TimeoutException e) {
            log.warn("history recorder: sampling {} variables failed: {}", reads.length, e.toString());
            return;
        }
        for (int i = 0; i < reads.length; i++) {
            DataValue value = values[i];
            int status = value.statusCode().value();
            if (status == StatusCodes.BadNodeIdUnknown || status == StatusCodes.BadNotReadable) {
                continue;
            }
            DataValue last = before[i];
            if (last != null && Objects.equals(last.value(), value.value())
                    && Objects.equals(last.statusCode(), value.statusCode())) {
                continue;
            }
            // recorded only if nothing was stored since the read began, checked and claimed in one step
            NodeId nodeId = reads[i].nodeId();
            DataValue sample = stamped(value);
            boolean newest = last == null ? lastRecorded.putIfAbsent(nodeId, sample) == null
                    : lastRecorded.replace(nodeId, last, sample);
            if (newest) {
                enqueue(nodeId, sample);
            }
        }
    }

    /**
     * Hands what is queued to the store now, as far as {@value #MAX_APPENDING} values not yet acknowledged allow;
     * the future completes once the store has every value handed to it so far (durable as the store promises),
     * failing as the store's append does.
     */
    public synchronized CompletableFuture<Void> flush() {
        CompletableFuture<Void> previous = lastAppend;
        int room;
        while (!queue.isEmpty() && (room = (int) Math.min(MAX_BATCH, MAX_APPENDING - appending.get())) > 0) {
            List<HistorySample> batch = new ArrayList<>(Math.min(queue.size(), room));
            queue.drainTo(batch, room);
            int size = batch.size();
            appending.addAndGet(size);
            CompletableFuture<Void> append;
            try {
                append = store.append(batch);
            } catch (RuntimeException e) {
                append = CompletableFuture.failedFuture(e);
            }
            previous = previous.exceptionally(ignored -> null).thenCombine(append
                    .whenComplete((ok, failure) -> {
                        appending.addAndGet(-size);
                        if (failure == null) {
                            appended.addAndGet(size);
                        } else if (failed.getAndAdd(size) == 0) {
                            log.warn("history recorder: the store refused {} values", size, failure);
                        }
                    }), (a, b) -> null);
        }
        lastAppend = previous;
        return previous;
    }

    /** Values appended to the store so far. */
    public long appendedValues() {
        return appended.get();
    }

    /** Values waiting: queued for the store, or handed to it and not yet acknowledged. */
    public long backlog() {
        return queue.size() + appending.get();
    }

    /** Values dropped because the queue was full. */
    public long droppedValues() {
        return dropped.get();
    }

    /** Values the store refused. */
    public long failedValues() {
        return failed.get();
    }

    private void sampleSafely() {
        try {
            sample();
        } catch (RuntimeException e) {
            log.warn("history recorder: sampling failed", e);
        }
    }

    private void flushSafely() {
        try {
            flush();
        } catch (RuntimeException e) {
            log.warn("history recorder: flushing failed", e);
        }
    }

    private void trimSafely() {
        try {
            long deleted = store.trim(recording.retention(), DateTime.now().utcTicks()).get(1, TimeUnit.MINUTES);
            if (deleted > 0) {
                log.info("history retention {}: {} values deleted", recording.retention(), deleted);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            log.warn("history retention failed", e);
        }
    }

    /** Stops sampling, unhooks the variables and appends what is queued, waiting up to 10 s per batch for the store. */
    @Override
    public void close() {
        ScheduledExecutorService running;
        synchronized (this) {
            running = executor;
            executor = null;
        }
        if (running == null) {
            return;
        }
        running.shutdown();
        try {
            running.awaitTermination(10, TimeUnit.SECONDS);
            for (NodeManager manager : managers.managers()) {
                if (manager instanceof NodeStoreNodeManager memory) {
                    for (NodeId nodeId : recordedNodes()) {
                        if (memory.store().get(nodeId) instanceof VariableNode variable) {
                            variable.setValueListener(null);
                        }
                    }
                }
            }
            CompletableFuture<Void> last = flush();
            while (!queue.isEmpty()) { // more than the store takes at once: hand over the rest as it catches up
                last.exceptionally(ignored -> null).get(10, TimeUnit.SECONDS);
                last = flush();
            }
            last.get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.warn("history recorder: the last values were not all appended", e);
        }
        log.info("history recorder stopped: {} values appended, {} dropped, {} refused", appended.get(),
                dropped.get(), failed.get());
    }
}
