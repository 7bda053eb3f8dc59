package dev.opcua.stack.pubsub.transport.mqtt;

import com.hivemq.client.mqtt.exceptions.ConnectionClosedException;
import com.hivemq.client.mqtt.exceptions.ConnectionFailedException;
import com.hivemq.client.mqtt.exceptions.MqttClientStateException;
import com.hivemq.client.mqtt.exceptions.MqttSessionExpiredException;
import dev.opcua.stack.core.Failures;

/** Turns the HiveMQ client's exceptions into short sentences and tells connection loss from refusal. */
final class MqttFailures {

    private MqttFailures() {
    }

    /**
     * Whether a failed publish failed only because the connection went away (the message may be sent again after
     * the reconnect), rather than because the broker or the client refused it.
     */
    static boolean isConnectionLoss(Throwable t) {
        t = Failures.unwrap(t);
        return t instanceof ConnectionClosedException || t instanceof ConnectionFailedException
                || t instanceof MqttSessionExpiredException || t instanceof MqttClientStateException;
    }

    /** The message of the failure and of its causes, e.g. "connection refused: localhost/127.0.0.1:1883". */
    static String describe(Throwable t) {
        t = Failures.unwrap(t);
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null && sb.length() < 500; c = c.getCause()) {
            String m = c.getMessage();
            String text = m == null || m.isBlank() ? c.getClass().getSimpleName() : m;
            if (sb.indexOf(text) < 0) {
                if (!sb.isEmpty()) {
                    sb.append(": ");
                }
                sb.append(text);
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return sb.toString();
    }
}
