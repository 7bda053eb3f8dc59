package dev.opcua.stack.pubsub.runtime;

import java.time.Instant;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;

/** The counters behind {@link PubSubStatistics}, written by publishers and readers on their own threads. */
public final class PubSubCounters {

    final LongAdder messagesSent = new LongAdder();
    final LongAdder bytesSent = new LongAdder();
    final LongAdder messagesReceived = new LongAdder();
    final LongAdder bytesReceived = new LongAdder();
    final LongAdder messagesDropped = new LongAdder();
    final LongAdder decodeErrors = new LongAdder();
    final LongAdder unknownPublishers = new LongAdder();
    final LongAdder versionMismatches = new LongAdder();
    final LongAdder oversized = new LongAdder();
    final LongAdder dataSetsReceived = new LongAdder();
    final LongAdder targetWriteFailures = new LongAdder();
    final LongAdder intervalsSkipped = new LongAdder();
    final LongAdder eventsDiscarded = new LongAdder();
    final LongAdder publishFailures = new LongAdder();
    private volatile long lastPublishMillis;
    final LongAdder publishCount = new LongAdder();
    final LongAdder publishNanosTotal = new LongAdder();
    final LongAccumulator publishNanosMax = new LongAccumulator(Math::max, 0);

    void sent(int bytes) {
        messagesSent.increment();
        bytesSent.add(bytes);
    }

    void received(int bytes) {
        messagesReceived.increment();
        bytesReceived.add(bytes);
    }

    void published(long nanos) {
        publishCount.increment();
        publishNanosTotal.add(nanos);
        publishNanosMax.accumulate(nanos);
        lastPublishMillis = System.currentTimeMillis();
    }

    public PubSubStatistics snapshot() {
        return new PubSubStatistics(messagesSent.sum(), bytesSent.sum(), messagesReceived.sum(), bytesReceived.sum(),
                messagesDropped.sum(), decodeErrors.sum(), unknownPublishers.sum(), versionMismatches.sum(),
                oversized.sum(), dataSetsReceived.sum(), targetWriteFailures.sum(), publishCount.sum(),
                publishNanosTotal.sum(), publishNanosMax.get(), intervalsSkipped.sum(), eventsDiscarded.sum(),
                publishFailures.sum(), lastPublishMillis == 0 ? null : Instant.ofEpochMilli(lastPublishMillis));
    }
}
