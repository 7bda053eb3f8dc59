package dev.opcua.stack.pubsub.runtime;

/**
 * What a PubSub service has done since it started, summed over its connections.
 *
 * @param messagesSent network and metadata messages handed to the transports
 * @param bytesSent their bytes
 * @param messagesReceived messages taken from the transports
 * @param bytesReceived their bytes
 * @param messagesDropped messages not sent or not read: a publishing interval skipped because the previous one
 *        was still sampling, a received message that was malformed, too large, from an unknown publisher or of
 *        another metadata version (the reasons are also counted one by one below)
 * @param decodeErrors received messages that could not be decoded
 * @param unknownPublishers received data set messages of a publisher or writer no reader expects
 * @param versionMismatches received data set messages whose MetaDataVersion differs from the reader's metadata
 * @param oversized received messages beyond the maximum message size
 * @param dataSetsReceived data set messages handed to targets and listeners
 * @param targetWriteFailures field target writes the address space refused
 * @param publishCount publishing intervals completed
 * @param publishNanosTotal time from the start of an interval's sampling to the hand-off to the transport, summed
 * @param publishNanosMax the longest of those
 */
public record PubSubStatistics(long messagesSent, long bytesSent, long messagesReceived, long bytesReceived,
        long messagesDropped, long decodeErrors, long unknownPublishers, long versionMismatches, long oversized,
        long dataSetsReceived, long targetWriteFailures, long publishCount, long publishNanosTotal,
        long publishNanosMax) {
}
