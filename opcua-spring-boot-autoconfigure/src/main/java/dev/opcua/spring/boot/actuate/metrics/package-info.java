/** Micrometer meters of a running OPC UA server: request queue, sessions, channels, subscriptions, traffic. */
package dev.opcua.spring.boot.actuate.metrics;
