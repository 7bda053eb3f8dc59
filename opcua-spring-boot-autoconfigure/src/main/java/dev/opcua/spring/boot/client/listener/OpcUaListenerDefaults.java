package dev.opcua.spring.boot.client.listener;

import java.time.Duration;
import java.util.Objects;

/**
 * What a listener that gives none gets, per connection ({@code opcua.client.connections.<name>.subscriptions.*}):
 * the publishing interval of its subscription (Part 4, 5.13.2), the sampling interval and queue size
 * of its data item (5.12.1.4, 5.12.1.5).
 */
public record OpcUaListenerDefaults(Duration publishingInterval, Duration samplingInterval, int queueSize) {

    /** 1 s publishing, 500 ms sampling, queue 1: the defaults of the client properties. */
    public static final OpcUaListenerDefaults STANDARD = new OpcUaListenerDefaults(Duration.ofSeconds(1),
            Duration.ofMillis(500), 1);

    public OpcUaListenerDefaults {
        Objects.requireNonNull(publishingInterval, "publishingInterval");
        Objects.requireNonNull(samplingInterval, "samplingInterval");
        if (queueSize < 0) {
            throw new IllegalArgumentException("queueSize must be >= 0: " + queueSize);
        }
    }
}
