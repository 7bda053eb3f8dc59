package dev.opcua.benchmarks.load;

import java.util.List;

/**
 * A subscriber of the {@code sub} or {@code events} scenario, on a raw session ({@link SubscriberSession}) or
 * through a client's subscription API ({@link LoadSubscriber}): what the scenario reads of it once its
 * subscriptions exist.
 */
interface Subscriber {

    /** The tallies of its subscriptions. */
    List<SubscriptionTally> tallies();

    /** The publishing interval the server revised to, in ms (of the last subscription created). */
    double revisedPublishingMs();

    /** The sampling interval the server revised to, in ms (of the last item created); NaN before. */
    double revisedSamplingMs();

    /** The keep-alive interval the server revised to, in ms: the longest a Publish waits. */
    long keepAliveMs();
}
