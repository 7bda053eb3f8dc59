package dev.opcua.stack.history.embedded;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.history.HistorySample;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The child process of {@link EmbeddedHistoryStoreCrashTest}: appends batches of values to the store in
 * {@code args[0]} without end and prints the number of each batch once its append is acknowledged, until
 * it is killed. Batch {@code b} holds values {@code b * BATCH .. b * BATCH + BATCH - 1} at as many seconds.
 */
public final class CrashingHistoryWriter {

    static final int BATCH = 50;
    static final NodeId NODE = NodeId.string(2, "Crash");
    static final long T0 = DateTime.ofEpochMillis(1_700_000_000_000L).utcTicks();

    private CrashingHistoryWriter() {
    }

    public static void main(String[] args) {
        EmbeddedHistoryStore store = EmbeddedHistoryStore.open(Path.of(args[0]));
        for (int batch = 0; ; batch++) {
            List<HistorySample> samples = new ArrayList<>(BATCH);
            for (int i = 0; i < BATCH; i++) {
                int n = batch * BATCH + i;
                DateTime time = DateTime.ofTicks(T0 + n * 10_000_000L);
                samples.add(new HistorySample(NODE, DataValue.of(Variant.ofInt32(n), StatusCode.GOOD, time, time)));
            }
            store.append(samples).join();
            System.out.println(batch);
            System.out.flush();
        }
    }
}
