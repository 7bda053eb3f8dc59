/** A {@link dev.opcua.stack.server.history.HistoryStore} in PostgreSQL over plain JDBC, with TimescaleDB used where installed. */
package dev.opcua.stack.history.jdbc;
