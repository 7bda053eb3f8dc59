package dev.opcua.stack.client;

/**
 * Where an {@link OpcUaClient} stands with its server. The transitions are: DISCONNECTED to CONNECTING
 * on {@link OpcUaClient#connect()}; CONNECTING to CONNECTED (channel open, session active, namespace
 * table and operation limits read) or back to DISCONNECTED when the first connect fails; CONNECTED to
 * RECONNECTING when the channel drops, the keep-alive fails or the session is lost; RECONNECTING to
 * CONNECTED once the session is re-activated or replaced (and the subscriptions are restored); any
 * state to DISCONNECTED on {@link OpcUaClient#disconnect()}.
 */
public enum ClientState {
    /** Opening the first channel and session. */
    CONNECTING,
    /** A session is active: requests are sent at once. */
    CONNECTED,
    /** The connection was lost and is being re-established with backoff; requests wait or fail fast. */
    RECONNECTING,
    /** Not connected and not trying: requests fail with BadNotConnected. */
    DISCONNECTED
}
