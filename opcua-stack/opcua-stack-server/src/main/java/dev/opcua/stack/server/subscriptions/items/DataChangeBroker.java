package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where node managers report value changes of the nodes they push (Part 4, 5.12.1.2: an
 * exception-based item, sampling interval 0), one per server. A report reaches exactly the items
 * that monitor that node's Value through this path, found in a map from NodeId to items that the
 * items maintain when they start and stop: no scan of other items.
 *
 * <p>Thread-safe and lock-free for reporters; call {@link #valueChanged} from any thread, for
 * every change, in the order the changes happened.
 */
public final class DataChangeBroker {

    private final ConcurrentHashMap<NodeId, Set<MonitoredItem>> byNode = new ConcurrentHashMap<>();

    /**
     * The Value attribute of {@code nodeId} changed: every item fed by pushes for that node
     * samples {@code value} (its index range applied). A server timestamp is added when the value
     * has none.
     */
    public void valueChanged(NodeId nodeId, DataValue value) {
        Set<MonitoredItem> items = byNode.get(nodeId);
        if (items == null) {
            return;
        }
        DataValue stamped = value.serverTimestamp() != null ? value
                : DataValue.of(value.value(), value.statusCode(), value.sourceTimestamp(), value.sourcePicoseconds(),
                        DateTime.currentMillisecond(), 0);
        for (MonitoredItem item : items) {
            item.onPushedValue(stamped);
        }
    }

    /** Whether any item is fed by pushes for the node; a manager may skip building values nobody takes. */
    public boolean isMonitored(NodeId nodeId) {
        return byNode.containsKey(nodeId);
    }

    /** Nodes that items are fed for now. */
    public int monitoredNodes() {
        return byNode.size();
    }

    void add(MonitoredItem item) {
        byNode.compute(item.nodeId(), (node, items) -> {
            Set<MonitoredItem> set = items != null ? items : ConcurrentHashMap.newKeySet(2);
            set.add(item);
            return set;
        });
    }

    void remove(MonitoredItem item) {
        byNode.computeIfPresent(item.nodeId(), (node, items) -> {
            items.remove(item);
            return items.isEmpty() ? null : items;
        });
    }
}
