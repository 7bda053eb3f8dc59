package dev.opcua.benchmarks.load;

import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.runtime.DataSetListener;
import dev.opcua.stack.pubsub.runtime.ReceivedDataSet;
import java.time.Instant;

/**
 * What one subscriber of the {@code pubsub} scenario received: the listener of its DataSetReader. It checks the
 * DataSetMessage sequence numbers (compared on their low 16 bits, as UADP carries them; the writer starts at 0 and
 * the reader subscribed before the publisher started), counts every value of every message that is not a repeat,
 * and while the window is open records the latency from the message's Timestamp (the publisher's clock in this same
 * JVM, {@link DateTime#now()} when the network message was made) to the listener. Runs on the subscriber's MQTT
 * callback thread; read under its lock.
 */
final class PubSubTally implements DataSetListener {

    private final LatencyHistogram latency = new LatencyHistogram();
    private volatile boolean recording;
    private long next;
    private long messages;
    private long values;
    private long duplicates;
    private long gaps;
    private long missing;
    private long untimed;

    /** Whether latencies are recorded (the window), or not (warmup, drain). */
    void recording(boolean on) {
        recording = on;
    }

    @Override
    public void onDataSet(ReceivedDataSet dataSet) {
        if (dataSet.type() == DataSetMessageType.KEEP_ALIVE) {
            return;
        }
        Instant now = Instant.now();
        synchronized (this) {
            long seq = dataSet.sequenceNumber() & 0xFFFF;
            long ahead = (seq - next) & 0xFFFF;
            if (ahead >= 0x8000) {
                duplicates++; // behind the next expected: a repeat (QoS 1 redelivery) or a late one
                return;
            }
            if (ahead > 0) {
                gaps++;
                missing += ahead;
            }
            next = (seq + 1) & 0xFFFF;
            messages++;
            values += dataSet.fields().size();
            if (recording) {
                DateTime stamp = dataSet.timestamp();
                if (stamp == null) {
                    untimed++;
                } else {
                    Instant sent = stamp.toInstant();
                    latency.record((now.getEpochSecond() - sent.getEpochSecond()) * 1_000_000_000L
                            + now.getNano() - sent.getNano());
                }
            }
        }
    }

    synchronized long messages() {
        return messages;
    }

    synchronized long values() {
        return values;
    }

    synchronized long duplicates() {
        return duplicates;
    }

    /** Times the sequence numbers jumped ahead. */
    synchronized long gaps() {
        return gaps;
    }

    /** Messages the jumps skipped. */
    synchronized long missing() {
        return missing;
    }

    /** Messages in the window without a Timestamp. */
    synchronized long untimed() {
        return untimed;
    }

    synchronized void addLatencyTo(LatencyHistogram total) {
        total.add(latency);
    }
}
