package dev.opcua.stack.server.subscriptions.durable;

import java.util.List;

/**
 * Where durable subscriptions (Part 4, 6.8) are kept so that they survive a restart of the server. The
 * {@code SubscriptionManager} saves a durable subscription when it changed (periodically) and when the
 * server closes, removes it when it is deleted or its lifetime ends, and loads them all when the server
 * starts. The default, {@link InMemoryDurableSubscriptionStore}, keeps them only for the life of the JVM;
 * {@code MVStoreDurableSubscriptionStore} of opcua-stack-history-embedded keeps them in a file.
 *
 * <p>Implementations are thread-safe; {@link #save} replaces the record with the same id and is durable
 * when it returns (as far as the implementation promises).
 */
public interface DurableSubscriptionStore extends AutoCloseable {

    /** Stores or replaces the record of {@code record.subscriptionId()}. */
    void save(DurableSubscriptionRecord record);

    /** Forgets the subscription with this id; nothing when it is not stored. */
    void remove(long subscriptionId);

    /** Every stored record, in no particular order. */
    List<DurableSubscriptionRecord> loadAll();

    /** Releases the store's resources; records stay stored. */
    @Override
    void close();
}
