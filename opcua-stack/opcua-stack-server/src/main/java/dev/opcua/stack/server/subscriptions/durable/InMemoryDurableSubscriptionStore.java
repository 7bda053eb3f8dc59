package dev.opcua.stack.server.subscriptions.durable;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link DurableSubscriptionStore} in memory: records are kept encoded (as a file store would keep them,
 * so that a round trip through it is a round trip through {@link DurableRecordCodec}) for as long as this
 * object lives. Two servers of one JVM given the same instance hand durable subscriptions from one to the
 * other; across processes use a file store.
 */
public final class InMemoryDurableSubscriptionStore implements DurableSubscriptionStore {

    private final Map<Long, byte[]> records = new ConcurrentHashMap<>();

    @Override
    public void save(DurableSubscriptionRecord record) {
        records.put(record.subscriptionId(), DurableRecordCodec.encode(record));
    }

    @Override
    public void remove(long subscriptionId) {
        records.remove(subscriptionId);
    }

    @Override
    public List<DurableSubscriptionRecord> loadAll() {
        List<DurableSubscriptionRecord> all = new ArrayList<>(records.size());
        for (byte[] bytes : records.values()) {
            all.add(DurableRecordCodec.decode(bytes));
        }
        return all;
    }

    /** Records stored now. */
    public int size() {
        return records.size();
    }

    @Override
    public void close() {
    }
}
