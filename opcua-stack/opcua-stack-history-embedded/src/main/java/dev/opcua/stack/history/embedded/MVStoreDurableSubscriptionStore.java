package dev.opcua.stack.history.embedded;

import dev.opcua.stack.server.subscriptions.durable.DurableRecordCodec;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link DurableSubscriptionStore} in a file, {@value #FILE_NAME} in a given directory (beside the embedded
 * history store's file, or anywhere): H2's MVStore with one map from SubscriptionId to the record's UA Binary
 * encoding ({@link DurableRecordCodec}). Every save and remove is committed and synced to the disk before it
 * returns, so that a server killed between two snapshots restarts from the last one. MVStore never overwrites
 * live data; a chunk torn by a crash is ignored on open. A record that cannot be decoded (written by another
 * format) is logged and skipped by {@link #loadAll}. Thread-safe (MVStore's maps are).
 */
public final class MVStoreDurableSubscriptionStore implements DurableSubscriptionStore {

    private static final Logger log = LoggerFactory.getLogger(MVStoreDurableSubscriptionStore.class);

    /** The file's name in its directory. */
    public static final String FILE_NAME = "durable-subscriptions.mv.db";
    private static final String MAP = "subscriptions";

    private final Path file;
    private final MVStore store;
    private final MVMap<Long, byte[]> records;

    private MVStoreDurableSubscriptionStore(Path directory) {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new UncheckedIOException("the durable subscription directory " + directory + " cannot be created",
                    e);
        }
        this.file = directory.resolve(FILE_NAME);
        try {
            this.store = new MVStore.Builder().fileName(file.toString()).autoCommitDisabled().open();
        } catch (RuntimeException e) {
            throw new IllegalStateException("the durable subscription file " + file + " cannot be opened: "
                    + e.getMessage(), e);
        }
        this.records = store.openMap(MAP);
        log.info("durable subscription store {}: {} subscriptions", file, records.size());
    }

    /** Opens (or creates) the store in {@code directory}. */
    public static MVStoreDurableSubscriptionStore open(Path directory) {
        return new MVStoreDurableSubscriptionStore(directory);
    }

    /** The file the records are kept in. */
    public Path file() {
        return file;
    }

    @Override
    public synchronized void save(DurableSubscriptionRecord record) {
        records.put(record.subscriptionId(), DurableRecordCodec.encode(record));
        commit();
    }

    @Override
    public synchronized void remove(long subscriptionId) {
        if (records.remove(subscriptionId) != null) {
            commit();
        }
    }

    @Override
    public List<DurableSubscriptionRecord> loadAll() {
        List<DurableSubscriptionRecord> all = new ArrayList<>(records.size());
        for (Map.Entry<Long, byte[]> entry : records.entrySet()) {
            try {
                all.add(DurableRecordCodec.decode(entry.getValue()));
            } catch (RuntimeException e) {
                log.warn("durable subscription {} in {} cannot be read and is skipped: {}", entry.getKey(), file,
                        e.getMessage());
            }
        }
        return all;
    }

    /** Records stored now. */
    public int size() {
        return records.size();
    }

    private void commit() {
        store.commit();
        store.sync();
    }

    @Override
    public synchronized void close() {
        if (!store.isClosed()) {
            store.close();
        }
    }
}
