/**
 * The messages of PubSub independent of their encoding (Part 14, 7.2): network messages holding data set
 * messages, and the data set metadata. The mappings to bytes live in the subpackages {@code json} and
 * {@code uadp}.
 */
package dev.opcua.stack.pubsub.message;
