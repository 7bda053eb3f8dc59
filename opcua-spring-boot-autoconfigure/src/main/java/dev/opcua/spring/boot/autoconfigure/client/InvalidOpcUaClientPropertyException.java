package dev.opcua.spring.boot.autoconfigure.client;

import dev.opcua.spring.boot.autoconfigure.diagnostics.InvalidOpcUaPropertyException;

/** An {@code opcua.client.*} property whose value the client cannot use. */
public class InvalidOpcUaClientPropertyException extends InvalidOpcUaPropertyException {

    public InvalidOpcUaClientPropertyException(String key, Object value, String reason, String allowed,
            Throwable cause) {
        super(key, value, reason, allowed, cause);
    }

    @Override
    public String getSubject() {
        String key = getKey();
        String prefix = OpcUaClientPropertiesMapper.CONNECTIONS + ".";
        if (key.startsWith(prefix)) {
            int end = key.indexOf('.', prefix.length());
            return "OPC UA client connection '" + key.substring(prefix.length(), end < 0 ? key.length() : end) + "'";
        }
        return "OPC UA client";
    }
}
