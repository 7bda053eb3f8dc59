package dev.opcua.spring.boot.autoconfigure.client;

import dev.opcua.spring.boot.autoconfigure.diagnostics.InvalidOpcUaPropertyException;

/** An {@code opcua.client.*} property whose value the client cannot use. */
public class InvalidOpcUaClientPropertyException extends InvalidOpcUaPropertyException {

    private final String connection;

    /** An error of a property under {@code opcua.client.connections.<name>}, which names the connection. */
    public InvalidOpcUaClientPropertyException(String key, Object value, String reason, String allowed,
            Throwable cause) {
        this(null, key, value, reason, allowed, cause);
    }

    /**
     * @param connection the name of the connection, or null to take it from the key
     * @param key the property's full name; null when the error names no property of the connection
     */
    public InvalidOpcUaClientPropertyException(String connection, String key, Object value, String reason,
            String allowed, Throwable cause) {
        super(key, value, reason, allowed, cause);
        this.connection = connection != null ? connection : connectionOf(key);
    }

    @Override
    public String getSubject() {
        return connection == null ? "OPC UA client" : "OPC UA client connection '" + connection + "'";
    }

    private static String connectionOf(String key) {
        String prefix = OpcUaClientPropertiesMapper.CONNECTIONS + ".";
        if (key == null || !key.startsWith(prefix)) {
            return null;
        }
        int end = key.indexOf('.', prefix.length());
        return key.substring(prefix.length(), end < 0 ? key.length() : end);
    }
}
