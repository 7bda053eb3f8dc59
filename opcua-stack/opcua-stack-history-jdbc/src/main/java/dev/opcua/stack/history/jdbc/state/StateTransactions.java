package dev.opcua.stack.history.jdbc.state;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Runs a state store's statements in one transaction on a connection of their own from the application's
 * DataSource; a failure is rolled back and thrown as an {@link IllegalStateException} that names the store's
 * table and what failed.
 */
final class StateTransactions {

    /** What a store does with one connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private StateTransactions() {
    }

    static <T> T run(DataSource dataSource, String store, String what, Work<T> work) {
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                connection.rollback();
                throw e;
            }
        } catch (SQLException e) {
            throw new IllegalStateException(store + ": " + what + " failed: " + e.getMessage(), e);
        }
    }
}
