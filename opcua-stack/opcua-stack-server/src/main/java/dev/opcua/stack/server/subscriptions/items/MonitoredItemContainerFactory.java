package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.subscriptions.ItemContainerFactory;
import dev.opcua.stack.server.subscriptions.ItemOwner;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.EventTypeTree;
import dev.opcua.stack.server.subscriptions.sampling.SamplingScheduler;
import java.util.Objects;

/**
 * Creates the {@link MonitoredItemContainer} of each subscription and owns what the items of all
 * subscriptions of a server share (Part 4, 5.12): the sampler (one {@link SamplingScheduler} thread,
 * {@value #SAMPLER_THREAD}), the server-wide MonitoredItemIds and the settings; for event items
 * (5.12.1, 7.22.3) the server's {@link EventNotifierRegistry} and {@link EventTypeTree}, which the
 * server owns. One per server; {@link #close()} stops the sampler.
 */
public final class MonitoredItemContainerFactory implements ItemContainerFactory, AutoCloseable {

    /** Name of the sampling thread. */
    public static final String SAMPLER_THREAD = "opcua-sampler";

    private final ItemContext context;

    /**
     * A factory of data-change and event items.
     *
     * @param managers read to validate and sample items, and to check the EventNotifier of event items
     * @param broker where node managers that push values report them (also given to those managers)
     * @param notifiers where event items subscribe to their notifier's events
     * @param eventTypes the event types that EventFilters are compiled against
     * @param settings bounds of sampling intervals and queue sizes
     * @param counters the server's statistics
     */
    public MonitoredItemContainerFactory(NodeManagers managers, DataChangeBroker broker,
            EventNotifierRegistry notifiers, EventTypeTree eventTypes, MonitoredItemSettings settings,
            ItemCounters counters) {
        this(managers, broker, Objects.requireNonNull(notifiers, "notifiers"),
                Objects.requireNonNull(eventTypes, "eventTypes"), settings, counters,
                new ItemSampler(Objects.requireNonNull(managers, "managers"), SAMPLER_THREAD));
    }

    /**
     * A factory of data-change items only: event items are refused with
     * BadMonitoredItemFilterUnsupported.
     */
    public MonitoredItemContainerFactory(NodeManagers managers, DataChangeBroker broker,
            MonitoredItemSettings settings, ItemCounters counters) {
        this(managers, broker, null, null, settings, counters,
                new ItemSampler(Objects.requireNonNull(managers, "managers"), SAMPLER_THREAD));
    }

    /** With a given sampler: tests pass {@link ItemSampler#manual}; null notifiers and types serve no events. */
    MonitoredItemContainerFactory(NodeManagers managers, DataChangeBroker broker, EventNotifierRegistry notifiers,
            EventTypeTree eventTypes, MonitoredItemSettings settings, ItemCounters counters, ItemSampler sampler) {
        if ((notifiers == null) != (eventTypes == null)) {
            throw new IllegalArgumentException("event items need both the notifier registry and the event types");
        }
        this.context = new ItemContext(Objects.requireNonNull(managers, "managers"),
                Objects.requireNonNull(settings, "settings"), sampler, Objects.requireNonNull(broker, "broker"),
                Objects.requireNonNull(counters, "counters"), notifiers, eventTypes);
    }

    /** The sampler, for tests. */
    ItemSampler sampler() {
        return context.sampler;
    }

    @Override
    public MonitoredItemContainer create(ItemOwner owner) {
        return new MonitoredItemContainer(Objects.requireNonNull(owner, "owner"), context);
    }

    public DataChangeBroker broker() {
        return context.broker;
    }

    /** Where event items subscribe; null when this factory serves no events. */
    public EventNotifierRegistry eventNotifiers() {
        return context.notifiers;
    }

    /** The event types EventFilters are compiled against; null when this factory serves no events. */
    public EventTypeTree eventTypes() {
        return context.eventTypes;
    }

    public MonitoredItemSettings settings() {
        return context.settings;
    }

    /** The shared scheduler, for its statistics (ticks, late ticks, restarts). */
    public SamplingScheduler<MonitoredItem> samplingScheduler() {
        return context.sampler.scheduler();
    }

    /** Items sampled now (enabled, not fed by pushes). */
    public long sampledItems() {
        return context.sampler.memberCount();
    }

    /** Batched reads the sampler started, one per group tick. */
    public long samplingReads() {
        return context.sampler.reads();
    }

    /** Samples taken from the sample sources of node managers instead of a read. */
    public long sourcedSamples() {
        return context.sampler.sourcedSamples();
    }

    /** Group ticks skipped because the group's previous read had not completed (a slow node manager). */
    public long skippedSamplingTicks() {
        return context.sampler.skippedTicks();
    }

    /** Stops the sampling thread; idempotent. Items are deleted by their subscriptions. */
    @Override
    public void close() {
        context.sampler.close();
    }
}
