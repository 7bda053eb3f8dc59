package dev.opcua.stack.pubsub.runtime;

import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.encoding.UaEncodingException;
import dev.opcua.stack.pubsub.config.DataSetReaderConfig;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.MessageDecoder;
import dev.opcua.stack.pubsub.message.MetaDataLookup;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PubSubMessage;
import dev.opcua.stack.pubsub.transport.PubSubTransport;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTopicTree;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTopics;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running PubSub configuration (Part 14, 6.2): the writer groups of every connection publishing on their
 * intervals and the readers taking their messages from the broker. Owns the transports it was given and its
 * scheduler thread; {@link #close()} announces the publisher Offline and closes them.
 *
 * <p>What a peer sends never stops the service: a malformed or oversized message, one of an unknown publisher
 * or of another metadata version is counted in {@link #statistics()}, logged (first and every 1000th) and
 * left unread; the readers' targets keep their values.
 */
public final class PubSubService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PubSubService.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final Map<String, PublishedDataSet> dataSets;
    private final List<Connection> connections = new ArrayList<>();
    private final MessageMappings mappings;
    private final PubSubCounters counters = new PubSubCounters();
    private final int maxMessageSize;
    private final ScheduledExecutorService scheduler;
    private final AtomicLong decodeErrorsLogged = new AtomicLong();
    private volatile boolean started;
    private volatile boolean closed;

    private PubSubService(Builder builder) {
        this.dataSets = Map.copyOf(builder.dataSets);
        this.mappings = Objects.requireNonNull(builder.mappings, "message mappings");
        this.maxMessageSize = builder.maxMessageSize;
        int instance = INSTANCES.incrementAndGet();
        this.scheduler = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, "opcua-pubsub-" + instance);
            thread.setDaemon(true);
            return thread;
        });
        for (Builder.ConnectionEntry entry : builder.connections) {
            connections.add(new Connection(entry.config, entry.transport, builder));
        }
    }

    /** The topic tree's encoding level of a message mapping. */
    static MqttTopics.Encoding topicEncoding(MessageEncoding encoding) {
        return encoding == MessageEncoding.JSON ? MqttTopics.Encoding.JSON : MqttTopics.Encoding.UADP;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Connects every transport, subscribes the readers' topics, announces the publishers Online and starts the
     * writer groups. Completes when every transport has connected once and the broker acknowledged every reader's
     * subscription; fails naming the connection that did not connect or whose subscription was refused.
     */
    public synchronized CompletableFuture<Void> start() {
        if (started) {
            return CompletableFuture.completedFuture(null);
        }
        started = true;
        List<CompletableFuture<Void>> starts = new ArrayList<>();
        for (Connection connection : connections) {
            starts.add(connection.start());
        }
        return CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new));
    }

    /** What has been sent, received and dropped so far. */
    public PubSubStatistics statistics() {
        return counters.snapshot();
    }

    /** The connections' names and whether their transports are connected now. */
    public Map<String, Boolean> connectionStates() {
        Map<String, Boolean> states = new LinkedHashMap<>();
        for (Connection connection : connections) {
            states.put(connection.config.name(), connection.transport.isConnected());
        }
        return states;
    }

    /** The configured connections. */
    public List<PubSubConnectionConfig> connections() {
        return connections.stream().map(c -> c.config).toList();
    }

    /** The configured published data sets by name. */
    public Map<String, PublishedDataSet> dataSets() {
        return dataSets;
    }

    /** The transport of a connection, for its own statistics. */
    public PubSubTransport transport(String connection) {
        return connections.stream().filter(c -> c.config.name().equals(connection)).findFirst()
                .map(c -> c.transport).orElseThrow(() -> new IllegalArgumentException("no PubSub connection "
                        + connection));
    }

    /** Enables or disables a writer group (by name) or a reader (by name) of any connection. */
    public boolean setEnabled(String groupOrReader, boolean enabled) {
        boolean found = false;
        for (Connection connection : connections) {
            for (WriterGroupPublisher publisher : connection.publishers) {
                if (publisher.config().name().equals(groupOrReader)) {
                    publisher.setEnabled(enabled);
                    found = true;
                }
            }
            for (DataSetReaderRuntime reader : connection.readers) {
                if (reader.config().name().equals(groupOrReader)) {
                    reader.setEnabled(enabled);
                    found = true;
                }
            }
        }
        return found;
    }

    /** Whether the named writer group or reader is enabled; null when there is none of that name. */
    public Boolean isEnabled(String groupOrReader) {
        for (Connection connection : connections) {
            for (WriterGroupPublisher publisher : connection.publishers) {
                if (publisher.config().name().equals(groupOrReader)) {
                    return publisher.isEnabled();
                }
            }
            for (DataSetReaderRuntime reader : connection.readers) {
                if (reader.config().name().equals(groupOrReader)) {
                    return reader.isEnabled();
                }
            }
        }
        return null;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (Connection connection : connections) {
            connection.close();
        }
        scheduler.shutdownNow();
        try {
            scheduler.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        LOG.info("PubSub stopped: {}", counters.snapshot());
    }

    /** One connection: its transport, its writer groups and its readers. */
    private final class Connection {
        final PubSubConnectionConfig config;
        final PubSubTransport transport;
        final List<WriterGroupPublisher> publishers = new ArrayList<>();
        final List<DataSetReaderRuntime> readers = new ArrayList<>();
        final MqttTopicTree topics;

        Connection(PubSubConnectionConfig config, PubSubTransport transport, Builder builder) {
            this.config = config;
            this.transport = Objects.requireNonNull(transport, "transport of PubSub connection " + config.name());
            this.topics = builder.topics;
            for (WriterGroupConfig group : config.writerGroups()) {
                publishers.add(new WriterGroupPublisher(config.publisherId(), group, dataSets, builder.source,
                        builder.eventSourceOrDefault(), builder.eventQueueCapacity, mappings.encoder(group.encoding(), group, dataSets), transport, topics, counters));
            }
            for (DataSetReaderConfig readerConfig : config.readers()) {
                DataSetReaderRuntime reader = new DataSetReaderRuntime(readerConfig, builder.targetWriter, counters);
                for (Builder.ListenerEntry listener : builder.listeners) {
                    if (listener.reader == null || listener.reader.equals(readerConfig.name())) {
                        reader.addListener(listener.listener);
                    }
                }
                readers.add(reader);
            }
            for (Builder.ListenerEntry listener : builder.listeners) {
                if (listener.reader != null && config.readers().stream()
                        .noneMatch(r -> r.name().equals(listener.reader))
                        && builder.connections.stream().flatMap(c -> c.config.readers().stream())
                                .noneMatch(r -> r.name().equals(listener.reader))) {
                    throw new IllegalArgumentException("a PubSub listener names the reader " + listener.reader
                            + ", which no connection has");
                }
            }
        }

        /**
         * Connects, subscribes the readers and starts the writer groups; completes when the broker acknowledged every
         * reader's subscription, so a message published after that reaches the readers.
         */
        CompletableFuture<Void> start() {
            return transport.start().thenCompose(connected -> {
                CompletableFuture<Void> subscribed = subscribeReaders();
                transport.publish(topics.status(MqttTopics.Encoding.JSON, config.publisherId()),
                        mappings.status(config.publisherId(), true), QualityOfService.AT_LEAST_ONCE, true);
                for (WriterGroupPublisher publisher : publishers) {
                    publisher.start(scheduler);
                }
                return subscribed;
            }).exceptionally(failure -> {
                Throwable cause = Failures.unwrap(failure);
                throw new IllegalStateException("PubSub connection " + config.name() + " could not start: "
                        + cause.getMessage(), cause);
            });
        }

        /**
         * One subscription per topic filter and encoding, decoded once for every reader on it; completes when every
         * one is acknowledged.
         */
        private CompletableFuture<Void> subscribeReaders() {
            List<CompletableFuture<Void>> acknowledged = new ArrayList<>();
            Map<String, List<DataSetReaderRuntime>> byTopic = new LinkedHashMap<>();
            for (DataSetReaderRuntime reader : readers) {
                DataSetReaderConfig c = reader.config();
                String topic = c.queueName() != null ? c.queueName()
                        : topics.data(topicEncoding(c.encoding()), c.publisherId(), c.writerGroupName());
                byTopic.computeIfAbsent(c.encoding() + " " + topic, k -> new ArrayList<>()).add(reader);
                if (c.writerGroupName() != null) {
                    String metaTopic = topics.allMetadata(topicEncoding(c.encoding()), c.publisherId());
                    byTopic.computeIfAbsent(c.encoding() + " " + metaTopic, k -> new ArrayList<>()).add(reader);
                }
            }
            for (Map.Entry<String, List<DataSetReaderRuntime>> entry : byTopic.entrySet()) {
                String key = entry.getKey();
                MessageEncoding encoding = MessageEncoding.valueOf(key.substring(0, key.indexOf(' ')));
                String topic = key.substring(key.indexOf(' ') + 1);
                List<DataSetReaderRuntime> topicReaders = List.copyOf(entry.getValue());
                MetaDataLookup lookup = (publisherId, writerGroupId, writerId) -> {
                    for (DataSetReaderRuntime reader : topicReaders) {
                        if (DataSetReaderRuntime.samePublisher(reader.config().publisherId(), publisherId)
                                && reader.config().dataSetWriterId() == writerId) {
                            return reader.metaData();
                        }
                    }
                    return null;
                };
                MessageDecoder decoder = mappings.decoder(encoding, lookup);
                QualityOfService qos = topicReaders.get(0).config().qos();
                acknowledged.add(transport.subscribe(topic, qos,
                        (t, payload) -> onMessage(t, payload, decoder, topicReaders)));
                LOG.info("PubSub connection {}: reading {} on {}", config.name(),
                        topicReaders.stream().map(r -> r.config().name()).toList(), topic);
            }
            return CompletableFuture.allOf(acknowledged.toArray(CompletableFuture[]::new));
        }

        private void onMessage(String topic, byte[] payload, MessageDecoder decoder,
                List<DataSetReaderRuntime> topicReaders) {
            counters.received(payload.length);
            if (payload.length > maxMessageSize) {
                counters.oversized.increment();
                counters.messagesDropped.increment();
                logDropped("a message of {} bytes on {} is beyond the maximum of {} bytes", payload.length, topic,
                        maxMessageSize);
                return;
            }
            PubSubMessage message;
            try {
                message = decoder.decode(payload);
            } catch (UaEncodingException e) {
                counters.decodeErrors.increment();
                counters.messagesDropped.increment();
                logDropped("a message on {} could not be decoded: {}", topic, e.getMessage(), null);
                return;
            } catch (RuntimeException e) {
                counters.decodeErrors.increment();
                counters.messagesDropped.increment();
                LOG.warn("PubSub connection {}: decoding a message on {} failed unexpectedly", config.name(), topic,
                        e);
                return;
            }
            if (message instanceof MetaDataMessage meta) {
                topicReaders.forEach(reader -> reader.onMetaData(meta));
                return;
            }
            NetworkMessage network = (NetworkMessage) message;
            for (DataSetMessage dataSet : network.messages()) {
                boolean taken = false;
                for (DataSetReaderRuntime reader : topicReaders) {
                    if (reader.matches(network, dataSet)) {
                        reader.onDataSet(network, dataSet);
                        taken = true;
                    }
                }
                if (!taken) {
                    counters.unknownPublishers.increment();
                    counters.messagesDropped.increment();
                    logDropped("a data set message of publisher {} writer {} on {} has no reader",
                            network.publisherId(), dataSet.dataSetWriterId(), topic);
                }
            }
        }

        private void logDropped(String format, Object a, Object b, Object c) {
            long n = decodeErrorsLogged.getAndIncrement();
            if (n % 1000 == 0) {
                LOG.warn("PubSub connection " + config.name() + ": " + format + " (" + (n + 1) + " dropped so far)",
                        a, b, c);
            }
        }

        void close() {
            publishers.forEach(WriterGroupPublisher::stop);
            try {
                if (transport.isConnected()) {
                    transport.publish(topics.status(MqttTopics.Encoding.JSON, config.publisherId()),
                            mappings.status(config.publisherId(), false), QualityOfService.AT_LEAST_ONCE, true);
                }
            } catch (RuntimeException e) {
                LOG.debug("PubSub connection {}: the Offline status could not be sent", config.name(), e);
            } finally {
                transport.close();
            }
        }
    }

    /** Collects a PubSub configuration; {@link #build()} checks that its parts fit together. */
    public static final class Builder {
        private final Map<String, PublishedDataSet> dataSets = new LinkedHashMap<>();
        private final List<ConnectionEntry> connections = new ArrayList<>();
        private final List<ListenerEntry> listeners = new ArrayList<>();
        private DataSetSource source;
        private EventSource eventSource;
        private int eventQueueCapacity = 1000;
        private FieldTargetWriter targetWriter = FieldTargetWriter.NONE;
        private MessageMappings mappings;
        private MqttTopicTree topics = MqttTopicTree.withPrefix(MqttTopicTree.DEFAULT_PREFIX);
        private int maxMessageSize = 1 << 20;

        private record ConnectionEntry(PubSubConnectionConfig config, PubSubTransport transport) {
        }

        private record ListenerEntry(String reader, DataSetListener listener) {
        }

        private Builder() {
        }

        public Builder dataSet(PublishedDataSet dataSet) {
            if (dataSets.putIfAbsent(dataSet.name(), dataSet) != null) {
                throw new IllegalArgumentException("two published data sets named " + dataSet.name());
            }
            return this;
        }

        /** A connection and the transport it publishes and reads on; the service closes the transport. */
        public Builder connection(PubSubConnectionConfig config, PubSubTransport transport) {
            connections.add(new ConnectionEntry(config, transport));
            return this;
        }

        /** Where writer groups sample their data sets. */
        public Builder source(DataSetSource source) {
            this.source = source;
            return this;
        }

        /**
         * Where writers of events data sets ({@link PublishedDataSet#isEvents()}) take their events; by default the
         * {@link #source} when it is an EventSource too (as {@link InMemoryDataSetSource} and
         * {@code AddressSpaceDataSets} are).
         */
        public Builder eventSource(EventSource eventSource) {
            this.eventSource = eventSource;
            return this;
        }

        /**
         * How many events each events writer keeps between publishing intervals (default 1000); beyond that the
         * oldest is discarded and counted in {@link PubSubStatistics#messagesDropped()}.
         */
        public Builder eventQueueCapacity(int events) {
            if (events < 1) {
                throw new IllegalArgumentException("eventQueueCapacity must be at least 1, was " + events);
            }
            this.eventQueueCapacity = events;
            return this;
        }

        EventSource eventSourceOrDefault() {
            return eventSource != null ? eventSource : source instanceof EventSource events ? events : null;
        }

        /** Where readers write their field targets. */
        public Builder targetWriter(FieldTargetWriter targetWriter) {
            this.targetWriter = Objects.requireNonNull(targetWriter, "targetWriter");
            return this;
        }

        /** A listener of one reader (by name), or of every reader when {@code reader} is null. */
        public Builder listener(String reader, DataSetListener listener) {
            listeners.add(new ListenerEntry(reader, Objects.requireNonNull(listener, "listener")));
            return this;
        }

        public Builder mappings(MessageMappings mappings) {
            this.mappings = mappings;
            return this;
        }

        /** The MQTT topic tree (default: prefix {@code opcua}, Part 14, 7.3.5.7). */
        public Builder topics(MqttTopicTree topics) {
            this.topics = topics;
            return this;
        }

        /** Received messages larger than this are dropped before decoding (default 1 MiB). */
        public Builder maxMessageSize(int bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("maxMessageSize must be at least 1, was " + bytes);
            }
            this.maxMessageSize = bytes;
            return this;
        }

        public PubSubService build() {
            for (ConnectionEntry connection : connections) {
                for (WriterGroupConfig group : connection.config.writerGroups()) {
                    for (DataSetWriterConfig writer : group.writers()) {
                        PublishedDataSet dataSet = dataSets.get(writer.dataSet());
                        if (dataSet == null) {
                            continue; // the writer group names it in its own message
                        }
                        if (!dataSet.isEvents() && source == null) {
                            throw new IllegalArgumentException("PubSub writer groups are configured but no"
                                    + " DataSetSource");
                        }
                        if (dataSet.isEvents() && eventSourceOrDefault() == null) {
                            throw new IllegalArgumentException("DataSetWriter " + writer.name() + " publishes the"
                                    + " events data set " + dataSet.name() + " but no EventSource is configured");
                        }
                    }
                }
            }
            return new PubSubService(this);
        }
    }
}
