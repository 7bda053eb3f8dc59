package dev.opcua.stack.history.jdbc.state;

import dev.opcua.stack.server.subscriptions.durable.DurableRecordCodec;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link DurableSubscriptionStore} (Part 4, 6.8) in PostgreSQL: one row per durable subscription in
 * {@code <prefix>_durable} ({@link StateSchema}), the record in the UA Binary of {@link DurableRecordCodec}. Each
 * save is one upsert in its own transaction, committed when it returns, so that a server killed between two
 * snapshots restarts from the last one, and a partner or a restarted server on the same database restores them. A
 * row that cannot be decoded (another format) is logged and skipped by {@link #loadAll}.
 *
 * <p>The server saves from its publishing thread once a second (never from an I/O thread); while the database is
 * away a save fails with an {@link IllegalStateException} that names the table, the server logs it and saves again
 * at the next snapshot. Thread-safe: each call takes a connection of its own from the application's DataSource,
 * which stays the application's.
 */
public final class JdbcDurableSubscriptionStore implements DurableSubscriptionStore {

    private static final Logger log = LoggerFactory.getLogger(JdbcDurableSubscriptionStore.class);

    private final DataSource dataSource;
    private final String table;

    private JdbcDurableSubscriptionStore(DataSource dataSource, String table) {
        this.dataSource = dataSource;
        this.table = table;
    }

    /**
     * Creates the table {@code <prefix>_durable} when missing.
     *
     * @param prefix a lower-case SQL identifier, e.g. {@code opcua_state}
     * @throws SQLException when the database cannot be reached or the table cannot be created
     */
    public static JdbcDurableSubscriptionStore open(DataSource dataSource, String prefix) throws SQLException {
        StateSchema.create(dataSource, prefix, StateSchema::createDurable);
        JdbcDurableSubscriptionStore store = new JdbcDurableSubscriptionStore(dataSource,
                StateSchema.durableTable(prefix));
        log.info("durable subscription store on table {}", store.table);
        return store;
    }

    /** The table's name. */
    public String table() {
        return table;
    }

    @Override
    public void save(DurableSubscriptionRecord record) {
        byte[] bytes = DurableRecordCodec.encode(record);
        run("save of subscription " + record.subscriptionId(), connection -> {
            try (PreparedStatement upsert = connection.prepareStatement("INSERT INTO " + table
                    + " (subscription_id, record, saved_at) VALUES (?, ?, ?) ON CONFLICT (subscription_id)"
                    + " DO UPDATE SET record = EXCLUDED.record, saved_at = EXCLUDED.saved_at")) {
                upsert.setLong(1, record.subscriptionId());
                upsert.setBytes(2, bytes);
                upsert.setLong(3, System.currentTimeMillis());
                upsert.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void remove(long subscriptionId) {
        run("removal of subscription " + subscriptionId, connection -> {
            try (PreparedStatement delete = connection.prepareStatement("DELETE FROM " + table
                    + " WHERE subscription_id = ?")) {
                delete.setLong(1, subscriptionId);
                delete.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public List<DurableSubscriptionRecord> loadAll() {
        return run("loading", connection -> {
            List<DurableSubscriptionRecord> all = new ArrayList<>();
            try (PreparedStatement select = connection.prepareStatement("SELECT subscription_id, record FROM "
                    + table); ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    try {
                        all.add(DurableRecordCodec.decode(rows.getBytes(2)));
                    } catch (RuntimeException e) {
                        log.warn("durable subscription {} in {} is skipped: {}", rows.getLong(1), table,
                                e.getMessage());
                    }
                }
            }
            return all;
        });
    }

    /** Nothing to release: connections are taken per call and the DataSource is the application's. */
    @Override
    public void close() {
    }

    @Override
    public String toString() {
        return "JdbcDurableSubscriptionStore[" + table + "]";
    }

    private <T> T run(String what, StateTransactions.Work<T> work) {
        return StateTransactions.run(dataSource, "durable subscription store " + table, what, work);
    }
}
