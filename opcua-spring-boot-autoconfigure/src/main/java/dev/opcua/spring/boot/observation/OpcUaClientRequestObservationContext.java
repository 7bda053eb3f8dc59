package dev.opcua.spring.boot.observation;

import io.micrometer.observation.Observation;
import java.util.Objects;

/**
 * What an {@link OpcUaClientRequestObservationConvention} sees of one request a client sends (Part 4, 5):
 * the connection, the service and, once it ended, the status it ended with.
 */
public class OpcUaClientRequestObservationContext extends Observation.Context {

    private final String connection;
    private final String service;
    private volatile boolean finished;
    private volatile long statusCode;

    /**
     * @param connection the connection's name, the key under {@code opcua.client.connections}
     * @param service the service's name as Part 4 writes it ({@code Read}, {@code Publish} ...)
     */
    public OpcUaClientRequestObservationContext(String connection, String service) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.service = Objects.requireNonNull(service, "service");
    }

    /** The connection's name. */
    public String getConnection() {
        return connection;
    }

    /** The service's name as Part 4 writes it. */
    public String getService() {
        return service;
    }

    /** Whether the request ended; until then {@link #getStatusCode()} means nothing. */
    public boolean isFinished() {
        return finished;
    }

    /**
     * How the request ended, unsigned: Good (0) for a response, the ServiceFault's serviceResult, or the
     * status of a failure on the client's side (BadTimeout, BadConnectionClosed ...).
     */
    public long getStatusCode() {
        return statusCode;
    }

    /** Records the end; called once, before the observation stops. */
    public void setStatusCode(long statusCode) {
        this.statusCode = statusCode;
        this.finished = true;
    }
}
