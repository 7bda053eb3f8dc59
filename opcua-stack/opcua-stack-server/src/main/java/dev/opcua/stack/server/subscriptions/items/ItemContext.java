package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NodeManagers;
import java.util.concurrent.atomic.AtomicLong;

/** What the items of all subscriptions of a server share: managers, sampler, broker, settings, counters, ids. */
final class ItemContext {

    final NodeManagers managers;
    final MonitoredItemSettings settings;
    final ItemSampler sampler;
    final DataChangeBroker broker;
    final ItemCounters counters;
    private final AtomicLong nextId = new AtomicLong();

    ItemContext(NodeManagers managers, MonitoredItemSettings settings, ItemSampler sampler, DataChangeBroker broker,
            ItemCounters counters) {
        this.managers = managers;
        this.settings = settings;
        this.sampler = sampler;
        this.broker = broker;
        this.counters = counters;
    }

    /** A MonitoredItemId (IntegerId, Part 4, 7.19): UInt32, never 0, unique per server until it wraps. */
    long nextItemId() {
        long id;
        do {
            id = nextId.incrementAndGet() & 0xFFFF_FFFFL;
        } while (id == 0);
        return id;
    }

    /** The node's manager when it wants to know about monitoring, else null. */
    MonitoringAware awareManagerOf(NodeId nodeId, long attributeId) {
        if (attributeId != AttributeIds.Value) {
            return null;
        }
        NodeManager manager = managers.managerOf(nodeId);
        return manager instanceof MonitoringAware aware ? aware : null;
    }
}
