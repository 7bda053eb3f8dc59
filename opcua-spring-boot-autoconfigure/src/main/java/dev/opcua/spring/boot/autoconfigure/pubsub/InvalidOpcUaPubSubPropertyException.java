package dev.opcua.spring.boot.autoconfigure.pubsub;

import dev.opcua.spring.boot.autoconfigure.diagnostics.InvalidOpcUaPropertyException;

/** An {@code opcua.pubsub.*} property whose value PubSub cannot use. */
public class InvalidOpcUaPubSubPropertyException extends InvalidOpcUaPropertyException {

    public InvalidOpcUaPubSubPropertyException(String key, Object value, String reason, String allowed,
            Throwable cause) {
        super(key, value, reason, allowed, cause);
    }

    @Override
    public String getSubject() {
        return "OPC UA PubSub";
    }
}
