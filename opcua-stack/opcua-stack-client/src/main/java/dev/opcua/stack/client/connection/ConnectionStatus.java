package dev.opcua.stack.client.connection;

import dev.opcua.stack.client.ClientState;
import java.time.Instant;

/**
 * Where a client's connection stands: its {@link ClientState} and why it last left CONNECTED or last
 * failed to connect. The {@link Reconnector} changes it; the {@link RequestGate} reads it to decide
 * whether a request may wait for the connection and to say why it may not.
 *
 * <p>Its monitor is the connection's lock: the reconnector holds it while it changes the state, the
 * session requests go over and the requests waiting for one, and the gate holds it while it decides,
 * so that a request sees all three as of one moment.
 */
final class ConnectionStatus {

    private volatile ClientState state = ClientState.DISCONNECTED;
    /** The error and its time in one field, so that a reader never pairs an error with another's time. */
    private volatile Failure lastError;

    ClientState state() {
        return state;
    }

    /** Under the lock; returns the state before. */
    ClientState state(ClientState next) {
        ClientState previous = state;
        state = next;
        return previous;
    }

    Throwable lastError() {
        Failure last = lastError;
        return last == null ? null : last.cause();
    }

    /** When the last error happened; null before any. */
    Instant lastErrorAt() {
        Failure last = lastError;
        return last == null ? null : last.at();
    }

    /** Under the lock. */
    void lastError(Throwable cause) {
        this.lastError = new Failure(cause, Instant.now());
    }

    /** "; last error: ..." for a message, or nothing before any error. */
    String lastErrorNote() {
        Failure last = lastError;
        return last == null ? "" : "; last error: " + last.cause().getMessage();
    }

    private record Failure(Throwable cause, Instant at) {
    }
}
