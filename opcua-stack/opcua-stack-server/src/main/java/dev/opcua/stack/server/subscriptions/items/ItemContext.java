package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.addressspace.UaNode;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.nodes.SampleSource;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.EventTypeTree;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the items of all subscriptions of a server share: managers, sampler, broker, settings, counters,
 * ids, and for event items the notifier registry and the event types (both null when the server
 * serves no events).
 */
final class ItemContext {

    private static final Logger log = LoggerFactory.getLogger(ItemContext.class);

    final NodeManagers managers;
    final MonitoredItemSettings settings;
    final ItemSampler sampler;
    final DataChangeBroker broker;
    final ItemCounters counters;
    final EventNotifierRegistry notifiers;
    final EventTypeTree eventTypes;
    private final AtomicLong nextId = new AtomicLong();

    ItemContext(NodeManagers managers, MonitoredItemSettings settings, ItemSampler sampler, DataChangeBroker broker,
            ItemCounters counters, EventNotifierRegistry notifiers, EventTypeTree eventTypes) {
        this.managers = managers;
        this.settings = settings;
        this.sampler = sampler;
        this.broker = broker;
        this.counters = counters;
        this.notifiers = notifiers;
        this.eventTypes = eventTypes;
    }

    /** Whether event monitored items can be created. */
    boolean servesEvents() {
        return notifiers != null;
    }

    /** A MonitoredItemId (IntegerId, Part 4, 7.19): UInt32, never 0, unique per server until it wraps. */
    long nextItemId() {
        long id;
        do {
            id = nextId.incrementAndGet() & 0xFFFF_FFFFL;
        } while (id == 0);
        return id;
    }

    /** The direct sample source the node's manager offers for the item, or null to sample it through Read. */
    SampleSource sampleSourceOf(ReadValueId item) {
        NodeManager manager = managers.managerOf(item.nodeId());
        if (manager == null) {
            return null;
        }
        try {
            return manager.sampleSource(item);
        } catch (RuntimeException e) {
            log.warn("{}.sampleSource({}) failed; the item is sampled through Read", manager, item.nodeId(), e);
            return null;
        }
    }

    /**
     * The item's ReadValueId with the node's own NodeId instance when an in-memory manager holds the node, so that
     * an item keeps no NodeId (and string or bytes) of its own decoded from the request; else the item as it is.
     */
    ReadValueId withStoredNodeId(ReadValueId item) {
        if (!(managers.managerOf(item.nodeId()) instanceof NodeStoreNodeManager manager)) {
            return item;
        }
        UaNode node = manager.store().get(item.nodeId());
        if (node == null || node.nodeId() == item.nodeId()) {
            return item;
        }
        return new ReadValueId(node.nodeId(), item.attributeId(), item.indexRange(), item.dataEncoding());
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
