package dev.opcua.spring.boot.actuate.metrics;

import dev.opcua.spring.boot.server.OpcUaServerStartedEvent;
import dev.opcua.stack.server.OpcUaServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.Objects;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.SmartApplicationListener;

/**
 * Binds {@link OpcUaServerMetrics} of the application's server to its {@link MeterRegistry} once the
 * server has started ({@link OpcUaServerStartedEvent} of this server, or at the latest
 * {@link ApplicationStartedEvent} for a server started some other way), and removes the meters when the
 * context is closed.
 *
 * <p>Deliberately not a {@code MeterBinder} bean itself: Spring Boot binds those while the context is
 * still being created, before the server runs.
 */
public class OpcUaServerMetricsBinder implements SmartApplicationListener, DisposableBean {

    private final OpcUaServer server;
    private final MeterRegistry registry;
    private final Iterable<Tag> tags;
    private OpcUaServerMetrics metrics;

    public OpcUaServerMetricsBinder(OpcUaServer server, MeterRegistry registry) {
        this(server, registry, Tags.empty());
    }

    /** @param tags added to every meter, besides {@code application.uri} */
    public OpcUaServerMetricsBinder(OpcUaServer server, MeterRegistry registry, Iterable<Tag> tags) {
        this.server = Objects.requireNonNull(server, "server");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    @Override
    public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
        return OpcUaServerStartedEvent.class.isAssignableFrom(eventType)
                || ApplicationStartedEvent.class.isAssignableFrom(eventType);
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        if (event instanceof OpcUaServerStartedEvent started && started.getServer() != server) {
            return; // another server of the application
        }
        bind();
    }

    /** Binds the meters unless they are bound; a child context's event reaches its parent as well. */
    private synchronized void bind() {
        if (metrics == null) {
            metrics = new OpcUaServerMetrics(server, tags);
            metrics.bindTo(registry);
        }
    }

    /** Whether the meters are registered now. */
    public synchronized boolean isBound() {
        return metrics != null;
    }

    @Override
    public synchronized void destroy() {
        if (metrics != null) {
            metrics.close();
            metrics = null;
        }
    }
}
