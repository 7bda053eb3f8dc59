package dev.opcua.stack.pubsub.transport;

import java.io.Serial;

/**
 * A transport could not do what was asked, typically {@link PubSubTransport#start()} failing to reach its broker.
 * The message names the broker and the reason, so it can be shown as is.
 */
public class TransportException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    public TransportException(String message, Throwable cause) {
        super(message, cause);
    }
}
