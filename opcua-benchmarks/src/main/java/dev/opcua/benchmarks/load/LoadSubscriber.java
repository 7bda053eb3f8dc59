package dev.opcua.benchmarks.load;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A subscriber of the {@code sub} scenario through the subscription API of the client under test
 * ({@code --client ours|milo}): one connected client whose subscriptions, monitored items, Publish
 * requests and acknowledgements are the client's own. Each value an item's listener receives is counted
 * as one notification and recorded in its subscription's {@link SubscriptionTally}, by the item's index
 * (the listener knows it; the client's clientHandles are its own business).
 */
abstract class LoadSubscriber implements Subscriber, AutoCloseable {

    /** Requested keep-alive count and lifetime count: those of the raw subscribers. */
    static final long KEEP_ALIVE_COUNT = 10;
    static final long LIFETIME_COUNT = 1000;

    private final SubMetrics metrics;
    private final List<SubscriptionTally> tallies = new CopyOnWriteArrayList<>();
    /** Wall clock less {@link System#nanoTime()}: the receive time of a value without reading the clock twice. */
    private final long epochOffsetNanos = SubscriptionTally.epochNanos(Instant.now()) - System.nanoTime();
    protected volatile double revisedPublishingMs;
    protected volatile long revisedKeepAliveCount;
    protected volatile double revisedSamplingMs = Double.NaN;

    protected LoadSubscriber(SubMetrics metrics) {
        this.metrics = metrics;
    }

    /**
     * Creates one subscription of {@code slots.length} data-change items, item {@code k} on the variable
     * {@code Var.slots[k]}, Reporting, discarding the oldest of {@code queueSize} values; its values go to
     * {@code tally}. The client publishes from then on.
     *
     * @throws IllegalStateException naming the status when the server refuses the subscription or an item
     */
    abstract void subscribe(double publishingMs, double samplingMs, long queueSize, int[] slots,
            SubscriptionTally tally) throws Exception;

    /** Keep-alive messages received so far, all subscriptions of the client together. */
    abstract long keepAlives();

    /** Notifications the client lost or dropped so far (sequence gaps, full listener queues, listener failures). */
    abstract long losses();

    /** Closes the session (its subscriptions with it) and the channel; reports a failure. */
    abstract void disconnect() throws Exception;

    /** Closes the client, best effort. */
    @Override
    public abstract void close();

    protected final void added(SubscriptionTally tally) {
        tallies.add(tally);
    }

    protected final SubMetrics metrics() {
        return metrics;
    }

    /**
     * What every item listener does with a value: counts a notification and records value {@code w} (see
     * {@link SubscriptionTally#writerValue}) of item {@code index} with its source timestamp in 100 ns ticks
     * since 1601 (0 when it has none).
     */
    protected final void received(SubscriptionTally tally, int index, long w, long sourceTicks) {
        long now = System.nanoTime();
        metrics.notifications(1);
        tally.recordValue(index, w, now, epochOffsetNanos + now, SubscriptionTally.epochNanosOfTicks(sourceTicks));
    }

    @Override
    public final List<SubscriptionTally> tallies() {
        return List.copyOf(tallies);
    }

    @Override
    public final double revisedPublishingMs() {
        return revisedPublishingMs;
    }

    @Override
    public final double revisedSamplingMs() {
        return revisedSamplingMs;
    }

    @Override
    public final long keepAliveMs() {
        return (long) Math.ceil(revisedPublishingMs * revisedKeepAliveCount);
    }
}
