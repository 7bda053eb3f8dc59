/**
 * Durable subscriptions (Part 4, 6.8; Part 5, 9.3 SetSubscriptionDurable): the method of the Server
 * object that makes a subscription durable. A durable subscription has a lifetime in hours, monitored
 * items with larger queues, and outlives its session until a client transfers it (Part 4, 5.13.7).
 */
package dev.opcua.stack.server.subscriptions.durable;
