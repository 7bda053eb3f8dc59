/**
 * Micrometer meters of a running OPC UA server (request queue, sessions, channels, subscriptions, traffic)
 * and of the application's OPC UA client connections (state, reconnects, subscriptions, notifications,
 * Publish latency).
 */
package dev.opcua.spring.boot.actuate.metrics;
