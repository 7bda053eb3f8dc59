package dev.opcua.spring.boot.autoconfigure.server;

import dev.opcua.spring.boot.autoconfigure.diagnostics.InvalidOpcUaPropertyException;

/** An {@code opcua.server.*} property whose value the server cannot use. */
public class InvalidOpcUaServerPropertyException extends InvalidOpcUaPropertyException {

    /**
     * @param key the property's full name, for example {@code opcua.server.security.policies[1]}
     * @param value the value bound to it (may be null)
     * @param reason what is wrong with it
     * @param allowed what the key accepts
     */
    public InvalidOpcUaServerPropertyException(String key, Object value, String reason, String allowed) {
        this(key, value, reason, allowed, null);
    }

    public InvalidOpcUaServerPropertyException(String key, Object value, String reason, String allowed,
            Throwable cause) {
        super(key, value, reason, allowed, cause);
    }

    @Override
    public String getSubject() {
        return "OPC UA server";
    }
}
