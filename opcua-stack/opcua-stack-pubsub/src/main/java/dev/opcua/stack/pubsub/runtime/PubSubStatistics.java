package dev.opcua.stack.pubsub.runtime;

import java.time.Instant;

/**
 * What a PubSub service has done since it started, summed over its connections.
 *
 * @param messagesSent network and metadata messages handed to the transports
 * @param bytesSent their bytes
 * @param messagesReceived messages taken from the transports
 * @param bytesReceived their bytes
 * @param messagesDropped messages not sent or not read: a publishing interval skipped or failed, an event
 *        discarded from a full queue, a received message that was malformed, too large, from an unknown publisher
 *        or of another metadata version (each reason is also counted on its own below)
 * @param decodeErrors received messages that could not be decoded
 * @param unknownPublishers received data set messages of a publisher or writer no reader expects
 * @param versionMismatches received data set messages whose MetaDataVersion differs from the reader's metadata
 * @param oversized received messages beyond the maximum message size
 * @param dataSetsReceived data set messages handed to targets and listeners
 * @param targetWriteFailures field target writes the address space refused
 * @param publishCount publishing intervals completed
 * @param publishNanosTotal time from the start of an interval's sampling to the hand-off to the transport, summed
 * @param publishNanosMax the longest of those
 * @param intervalsSkipped publishing intervals skipped because the previous one was still sampling
 * @param eventsDiscarded events discarded from a full event queue (the oldest first)
 * @param publishFailures publishing intervals whose sampling or encoding failed
 * @param lastPublish when a network message last went to the transport, or null before the first
 */
public record PubSubStatistics(long messagesSent, long bytesSent, long messagesReceived, long bytesReceived,
        long messagesDropped, long decodeErrors, long unknownPublishers, long versionMismatches, long oversized,
        long dataSetsReceived, long targetWriteFailures, long publishCount, long publishNanosTotal,
        long publishNanosMax, long intervalsSkipped, long eventsDiscarded, long publishFailures,
        Instant lastPublish) {

    /** Nothing done yet: what a service that has not started reports. */
    public static final PubSubStatistics NONE = new PubSubStatistics(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            null);
}
