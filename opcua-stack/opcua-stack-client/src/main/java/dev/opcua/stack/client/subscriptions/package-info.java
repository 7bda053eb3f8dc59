/** The client's subscriptions and monitored items (Part 4, 5.12 and 5.13): its own record of them and its rebuilding after a reconnect, the Publish pipeline and acknowledgements, sequencing with Republish, and listener delivery. */
package dev.opcua.stack.client.subscriptions;
