/** Data-change and event monitored items, their filters and queues, sampling, the push API for node managers and the MonitoredItem service set (Part 4, 5.12). */
package dev.opcua.stack.server.subscriptions.items;
