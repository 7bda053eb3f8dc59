/** The client's subscriptions and monitored items (Part 4, 5.12 and 5.13): its own record of them, the Publish pipeline, listeners and their rebuilding after a reconnect. */
package dev.opcua.stack.client.subscriptions;
