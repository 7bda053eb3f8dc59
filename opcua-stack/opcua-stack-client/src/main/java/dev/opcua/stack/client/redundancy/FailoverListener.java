package dev.opcua.stack.client.redundancy;

/**
 * Told of each completed failover of an {@link dev.opcua.stack.client.OpcUaClient}, on the client's listener
 * executor (the callback threads by default), where the client's blocking calls are allowed.
 */
@FunctionalInterface
public interface FailoverListener {

    void onFailover(FailoverEvent event);
}
