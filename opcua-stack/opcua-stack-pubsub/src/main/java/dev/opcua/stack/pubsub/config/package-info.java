/**
 * What a PubSub application publishes and reads (Part 14, 6.2): published data sets, connections with their
 * writer groups, data set writers and data set readers. Immutable records checked when built, so that a
 * wrong configuration fails at startup with a message naming the element.
 */
package dev.opcua.stack.pubsub.config;
