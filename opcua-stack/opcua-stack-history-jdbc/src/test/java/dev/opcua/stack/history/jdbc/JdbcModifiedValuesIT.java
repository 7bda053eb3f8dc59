package dev.opcua.stack.history.jdbc;

import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.ModifiedValuesContract;
import java.util.concurrent.atomic.AtomicInteger;

/** Modified values kept by {@link JdbcHistoryStore} on a real PostgreSQL, fresh tables per test. */
class JdbcModifiedValuesIT extends ModifiedValuesContract {

    private static final AtomicInteger TABLES = new AtomicInteger();

    @Override
    protected HistoryStore open() throws Exception {
        return JdbcHistoryStore.open(TestPostgres.dataSource(),
                JdbcHistoryOptions.DEFAULT.withTable("modified_" + TABLES.incrementAndGet()));
    }
}
