package dev.opcua.stack.history.jdbc;

import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.events.EventHistoryStoreContract;
import java.util.concurrent.atomic.AtomicInteger;

/** The event contract kept by {@link JdbcHistoryStore} on a real PostgreSQL, fresh tables per test. */
class JdbcEventHistoryIT extends EventHistoryStoreContract {

    private static final AtomicInteger TABLES = new AtomicInteger();

    @Override
    protected HistoryStore open() throws Exception {
        return JdbcHistoryStore.open(TestPostgres.dataSource(),
                JdbcHistoryOptions.DEFAULT.withTable("events_" + TABLES.incrementAndGet()));
    }
}
