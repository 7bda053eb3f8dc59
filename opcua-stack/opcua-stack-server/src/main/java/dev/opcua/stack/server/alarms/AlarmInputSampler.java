package dev.opcua.stack.server.alarms;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the input variables (InputNode, Part 9, 5.8.2) of alarms on one named thread
 * ({@code opcua-alarm-inputs}) through the server's node managers, and hands each value that differs
 * from the last one read (value or status) to its alarm. The next read is scheduled when one completes,
 * so a slow node manager stretches the interval instead of piling up reads.
 */
final class AlarmInputSampler implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(AlarmInputSampler.class);

    private final NodeManagers managers;
    private final List<AlarmCondition> alarms;
    private final ReadValueId[] items;
    private final DataValue[] last;
    private final long intervalMillis;
    private final ScheduledExecutorService executor;
    private volatile boolean closed;
    private volatile boolean started;

    AlarmInputSampler(NodeManagers managers, List<AlarmCondition> alarms, Duration interval) {
        this.managers = managers;
        this.alarms = List.copyOf(alarms);
        this.items = new ReadValueId[alarms.size()];
        for (int i = 0; i < items.length; i++) {
            items[i] = new ReadValueId(alarms.get(i).inputNode(), AttributeIds.Value, null, null);
        }
        this.last = new DataValue[items.length];
        this.intervalMillis = interval.toMillis();
        this.executor = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread thread = new Thread(r, "opcua-alarm-inputs");
            thread.setDaemon(true);
            return thread;
        });
    }

    synchronized void start() {
        if (!started && !closed) {
            started = true;
            executor.execute(this::tick);
        }
    }

    private void tick() {
        if (closed) {
            return;
        }
        managers.read(OperationContext.INTERNAL, items, 0, TimestampsToReturn.Source)
                .whenComplete((values, failure) -> {
                    if (failure == null) {
                        apply(values);
                    } else {
                        log.warn("reading the alarm inputs failed", failure);
                    }
                    if (!closed) {
                        try {
                            executor.schedule(this::tick, intervalMillis, TimeUnit.MILLISECONDS);
                        } catch (RejectedExecutionException e) {
                            // closed meanwhile
                        }
                    }
                });
    }

    /** Hands the values that changed since the last read to their alarms. */
    synchronized void apply(DataValue[] values) {
        for (int i = 0; i < values.length; i++) {
            DataValue value = values[i];
            DataValue previous = last[i];
            if (previous != null && Objects.equals(previous.value(), value.value())
                    && Objects.equals(previous.statusCode(), value.statusCode())) {
                continue;
            }
            last[i] = value;
            try {
                alarms.get(i).input(value);
            } catch (RuntimeException e) {
                log.warn("alarm {} failed to evaluate its input {}", alarms.get(i), value, e);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        executor.shutdownNow();
    }
}
