package dev.opcua.stack.history.jdbc;

import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.history.HistoryStoreContract;
import java.util.concurrent.atomic.AtomicInteger;

/** The HistoryStore contract kept by {@link JdbcHistoryStore} on a real PostgreSQL, a fresh table per test. */
class JdbcHistoryStoreContractIT extends HistoryStoreContract {

    private static final AtomicInteger TABLES = new AtomicInteger();

    @Override
    protected HistoryStore open() throws Exception {
        return JdbcHistoryStore.open(TestPostgres.dataSource(),
                JdbcHistoryOptions.DEFAULT.withTable("contract_" + TABLES.incrementAndGet()));
    }
}
