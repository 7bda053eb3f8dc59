/** Historical Access (Part 11): the {@link dev.opcua.stack.server.history.HistoryStore} SPI, its value types and the in-memory store. */
package dev.opcua.stack.server.history;
