package dev.opcua.spring.boot.client;

import java.util.Objects;

/** A fail-fast connection could not be made while the application started. */
public class OpcUaClientConnectException extends IllegalStateException {

    private final String connection;
    private final String endpointUrl;

    public OpcUaClientConnectException(String connection, String endpointUrl, Throwable cause) {
        super("OPC UA client '" + connection + "' could not connect to " + endpointUrl + " and fail-fast is set: "
                + (cause.getMessage() == null ? cause.toString() : cause.getMessage()), cause);
        this.connection = Objects.requireNonNull(connection, "connection");
        this.endpointUrl = Objects.requireNonNull(endpointUrl, "endpointUrl");
    }

    /** The connection's name. */
    public String getConnection() {
        return connection;
    }

    /** The endpoint URL it could not connect to. */
    public String getEndpointUrl() {
        return endpointUrl;
    }
}
