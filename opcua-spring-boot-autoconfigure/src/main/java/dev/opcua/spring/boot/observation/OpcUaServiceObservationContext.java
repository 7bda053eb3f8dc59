package dev.opcua.spring.boot.observation;

import io.micrometer.observation.Observation;
import java.util.Objects;

/**
 * What an {@link OpcUaServiceObservationConvention} sees of one service call (Part 4, 5): the service,
 * the secure channel it came on and, once answered, the serviceResult sent.
 */
public class OpcUaServiceObservationContext extends Observation.Context {

    private final String service;
    private final long secureChannelId;
    private volatile boolean finished;
    private volatile long statusCode;

    /**
     * @param service the service's name as Part 4 writes it ({@code Read}, {@code CreateSubscription} ...)
     * @param secureChannelId the secure channel the request came on
     */
    public OpcUaServiceObservationContext(String service, long secureChannelId) {
        this.service = Objects.requireNonNull(service, "service");
        this.secureChannelId = secureChannelId;
    }

    /** The service's name as Part 4 writes it. */
    public String getService() {
        return service;
    }

    public long getSecureChannelId() {
        return secureChannelId;
    }

    /** Whether the call was answered; until then {@link #getStatusCode()} means nothing. */
    public boolean isFinished() {
        return finished;
    }

    /** The serviceResult sent, unsigned: Good (0) for a response, the ServiceFault's code otherwise. */
    public long getStatusCode() {
        return statusCode;
    }

    /** Records the answer; called once, before the observation stops. */
    public void setStatusCode(long statusCode) {
        this.statusCode = statusCode;
        this.finished = true;
    }
}
