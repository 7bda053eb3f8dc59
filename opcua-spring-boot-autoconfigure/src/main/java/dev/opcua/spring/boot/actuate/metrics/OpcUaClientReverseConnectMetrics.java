package dev.opcua.spring.boot.actuate.metrics;

import dev.opcua.stack.client.transport.ReverseConnectListener;
import dev.opcua.stack.client.transport.ReverseConnectListenerStatistics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/**
 * The meters of one client-side reverse-connect listener (Part 6, 7.1.3), read from its
 * {@link ReverseConnectListener#statistics() statistics} when a registry publishes them:
 *
 * <ul>
 * <li>{@code opcua.client.reverse.connections} function counter [outcome]: connections servers opened to the
 *     listener, by what became of them: {@code accepted} (a client opened its secure channel over it),
 *     {@code refused} (a ReverseHello of a server or endpoint no connection expects, or a malformed one),
 *     {@code timed_out} (no ReverseHello within the hello timeout), {@code dropped} (closed at once, the listener
 *     holding as many as it may)</li>
 * <li>{@code opcua.client.reverse.connections.held} gauge: connections open now and not handed to a client:
 *     waiting for their ReverseHello, or for their client to ask</li>
 * </ul>
 * Every meter carries the tag {@value #PORT_TAG} (the port listened on; connections sharing it share the
 * listener, so the meters are per port, not per connection) and the tags given to the constructor.
 */
public final class OpcUaClientReverseConnectMetrics extends StateMeters<ReverseConnectListener> {

    /** The tag that names the listener by the port it listens on. */
    public static final String PORT_TAG = "port";

    /**
     * @param listener the listener to watch; the meters reference it weakly, its owner keeps it alive
     * @param tags added to every meter
     */
    public OpcUaClientReverseConnectMetrics(ReverseConnectListener listener, Iterable<Tag> tags) {
        super(listener, Tags.of(tags).and(PORT_TAG, Integer.toString(listener.port())));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        List<Meter> meters = new ArrayList<>();
        meters.add(outcome(registry, "accepted", ReverseConnectListenerStatistics::accepted));
        meters.add(outcome(registry, "refused", ReverseConnectListenerStatistics::refused));
        meters.add(outcome(registry, "timed_out", ReverseConnectListenerStatistics::timedOut));
        meters.add(outcome(registry, "dropped", ReverseConnectListenerStatistics::dropped));
        meters.add(gauge(registry, "opcua.client.reverse.connections.held",
                "Connections of servers open now and not handed to a client: waiting for their ReverseHello or "
                        + "for their client", listener -> listener.statistics().held()));
        bound(registry, meters);
    }

    private FunctionCounter outcome(MeterRegistry registry, String outcome,
            ToLongFunction<ReverseConnectListenerStatistics> count) {
        return FunctionCounter.builder("opcua.client.reverse.connections", state(),
                        listener -> count.applyAsLong(listener.statistics()))
                .description("Connections servers opened to the reverse-connect listener, by what became of them")
                .tags(tags())
                .tag("outcome", outcome)
                .register(registry);
    }
}
