package dev.opcua.spring.boot.actuate.metrics;

import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.spring.boot.client.OpcUaReverseConnectListeners;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.ToLongFunction;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationEvent;
import org.springframework.context.event.ContextRefreshedEvent;
import org.springframework.context.event.SmartApplicationListener;

/**
 * Binds {@link OpcUaClientMetrics} of every client connection of the application, and
 * {@link OpcUaClientReverseConnectMetrics} of every reverse-connect listener, to its
 * {@link MeterRegistry} once the application has started — when the context is refreshed, which is after
 * every lifecycle started the clients connecting, and before {@link ApplicationStartedEvent} — and
 * removes the meters when the context is closed.
 *
 * <p>Deliberately not a {@code MeterBinder} bean itself: Spring Boot binds those while the registry is
 * being created, which would create the clients (and their request observers, which need the registry)
 * in the middle of it; and the meters of an application that failed to start never appear.
 */
public class OpcUaClientMetricsBinder implements SmartApplicationListener, DisposableBean {

    private final OpcUaClients clients;
    private final MeterRegistry registry;
    private final Iterable<Tag> tags;
    private volatile ToLongFunction<String> annotatedListenerErrors = connection -> 0;
    private volatile OpcUaReverseConnectListeners reverseConnectListeners = OpcUaReverseConnectListeners.NONE;
    private List<StateMeters<?>> metrics;

    public OpcUaClientMetricsBinder(OpcUaClients clients, MeterRegistry registry) {
        this(clients, registry, Tags.empty());
    }

    /** @param tags added to every meter, besides {@code connection} */
    public OpcUaClientMetricsBinder(OpcUaClients clients, MeterRegistry registry, Iterable<Tag> tags) {
        this.clients = Objects.requireNonNull(clients, "clients");
        this.registry = Objects.requireNonNull(registry, "registry");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    /**
     * Errors of the annotated listeners of a connection ({@code @OpcUaSubscription} methods), which
     * their container catches before the client would count them: added to
     * {@code opcua.client.listener.errors}.
     */
    public void setAnnotatedListenerErrors(ToLongFunction<String> annotatedListenerErrors) {
        this.annotatedListenerErrors = Objects.requireNonNull(annotatedListenerErrors, "annotatedListenerErrors");
    }

    /**
     * The reverse-connect listeners of the connections, whose {@link OpcUaClientReverseConnectMetrics meters} are
     * bound with the clients'.
     */
    public void setReverseConnectListeners(OpcUaReverseConnectListeners reverseConnectListeners) {
        this.reverseConnectListeners = Objects.requireNonNull(reverseConnectListeners, "reverseConnectListeners");
    }

    @Override
    public boolean supportsEventType(Class<? extends ApplicationEvent> eventType) {
        return ContextRefreshedEvent.class.isAssignableFrom(eventType)
                || ApplicationStartedEvent.class.isAssignableFrom(eventType);
    }

    @Override
    public void onApplicationEvent(ApplicationEvent event) {
        bind();
    }

    /** Binds the meters unless they are bound; a child context's event reaches its parent as well. */
    private synchronized void bind() {
        if (metrics == null) {
            List<StateMeters<?>> bound = new ArrayList<>();
            clients.asMap().forEach((connection, client) -> {
                OpcUaClientMetrics connectionMetrics = new OpcUaClientMetrics(connection, client, tags,
                        () -> annotatedListenerErrors.applyAsLong(connection));
                connectionMetrics.bindTo(registry);
                bound.add(connectionMetrics);
            });
            reverseConnectListeners.listeners().keySet().forEach(listener -> {
                OpcUaClientReverseConnectMetrics listenerMetrics = new OpcUaClientReverseConnectMetrics(listener, tags);
                listenerMetrics.bindTo(registry);
                bound.add(listenerMetrics);
            });
            metrics = bound;
        }
    }

    /** Whether the meters are registered now. */
    public synchronized boolean isBound() {
        return metrics != null;
    }

    @Override
    public synchronized void destroy() {
        if (metrics != null) {
            metrics.forEach(StateMeters::close);
            metrics = null;
        }
    }
}
