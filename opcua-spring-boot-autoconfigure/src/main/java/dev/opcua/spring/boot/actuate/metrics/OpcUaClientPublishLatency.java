package dev.opcua.spring.boot.actuate.metrics;

import dev.opcua.spring.boot.client.OpcUaClientRequestObservers;
import dev.opcua.stack.client.services.RequestObserver;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Times the Publish requests of each client connection: {@code opcua.client.publish.latency} [connection],
 * from sending a Publish to its Good response. The server holds a Publish until a subscription has
 * notifications or a keep-alive is due (Part 4, 5.13.1), so this is the time notifications take to
 * reach the client rather than the network round trip alone: about a publishing interval while values
 * change, up to the keep-alive period while nothing does, and more when the server or the link is slow.
 *
 * <p>As an {@link OpcUaClientRequestObservers} bean it reaches every auto-configured client; requests of
 * other services are not looked at beyond their name. The timer of a connection is registered when its
 * client is built; {@link #close()} removes them.
 */
public final class OpcUaClientPublishLatency implements OpcUaClientRequestObservers, AutoCloseable {

    private static final String PUBLISH = "Publish";

    private final MeterRegistry registry;
    private final Iterable<Tag> tags;
    private final List<Meter> timers = new ArrayList<>();

    public OpcUaClientPublishLatency(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /** @param tags added to every timer, besides {@code connection} */
    public OpcUaClientPublishLatency(MeterRegistry registry, Iterable<Tag> tags) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    @Override
    public RequestObserver create(String connection) {
        Timer timer = Timer.builder("opcua.client.publish.latency")
                .description("Time from sending a Publish request to its Good response: how long notifications "
                        + "take to reach the client")
                .tags(tags)
                .tag(OpcUaClientMetrics.CONNECTION_TAG, connection)
                .register(registry);
        synchronized (timers) {
            timers.add(timer);
        }
        return service -> PUBLISH.equals(service) ? new PublishCall(timer, System.nanoTime()) : null;
    }

    /** Removes the timers from the registry. Idempotent. */
    @Override
    public void close() {
        List<Meter> registered;
        synchronized (timers) {
            registered = List.copyOf(timers);
            timers.clear();
        }
        registered.forEach(registry::remove);
    }

    /** One Publish in flight; a failed one (timeout, connection lost, ServiceFault) is not a latency. */
    private record PublishCall(Timer timer, long startNanos) implements RequestObserver.Call {

        @Override
        public void finished(long statusCode, Throwable failure) {
            if (statusCode == 0 && failure == null) {
                timer.record(System.nanoTime() - startNanos, TimeUnit.NANOSECONDS);
            }
        }
    }
}
