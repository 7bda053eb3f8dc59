package dev.opcua.stack.pubsub.runtime;

import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.ConfigurationVersionDataType;
import dev.opcua.stack.core.types.structured.DataSetMetaDataType;
import dev.opcua.stack.core.types.structured.FieldMetaData;
import dev.opcua.stack.pubsub.config.DataSetReaderConfig;
import dev.opcua.stack.pubsub.config.FieldTarget;
import dev.opcua.stack.pubsub.message.DataSetField;
import dev.opcua.stack.pubsub.message.DataSetMessage;
import dev.opcua.stack.pubsub.message.DataSetMessageType;
import dev.opcua.stack.pubsub.message.MetaDataMessage;
import dev.opcua.stack.pubsub.message.NetworkMessage;
import dev.opcua.stack.pubsub.message.PublisherId;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads one writer's data set messages (Part 14, 6.2.9): takes those of its publisher and writer from the network
 * messages of its topic, checks their MetaDataVersion against the metadata it knows (6.2.9.2.3: a major version
 * that differs means the fields are not what the reader expects, so nothing is written), writes the fields of key
 * and delta frames that have targets into the address space and hands every message, events included, to the
 * listeners.
 */
final class DataSetReaderRuntime {

    private static final Logger LOG = LoggerFactory.getLogger(DataSetReaderRuntime.class);

    private final DataSetReaderConfig config;
    private final FieldTargetWriter targetWriter;
    private final List<DataSetListener> listeners = new CopyOnWriteArrayList<>();
    private final PubSubCounters counters;
    private volatile DataSetMetaDataType metaData;
    private volatile boolean enabled = true;
    private volatile long lastReceivedNanos;
    private long mismatches;

    DataSetReaderRuntime(DataSetReaderConfig config, FieldTargetWriter targetWriter, PubSubCounters counters) {
        this.config = config;
        this.targetWriter = targetWriter;
        this.counters = counters;
        this.metaData = config.metaData();
    }

    DataSetReaderConfig config() {
        return config;
    }

    DataSetMetaDataType metaData() {
        return metaData;
    }

    void addListener(DataSetListener listener) {
        listeners.add(listener);
    }

    boolean isEnabled() {
        return enabled;
    }

    void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** When the last message of this reader's writer arrived (System.nanoTime), 0 if none yet. */
    long lastReceivedNanos() {
        return lastReceivedNanos;
    }

    /** Whether a message of this publisher is this reader's. */
    boolean matches(NetworkMessage message, DataSetMessage dataSet) {
        return samePublisher(config.publisherId(), message.publisherId())
                && (config.writerGroupId() == 0 || message.writerGroupId() == 0
                        || config.writerGroupId() == message.writerGroupId())
                && dataSet.dataSetWriterId() == config.dataSetWriterId();
    }

    /** Takes the metadata the publisher announced for this reader's writer, when it is this reader's. */
    boolean onMetaData(MetaDataMessage message) {
        if (!samePublisher(config.publisherId(), message.publisherId())
                || message.dataSetWriterId() != config.dataSetWriterId()) {
            return false;
        }
        DataSetMetaDataType previous = metaData;
        metaData = message.metaData();
        if (previous == null || !sameVersion(previous.configurationVersion(), metaData.configurationVersion())) {
            LOG.info("PubSub reader {}: metadata of {} version {} with {} field(s)", config.name(),
                    metaData.name(), versionText(metaData.configurationVersion()),
                    metaData.fields() == null ? 0 : metaData.fields().length);
        }
        return true;
    }

    /** Reads one data set message of this reader's writer. */
    void onDataSet(NetworkMessage network, DataSetMessage message) {
        if (!enabled) {
            return;
        }
        lastReceivedNanos = System.nanoTime();
        DataSetMetaDataType known = metaData;
        ConfigurationVersionDataType version = message.configurationVersion();
        if (known != null && version != null && known.configurationVersion() != null
                && known.configurationVersion().majorVersion() != version.majorVersion()) {
            counters.versionMismatches.increment();
            counters.messagesDropped.increment();
            if (mismatches++ % 1000 == 0) {
                LOG.warn("PubSub reader {}: message of writer {} has MetaDataVersion {}, the metadata known is {};"
                        + " its fields are left unread ({} so far)", config.name(), message.dataSetWriterId(),
                        versionText(version), versionText(known.configurationVersion()), mismatches);
            }
            return;
        }
        Map<String, DataValue> fields = new LinkedHashMap<>();
        for (DataSetField field : message.fields()) {
            String name = field.name() != null ? field.name() : nameOf(known, field.index());
            fields.put(name, field.value());
        }
        counters.dataSetsReceived.increment();
        if (message.type() == DataSetMessageType.KEY_FRAME || message.type() == DataSetMessageType.DELTA_FRAME) {
            writeTargets(fields); // an event's fields are for the listeners only: there is no variable to write
        }
        ReceivedDataSet received = new ReceivedDataSet(config.name(), network.publisherId(),
                message.dataSetWriterId(), message.type(), message.sequenceNumber(), message.timestamp(), fields);
        for (DataSetListener listener : listeners) {
            try {
                listener.onDataSet(received);
            } catch (RuntimeException e) {
                LOG.warn("PubSub reader {}: a listener failed", config.name(), e);
            }
        }
    }

    private void writeTargets(Map<String, DataValue> fields) {
        if (config.targets().isEmpty()) {
            return;
        }
        List<NodeId> nodes = new ArrayList<>();
        List<DataValue> values = new ArrayList<>();
        for (FieldTarget target : config.targets()) {
            DataValue value = fields.get(target.field());
            if (value != null) {
                nodes.add(target.target());
                values.add(value);
            }
        }
        if (nodes.isEmpty()) {
            return;
        }
        targetWriter.write(nodes, values).whenComplete((results, failure) -> {
            if (failure != null) {
                counters.targetWriteFailures.add(nodes.size());
                LOG.warn("PubSub reader {}: writing field targets failed: {}", config.name(), failure.toString());
                return;
            }
            for (int i = 0; i < results.length; i++) {
                StatusCode status = results[i];
                if (status != null && status.isBad()) {
                    counters.targetWriteFailures.increment();
                    LOG.debug("PubSub reader {}: target {} refused the value: {}", config.name(), nodes.get(i),
                            status);
                }
            }
        });
    }

    /**
     * Whether two PublisherIds name the same publisher: by their text, because the JSON mapping carries every
     * PublisherId as a string (Part 14, 7.2.5.3) while UADP keeps the type.
     */
    static boolean samePublisher(PublisherId expected, PublisherId received) {
        return received != null && (expected.equals(received) || expected.toString().equals(received.toString()));
    }

    private static String nameOf(DataSetMetaDataType metaData, int index) {
        FieldMetaData[] fields = metaData == null ? null : metaData.fields();
        return fields != null && index < fields.length ? fields[index].name() : "#" + index;
    }

    private static boolean sameVersion(ConfigurationVersionDataType a, ConfigurationVersionDataType b) {
        return a != null && b != null && a.majorVersion() == b.majorVersion() && a.minorVersion() == b.minorVersion();
    }

    private static String versionText(ConfigurationVersionDataType v) {
        return v == null ? "none" : v.majorVersion() + "." + v.minorVersion();
    }
}
