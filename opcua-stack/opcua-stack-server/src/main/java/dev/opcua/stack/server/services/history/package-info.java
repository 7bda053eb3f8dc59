/** The Historical Access services (Part 4, 5.10; Part 11, 6): HistoryRead by kind of details, HistoryUpdate, their continuation points. */
package dev.opcua.stack.server.services.history;
