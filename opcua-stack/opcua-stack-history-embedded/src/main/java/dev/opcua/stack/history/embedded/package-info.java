/** The embedded default {@link dev.opcua.stack.server.history.HistoryStore}: one crash-safe file under a directory, kept by H2's MVStore. */
package dev.opcua.stack.history.embedded;
