package dev.opcua.benchmarks.history;

import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.logging.Logger;
import javax.sql.DataSource;

/**
 * A {@link DataSource} that keeps the physical connections of another one open and hands them out again: what an
 * application's pool (HikariCP in Spring Boot) does for the PostgreSQL store, without the dependency, so that the
 * benchmark measures the store's statements, not a PostgreSQL backend started per batch (also the session state
 * store's connections of a HotAndMirrored {@code BenchServer}). A connection's
 * {@code close()} gives it back; {@link #close()} closes them all. No validation, no limit: for benchmarks only.
 */
public final class ReusedConnections implements DataSource, AutoCloseable {

    private final DataSource physical;
    private final Deque<Connection> idle = new ArrayDeque<>();
    private final List<Connection> all = new ArrayList<>();

    public ReusedConnections(DataSource physical) {
        this.physical = physical;
    }

    @Override
    public Connection getConnection() throws SQLException {
        Connection connection;
        synchronized (this) {
            connection = idle.poll();
        }
        if (connection == null) {
            connection = physical.getConnection();
            synchronized (this) {
                all.add(connection);
            }
        }
        return lend(connection);
    }

    /** The connection behind a proxy whose close() returns it to the idle ones. */
    private Connection lend(Connection connection) {
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("close") && method.getParameterCount() == 0) {
                        synchronized (this) {
                            idle.push(connection);
                        }
                        return null;
                    }
                    try {
                        return method.invoke(connection, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Override
    public Connection getConnection(String username, String password) throws SQLException {
        throw new SQLFeatureNotSupportedException("the benchmark's connections have one user");
    }

    @Override
    public synchronized void close() throws SQLException {
        for (Connection connection : all) {
            connection.close();
        }
        all.clear();
        idle.clear();
    }

    @Override
    public PrintWriter getLogWriter() throws SQLException {
        return physical.getLogWriter();
    }

    @Override
    public void setLogWriter(PrintWriter out) throws SQLException {
        physical.setLogWriter(out);
    }

    @Override
    public void setLoginTimeout(int seconds) throws SQLException {
        physical.setLoginTimeout(seconds);
    }

    @Override
    public int getLoginTimeout() throws SQLException {
        return physical.getLoginTimeout();
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        return physical.getParentLogger();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        return physical.unwrap(type);
    }

    @Override
    public boolean isWrapperFor(Class<?> type) throws SQLException {
        return physical.isWrapperFor(type);
    }
}
