/** Subscriptions, publishing and the contracts between subscriptions and their monitored items (Part 4, 5.13). */
package dev.opcua.stack.server.subscriptions;
