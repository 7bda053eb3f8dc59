package dev.opcua.stack.client.redundancy;

/**
 * Told of each completed failover of an {@link dev.opcua.stack.client.OpcUaClient}, on the listener executor given
 * to the client's configuration or else the callback threads, where the client's blocking calls are allowed.
 */
@FunctionalInterface
public interface FailoverListener {

    void onFailover(FailoverEvent event);
}
