package dev.opcua.stack.client.redundancy;

/**
 * Told of each completed failover of an {@link dev.opcua.stack.client.OpcUaClient}, on the client's
 * callback executor. Must not block.
 */
@FunctionalInterface
public interface FailoverListener {

    void onFailover(FailoverEvent event);
}
