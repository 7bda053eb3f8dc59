/** Event history (Part 11, 4.3 HistoricalEventNodes): the events a store keeps per notifier, and their recording. */
package dev.opcua.stack.server.history.events;
