package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.history.HistoryPage;
import dev.opcua.stack.server.history.HistoryQuery;
import dev.opcua.stack.server.history.HistoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The raw values an aggregate or an at-time read needs: those in a range plus a few on each side, where bounding
 * values are looked for (Part 13, 3.1.8 leaves how far to search to the server).
 */
final class RawWindow {

    /** Values read beyond each end of a range: enough to step over a run of Bad values to a usable bound. */
    static final int NEIGHBOURS = 32;

    private RawWindow() {
    }

    /** The values with {@code from <= time < to}, the {@link #NEIGHBOURS} before and after, oldest first. */
    static CompletableFuture<List<DataValue>> around(HistoryStore store, NodeId node, long from, long to) {
        CompletableFuture<HistoryPage> before = store.read(HistoryQuery.backward(node, from - 1, Long.MIN_VALUE,
                NEIGHBOURS));
        CompletableFuture<HistoryPage> inside = from < to ? store.read(HistoryQuery.forward(node, from, to, 0))
                : CompletableFuture.completedFuture(HistoryPage.EMPTY);
        CompletableFuture<HistoryPage> after = store.read(HistoryQuery.forward(node, to, Long.MAX_VALUE, NEIGHBOURS));
        return CompletableFuture.allOf(before, inside, after).thenApply(ignored -> {
            List<DataValue> earlier = before.join().values();
            List<DataValue> within = inside.join().values();
            List<DataValue> later = after.join().values();
            List<DataValue> all = new ArrayList<>(earlier.size() + within.size() + later.size());
            for (int i = earlier.size() - 1; i >= 0; i--) {
                all.add(earlier.get(i));
            }
            all.addAll(within);
            all.addAll(later);
            return all;
        });
    }
}
