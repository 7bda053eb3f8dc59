package dev.opcua.spring.boot.actuate.metrics;

import dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.pubsub.runtime.PubSubStatistics;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;

/**
 * The meters of the application's PubSub service (Part 14), read from its counters at every scrape:
 *
 * <ul>
 * <li>{@code opcua.pubsub.messages.sent|received} function counters: network and metadata messages handed to
 * and taken from the broker; {@code opcua.pubsub.transport.sent|received} (bytes)</li>
 * <li>{@code opcua.pubsub.messages.dropped} function counter [reason]: {@code decode_error} (malformed),
 * {@code oversized} (beyond max-message-size), {@code unknown_publisher} (a data set message no reader expects),
 * {@code version_mismatch} (another MetaDataVersion than the reader's), {@code skipped} (a publishing interval
 * skipped because sampling was still running), {@code event_queue_full} (an event discarded from a writer's full
 * queue), {@code publish_failed} (an interval whose sampling or encoding failed)</li>
 * <li>{@code opcua.pubsub.datasets.received} function counter: data set messages handed to targets and
 * listeners; {@code opcua.pubsub.target.write.failures}</li>
 * <li>{@code opcua.pubsub.publish} function timer: from the start of an interval's sampling to the hand-off of
 * its message to the transport</li>
 * <li>{@code opcua.pubsub.broker.connected} gauge: 1 while the broker connection is up, else 0</li>
 * </ul>
 * Before the service runs every meter reads 0.
 */
public class OpcUaPubSubMetrics implements MeterBinder {

    private final OpcUaPubSubLifecycle pubSub;
    private final List<Meter> meters = new ArrayList<>();

    public OpcUaPubSubMetrics(OpcUaPubSubLifecycle pubSub) {
        this.pubSub = pubSub;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "opcua.pubsub.messages.sent", "Network and metadata messages handed to the broker", null,
                PubSubStatistics::messagesSent, null);
        counter(registry, "opcua.pubsub.messages.received", "Network and metadata messages taken from the broker",
                null, PubSubStatistics::messagesReceived, null);
        counter(registry, "opcua.pubsub.transport.sent", "Payload bytes handed to the broker", BaseUnits.BYTES,
                PubSubStatistics::bytesSent, null);
        counter(registry, "opcua.pubsub.transport.received", "Payload bytes taken from the broker", BaseUnits.BYTES,
                PubSubStatistics::bytesReceived, null);
        dropped(registry, PubSubStatistics::decodeErrors, "decode_error");
        dropped(registry, PubSubStatistics::oversized, "oversized");
        dropped(registry, PubSubStatistics::unknownPublishers, "unknown_publisher");
        dropped(registry, PubSubStatistics::versionMismatches, "version_mismatch");
        dropped(registry, PubSubStatistics::intervalsSkipped, "skipped");
        dropped(registry, PubSubStatistics::eventsDiscarded, "event_queue_full");
        dropped(registry, PubSubStatistics::publishFailures, "publish_failed");
        counter(registry, "opcua.pubsub.datasets.received", "Data set messages handed to targets and listeners", null,
                PubSubStatistics::dataSetsReceived, null);
        counter(registry, "opcua.pubsub.target.write.failures",
                "Writes of received fields to their target variables that the address space refused", null,
                PubSubStatistics::targetWriteFailures, null);
        meters.add(FunctionTimer.builder("opcua.pubsub.publish", this,
                        m -> statistics().publishCount(), m -> statistics().publishNanosTotal(), TimeUnit.NANOSECONDS)
                .description("From the start of a publishing interval's sampling to the hand-off to the broker")
                .register(registry));
        meters.add(Gauge.builder("opcua.pubsub.broker.connected", this, m -> connected() ? 1 : 0)
                .description("1 while the MQTT broker connection is up")
                .register(registry));
    }

    private void dropped(MeterRegistry registry, ToDoubleFunction<PubSubStatistics> value, String reason) {
        counter(registry, "opcua.pubsub.messages.dropped", "Messages dropped or not sent, by reason", null, value,
                reason);
    }

    /** @param unit the base unit where it adds meaning ({@code bytes}); counts have none */
    private void counter(MeterRegistry registry, String name, String description, String unit,
            ToDoubleFunction<PubSubStatistics> value, String reason) {
        FunctionCounter.Builder<OpcUaPubSubMetrics> builder = FunctionCounter
                .builder(name, this, m -> value.applyAsDouble(statistics()))
                .description(description)
                .baseUnit(unit);
        if (reason != null) {
            builder.tag("reason", reason);
        }
        meters.add(builder.register(registry));
    }

    private PubSubStatistics statistics() {
        PubSubService service = pubSub.getService();
        return service == null ? PubSubStatistics.NONE : service.statistics();
    }

    private boolean connected() {
        PubSubService service = pubSub.getService();
        return service != null && !service.connectionStates().isEmpty()
                && service.connectionStates().values().stream().allMatch(Boolean::booleanValue);
    }
}
