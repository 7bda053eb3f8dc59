/** Event monitored items (Part 4, 5.12.1, 7.22.3): the event model, EventFilter evaluation, the notifier registry. */
package dev.opcua.stack.server.subscriptions.events;
