package dev.opcua.stack.pubsub.runtime;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.DataSetField;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.MessageEncoder;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.transport.PubSubTransport;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTopicTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes one writer group (Part 14, 6.2.6): every publishing interval it samples the data set of each of its
 * writers, makes a key frame, a delta frame of the changed fields or a keep-alive (6.2.4.3), puts them in one
 * network message and hands its bytes to the transport. The metadata of each writer goes out first, retained,
 * so that a reader that starts later still gets it (Part 14, 7.3.5.4).
 *
 * <p>An interval whose sampling is still running when the next one is due is skipped and counted as dropped
 * rather than queued, so a slow source slows the messages down instead of building a backlog.
 *
 * <p>A writer of an events data set (Part 14, 6.2.3.3) is not sampled: from {@link #start} on it receives the
 * events of its {@link EventSource} into a bounded queue and sends each as an EVENT data set message in the next
 * interval's network message (several network messages when more than {@value #MAX_MESSAGES_PER_NETWORK_MESSAGE}
 * data set messages are due, the UADP payload header's limit), or a keep-alive after the group's KeepAliveTime
 * without events. When its queue is full the oldest event is discarded, as by an event monitored item with
 * DiscardOldest (Part 4, 5.12.1.5), and counted in {@link PubSubStatistics#messagesDropped()}. Events reported
 * while the group is disabled are not queued.
 */
final class WriterGroupPublisher {

    private static final Logger LOG = LoggerFactory.getLogger(WriterGroupPublisher.class);
    /** Data set messages per network message: the UADP PayloadHeader's Count is a Byte (Part 14, 7.2.4.4.3). */
    static final int MAX_MESSAGES_PER_NETWORK_MESSAGE = 255;

    private final PublisherId publisherId;
    private final WriterGroupConfig group;
    private final List<WriterState> writers = new ArrayList<>();
    private final DataSetSource source;
    private final EventSource eventSource;
    private final List<AutoCloseable> eventSubscriptions = new ArrayList<>();
    private final AtomicLong eventsDiscarded = new AtomicLong();
    private final MessageEncoder encoder;
    private final PubSubTransport transport;
    private final MqttTopicTree topics;
    private final PubSubCounters counters;
    private final String messageIdPrefix = UUID.randomUUID() + "-";
    private final AtomicBoolean sampling = new AtomicBoolean();
    private volatile boolean enabled = true;
    private long networkMessageNumber;
    private long skipped;
    private ScheduledFuture<?> task;

    WriterGroupPublisher(PublisherId publisherId, WriterGroupConfig group, Map<String, PublishedDataSet> dataSets,
            DataSetSource source, EventSource eventSource, int eventQueueCapacity, MessageEncoder encoder,
            PubSubTransport transport, MqttTopicTree topics, PubSubCounters counters) {
        this.publisherId = publisherId;
        this.group = group;
        this.source = source;
        this.eventSource = eventSource;
        this.encoder = encoder;
        this.transport = transport;
        this.topics = topics;
        this.counters = counters;
        for (DataSetWriterConfig writer : group.writers()) {
            PublishedDataSet dataSet = dataSets.get(writer.dataSet());
            if (dataSet == null) {
                throw new IllegalArgumentException("DataSetWriter " + writer.name() + " of WriterGroup " + group.name()
                        + " names the published data set " + writer.dataSet() + ", which is not configured");
            }
            if (dataSet.isEvents() ? eventSource == null : source == null) {
                throw new IllegalArgumentException("DataSetWriter " + writer.name() + " of WriterGroup " + group.name()
                        + " publishes the " + (dataSet.isEvents() ? "events" : "variables") + " data set "
                        + dataSet.name() + " but no " + (dataSet.isEvents() ? "EventSource" : "DataSetSource")
                        + " is configured");
            }
            writers.add(new WriterState(writer, dataSet, dataSet.isEvents() ? eventQueueCapacity : 0));
        }
    }

    WriterGroupConfig config() {
        return group;
    }

    /** Publishes the metadata of every writer and starts the interval. */
    void start(ScheduledExecutorService scheduler) {
        subscribeEvents();
        publishMetaData();
        long period = group.publishingInterval().toNanos();
        task = scheduler.scheduleAtFixedRate(this::tick, period, period, TimeUnit.NANOSECONDS);
        LOG.info("PubSub writer group {} (id {}) publishes {} writer(s) every {} ms as {} to {}", group.name(),
                group.id(), writers.size(), group.publishingInterval().toMillis(), group.encoding(), dataTopic());
    }

    void stop() {
        if (task != null) {
            task.cancel(false);
        }
        synchronized (eventSubscriptions) {
            for (AutoCloseable subscription : eventSubscriptions) {
                try {
                    subscription.close();
                } catch (Exception e) {
                    LOG.debug("PubSub writer group {}: closing an event subscription failed", group.name(), e);
                }
            }
            eventSubscriptions.clear();
        }
    }

    /** Subscribes each events writer to its notifier's events; fails when the source refuses one. */
    private void subscribeEvents() {
        for (WriterState writer : writers) {
            if (writer.events == null) {
                continue;
            }
            AutoCloseable subscription = eventSource.subscribe(writer.dataSet, values -> onEvent(writer, values));
            synchronized (eventSubscriptions) {
                eventSubscriptions.add(subscription);
            }
        }
    }

    /** On the event source's thread: queues the event, discarding the oldest when the queue is full. */
    private void onEvent(WriterState writer, Variant[] values) {
        if (!enabled) {
            return;
        }
        while (!writer.events.offer(values)) {
            if (writer.events.poll() != null) {
                counters.messagesDropped.increment();
                counters.eventsDiscarded.increment();
                long n = eventsDiscarded.getAndIncrement();
                if (n % 1000 == 0) {
                    LOG.warn("PubSub writer group {}: the event queue of writer {} is full ({} events); the oldest is"
                            + " discarded ({} so far)", group.name(), writer.config.name(),
                            writer.events.remainingCapacity() + writer.events.size(), n + 1);
                }
            }
        }
    }

    boolean isEnabled() {
        return enabled;
    }

    /** Pauses or resumes publishing (the information model's Disable and Enable, Part 14, 9.1.10). */
    void setEnabled(boolean enabled) {
        boolean was = this.enabled;
        this.enabled = enabled;
        if (enabled && !was) {
            writers.forEach(w -> w.messagesSinceKeyFrame = Integer.MAX_VALUE);
        }
    }

    String dataTopic() {
        return group.queueName() != null ? group.queueName()
                : topics.data(PubSubService.topicEncoding(group.encoding()), publisherId, group.name());
    }

    private void publishMetaData() {
        for (WriterState writer : writers) {
            MetaDataMessage message = new MetaDataMessage(publisherId, writer.config.id(), writer.dataSet.metaData(),
                    group.name(), writer.config.name());
            String topic = group.metaDataQueueName() != null ? group.metaDataQueueName()
                    : topics.metadata(PubSubService.topicEncoding(group.encoding()), publisherId, group.name(),
                            writer.config.name());
            send(topic, encoder.encodeMetaData(message), QualityOfService.AT_LEAST_ONCE, true);
        }
    }

    /** One publishing interval; runs on the service's scheduler thread. */
    void tick() {
        if (!enabled) {
            return;
        }
        if (!sampling.compareAndSet(false, true)) {
            counters.messagesDropped.increment();
            counters.intervalsSkipped.increment();
            if (skipped++ % 1000 == 0) {
                LOG.warn("PubSub writer group {}: sampling takes longer than the publishing interval of {} ms;"
                        + " {} interval(s) skipped so far", group.name(), group.publishingInterval().toMillis(),
                        skipped);
            }
            return;
        }
        long start = System.nanoTime();
        CompletableFuture<?>[] samples = new CompletableFuture<?>[writers.size()];
        for (int i = 0; i < samples.length; i++) {
            WriterState writer = writers.get(i);
            samples[i] = writer.events != null ? CompletableFuture.completedFuture(null)
                    : source.sample(writer.dataSet).thenAccept(values -> writer.sampled = values);
        }
        CompletableFuture.allOf(samples).whenComplete((ignored, failure) -> {
            try {
                if (failure != null) {
                    LOG.warn("PubSub writer group {}: sampling failed: {}", group.name(), failure.toString());
                    counters.messagesDropped.increment();
                    counters.publishFailures.increment();
                    return;
                }
                publish(start);
            } catch (RuntimeException e) {
                LOG.warn("PubSub writer group {}: publishing failed", group.name(), e);
                counters.messagesDropped.increment();
                counters.publishFailures.increment();
            } finally {
                sampling.set(false);
            }
        });
    }

    private void publish(long start) {
        long now = System.nanoTime();
        DateTime timestamp = DateTime.now();
        List<DataSetMessage> messages = new ArrayList<>(writers.size());
        for (WriterState writer : writers) {
            if (writer.events != null) {
                writer.nextEvents(timestamp, now, group.keepAliveTime().toNanos(), messages);
                continue;
            }
            DataSetMessage message = writer.next(timestamp, now, group.keepAliveTime().toNanos());
            if (message != null) {
                messages.add(message);
            }
        }
        if (messages.isEmpty()) {
            return;
        }
        for (int from = 0; from < messages.size(); from += MAX_MESSAGES_PER_NETWORK_MESSAGE) {
            List<DataSetMessage> part = messages.subList(from,
                    Math.min(messages.size(), from + MAX_MESSAGES_PER_NETWORK_MESSAGE));
            long number = networkMessageNumber++;
            NetworkMessage network = new NetworkMessage(messageIdPrefix + number, publisherId, group.id(), 0,
                    (int) (number & 0xFFFF), null, part, group.name());
            send(dataTopic(), encoder.encode(network), group.qos(), group.retain());
        }
        counters.published(System.nanoTime() - start);
    }

    private void send(String topic, byte[] bytes, QualityOfService qos, boolean retain) {
        transport.publish(topic, bytes, qos, retain);
        counters.sent(bytes.length);
    }

    /**
     * One writer's sequence numbers and the values of its last message, for delta frames; for an events writer its
     * queue of events.
     */
    private static final class WriterState {
        final DataSetWriterConfig config;
        final PublishedDataSet dataSet;
        /** The events not yet sent, each its field values; null for a writer of sampled values. */
        final ArrayBlockingQueue<Variant[]> events;
        volatile DataValue[] sampled;
        DataValue[] last;
        long sequenceNumber;
        int messagesSinceKeyFrame = Integer.MAX_VALUE;
        long lastSentNanos;

        WriterState(DataSetWriterConfig config, PublishedDataSet dataSet, int eventQueueCapacity) {
            this.config = config;
            this.dataSet = dataSet;
            this.events = dataSet.isEvents() ? new ArrayBlockingQueue<>(eventQueueCapacity) : null;
            this.lastSentNanos = System.nanoTime(); // the first keep-alive of an events writer after KeepAliveTime
        }

        /**
         * The EVENT messages of the events queued now, each field a Variant (Part 14, 7.2.4.5.7: event fields
         * carry no status or timestamps), or a keep-alive when there were none for the KeepAliveTime.
         */
        void nextEvents(DateTime timestamp, long now, long keepAliveNanos, List<DataSetMessage> out) {
            int pending = events.size();
            for (int n = 0; n < pending; n++) {
                Variant[] values = events.poll();
                if (values == null) {
                    break;
                }
                List<DataSetField> fields = new ArrayList<>(values.length);
                for (int i = 0; i < values.length; i++) {
                    Variant value = values[i] == null ? Variant.NULL : values[i];
                    fields.add(new DataSetField(i, dataSet.fields().get(i).name(), DataValue.of(value)));
                }
                out.add(message(DataSetMessageType.EVENT, timestamp, fields, now));
            }
            if (pending == 0 && now - lastSentNanos >= keepAliveNanos) {
                out.add(message(DataSetMessageType.KEEP_ALIVE, timestamp, List.of(), now));
            }
        }

        private DataSetMessage message(DataSetMessageType type, DateTime timestamp, List<DataSetField> fields,
                long now) {
            lastSentNanos = now;
            long sequence = sequenceNumber;
            sequenceNumber = (sequenceNumber + 1) & 0xFFFF_FFFFL;
            return new DataSetMessage(config.id(), type, sequence, dataSet.version(), timestamp, null, fields,
                    config.name());
        }

        /** The message of this interval: key frame, delta frame, keep-alive or none. */
        DataSetMessage next(DateTime timestamp, long now, long keepAliveNanos) {
            DataValue[] values = sampled;
            boolean keyFrame = last == null || messagesSinceKeyFrame >= config.keyFrameCount() - 1;
            List<DataSetField> fields = new ArrayList<>(values.length);
            for (int i = 0; i < values.length; i++) {
                if (keyFrame || !sameValue(values[i], last[i])) {
                    fields.add(new DataSetField(i, dataSet.fields().get(i).name(),
                            masked(values[i], config.fieldContentMask())));
                }
            }
            DataSetMessageType type = keyFrame ? DataSetMessageType.KEY_FRAME : DataSetMessageType.DELTA_FRAME;
            if (!keyFrame && fields.isEmpty()) {
                if (now - lastSentNanos < keepAliveNanos) {
                    messagesSinceKeyFrame++;
                    return null;
                }
                type = DataSetMessageType.KEEP_ALIVE;
            }
            messagesSinceKeyFrame = keyFrame ? 0 : messagesSinceKeyFrame + 1;
            last = values;
            lastSentNanos = now;
            long sequence = sequenceNumber;
            sequenceNumber = (sequenceNumber + 1) & 0xFFFF_FFFFL;
            return new DataSetMessage(config.id(), type, sequence, dataSet.version(), timestamp, null, fields,
                    config.name());
        }

        private static boolean sameValue(DataValue a, DataValue b) {
            return Objects.equals(a.value(), b.value()) && Objects.equals(a.statusCode(), b.statusCode());
        }

        /**
         * What of the value the writer's DataSetFieldContentMask keeps (Part 14, 6.2.4.2): the Variant alone (0 or
         * RawData) or a DataValue with the status and timestamps whose bits are set.
         */
        static DataValue masked(DataValue value, long mask) {
            if (mask == DataSetFieldContentMask.None || mask == DataSetFieldContentMask.RawData) {
                return DataValue.of(value.value());
            }
            StatusCode status = (mask & DataSetFieldContentMask.StatusCode) != 0 ? value.statusCode() : StatusCode.GOOD;
            boolean source = (mask & DataSetFieldContentMask.SourceTimestamp) != 0;
            boolean server = (mask & DataSetFieldContentMask.ServerTimestamp) != 0;
            return DataValue.of(value.value(), status,
                    source ? value.sourceTimestamp() : null,
                    source && (mask & DataSetFieldContentMask.SourcePicoSeconds) != 0 ? value.sourcePicoseconds() : 0,
                    server ? value.serverTimestamp() : null,
                    server && (mask & DataSetFieldContentMask.ServerPicoSeconds) != 0 ? value.serverPicoseconds() : 0);
        }
    }
}
