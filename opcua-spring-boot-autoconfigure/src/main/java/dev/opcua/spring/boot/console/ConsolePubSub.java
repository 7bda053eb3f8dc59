package dev.opcua.spring.boot.console;

import dev.opcua.spring.boot.pubsub.OpcUaPubSubLifecycle;
import dev.opcua.stack.pubsub.config.DataSetReaderConfig;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.pubsub.runtime.PubSubStatistics;
import dev.opcua.stack.pubsub.transport.TransportStatistics;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The console's PubSub card ({@code /opcua-console/api/pubsub}): the application's {@link PubSubService} as JSON,
 * its connections with their broker state, what it sent, received and dropped, the data sets it read and when it
 * last published. Every value is read on the call, as the {@code opcua.pubsub.*} meters read them.
 */
public class ConsolePubSub {

    /** The card's JSON. */
    public record PubSubOverview(boolean running, boolean brokerConnected, List<Connection> connections,
            long messagesSent, long messagesReceived, long messagesDropped, Map<String, Long> droppedByReason,
            long bytesSent, long bytesReceived, long dataSetsReceived, long targetWriteFailures, long publishCount,
            Duration publishMean, Duration publishMax, Instant lastPublish) {
    }

    /**
     * A PubSubConnection: one broker connection with the writer groups it publishes and the readers it reads.
     *
     * @param queued messages waiting for the broker now
     * @param lastError the transport's last connection or send error, or null
     */
    public record Connection(String name, String publisherId, boolean connected, List<String> writerGroups,
            List<String> readers, long reconnects, int queued, String lastError) {
    }

    private final OpcUaPubSubLifecycle pubSub;

    public ConsolePubSub(OpcUaPubSubLifecycle pubSub) {
        this.pubSub = Objects.requireNonNull(pubSub, "pubSub");
    }

    /** The service now; before it runs (or after it stopped), every count 0 and {@code running} false. */
    public PubSubOverview overview() {
        PubSubService service = pubSub.getService();
        if (service == null) {
            return new PubSubOverview(false, false, List.of(), 0, 0, 0, Map.of(), 0, 0, 0, 0, 0, Duration.ZERO,
                    Duration.ZERO, null);
        }
        PubSubStatistics s = service.statistics();
        Map<String, Boolean> states = service.connectionStates();
        List<Connection> connections = new ArrayList<>();
        for (PubSubConnectionConfig config : service.connections()) {
            TransportStatistics transport = service.transport(config.name()).statistics();
            connections.add(new Connection(config.name(), String.valueOf(config.publisherId().value()),
                    Boolean.TRUE.equals(states.get(config.name())),
                    config.writerGroups().stream().map(WriterGroupConfig::name).toList(),
                    config.readers().stream().map(DataSetReaderConfig::name).toList(),
                    transport.reconnects(), transport.queued(), transport.lastError()));
        }
        // the reasons as the meter opcua.pubsub.messages.dropped tags them
        Map<String, Long> dropped = new LinkedHashMap<>();
        dropped.put("decode_error", s.decodeErrors());
        dropped.put("oversized", s.oversized());
        dropped.put("unknown_publisher", s.unknownPublishers());
        dropped.put("version_mismatch", s.versionMismatches());
        dropped.put("skipped", s.intervalsSkipped());
        dropped.put("event_queue_full", s.eventsDiscarded());
        dropped.put("publish_failed", s.publishFailures());
        boolean connected = !states.isEmpty() && states.values().stream().allMatch(Boolean::booleanValue);
        Duration mean = s.publishCount() == 0 ? Duration.ZERO : Duration.ofNanos(s.publishNanosTotal() / s.publishCount());
        return new PubSubOverview(true, connected, connections, s.messagesSent(), s.messagesReceived(),
                s.messagesDropped(), dropped, s.bytesSent(), s.bytesReceived(), s.dataSetsReceived(),
                s.targetWriteFailures(), s.publishCount(), mean, Duration.ofNanos(s.publishNanosMax()),
                s.lastPublish());
    }
}
