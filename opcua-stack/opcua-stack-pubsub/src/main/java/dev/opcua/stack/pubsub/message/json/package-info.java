/**
 * The JSON message mapping of PubSub (Part 14, 7.2.5): network messages, data set messages, metadata and status
 * messages as UA JSON (Part 6, 5.4), readable by any JSON consumer and reversible by an OPC UA subscriber that
 * has the data set's metadata.
 */
package dev.opcua.stack.pubsub.message.json;
