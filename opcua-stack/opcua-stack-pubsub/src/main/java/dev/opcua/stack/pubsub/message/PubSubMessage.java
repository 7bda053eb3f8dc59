package dev.opcua.stack.pubsub.message;

/** What a subscriber can receive on a PubSub topic: data (a network message) or a data set's metadata. */
public sealed interface PubSubMessage permits NetworkMessage, MetaDataMessage {
}
