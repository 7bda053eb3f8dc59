package dev.opcua.spring.boot.actuate.metrics;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * A binder of meters that read one state object (a server, a client) when they are scraped, all
 * with the same tags, and that {@link #close()} removes again from every registry they were bound to.
 *
 * @param <T> the state object; the meters reference it weakly, as Micrometer does, so its owner keeps it alive
 */
public abstract class StateMeters<T> implements MeterBinder, AutoCloseable {

    private final T state;
    private final Tags tags;
    private final List<Registered> registered = new ArrayList<>();

    StateMeters(T state, Tags tags) {
        this.state = Objects.requireNonNull(state, "state");
        this.tags = Objects.requireNonNull(tags, "tags");
    }

    /** The object the meters read. */
    final T state() {
        return state;
    }

    /** The tags of every meter. */
    final Tags tags() {
        return tags;
    }

    /** A gauge of a count: no base unit, so that the Prometheus name is the meter's name alone. */
    final Gauge gauge(MeterRegistry registry, String name, String description, ToDoubleFunction<T> value) {
        return gauge(registry, name, description, null, value);
    }

    /** @param unit the base unit where it adds meaning ({@code seconds}, {@code bytes}), else {@code null} */
    final Gauge gauge(MeterRegistry registry, String name, String description, String unit,
            ToDoubleFunction<T> value) {
        return Gauge.builder(name, state, value).description(description).baseUnit(unit).tags(tags)
                .register(registry);
    }

    /** A counter of occurrences: no base unit, so that the Prometheus name is the meter's name and {@code _total}. */
    final FunctionCounter counter(MeterRegistry registry, String name, String description,
            ToDoubleFunction<T> value) {
        return counter(registry, name, description, null, value);
    }

    /** @param unit the base unit where it adds meaning ({@code bytes}), else {@code null} */
    final FunctionCounter counter(MeterRegistry registry, String name, String description, String unit,
            ToDoubleFunction<T> value) {
        return FunctionCounter.builder(name, state, value).description(description).baseUnit(unit).tags(tags)
                .register(registry);
    }

    /** Remembers the meters one {@code bindTo} registered, for {@link #close()}. */
    final void bound(MeterRegistry registry, List<Meter> meters) {
        synchronized (registered) {
            registered.add(new Registered(registry, List.copyOf(meters)));
        }
    }

    /** Removes the meters from every registry this binder was bound to. Idempotent. */
    @Override
    public void close() {
        List<Registered> bindings;
        synchronized (registered) {
            bindings = List.copyOf(registered);
            registered.clear();
        }
        for (Registered binding : bindings) {
            binding.meters().forEach(binding.registry()::remove);
        }
    }

    private record Registered(MeterRegistry registry, List<Meter> meters) {
    }
}
