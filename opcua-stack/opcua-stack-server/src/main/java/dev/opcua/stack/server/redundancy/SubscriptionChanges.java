package dev.opcua.stack.server.redundancy;

import java.util.List;
import java.util.Objects;

/**
 * What changed of one mirrored subscription since the mirror last wrote it, in the parts of
 * {@link MirroredSubscriptionCodec}: a store writes each part given and keeps the others as they are.
 *
 * @param subscriptionId the SubscriptionId
 * @param definition the new definition's bytes; null when unchanged (never null for a subscription the store does
 *        not hold yet)
 * @param nextSequenceNumber the sequence number its next NotificationMessage takes
 * @param expiresAtMillis wall-clock time (ms since 1970) at which its lifetime ends if no client takes it over
 * @param queues the new queues' bytes; null when unchanged
 * @param sent the NotificationMessages sent since the last write, oldest first
 * @param acknowledged the sequence numbers of stored messages that left the retransmission queue (acknowledged, or
 *        dropped from a full queue): the store deletes them
 */
public record SubscriptionChanges(long subscriptionId, byte[] definition, long nextSequenceNumber,
        long expiresAtMillis, byte[] queues, List<SentMessage> sent, List<Long> acknowledged) {

    public SubscriptionChanges {
        sent = List.copyOf(sent);
        acknowledged = List.copyOf(acknowledged);
    }

    /** One NotificationMessage as sent: its sequence number and its bytes ({@link MirroredSubscriptionCodec}). */
    public record SentMessage(long sequenceNumber, byte[] bytes) {

        public SentMessage {
            Objects.requireNonNull(bytes, "bytes");
        }
    }

    /** How many bytes these changes write, about. */
    public long size() {
        long size = 32 + (definition == null ? 0 : definition.length) + (queues == null ? 0 : queues.length)
                + 8L * acknowledged.size();
        for (SentMessage message : sent) {
            size += 8 + message.bytes().length;
        }
        return size;
    }
}
