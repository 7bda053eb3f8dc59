package dev.opcua.spring.boot.autoconfigure.pubsub;

import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.DataSetFieldContentMask;
import dev.opcua.stack.pubsub.config.DataSetReaderConfig;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.FieldTarget;
import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedField;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.mqtt.MqttProtocolVersion;
import dev.opcua.stack.pubsub.transport.mqtt.MqttSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * Turns {@code opcua.pubsub.*} into the stack's PubSub configuration, checking every value on the way: a wrong
 * one stops the start with an {@link InvalidOpcUaPubSubPropertyException} naming the key, the value and what the
 * key accepts.
 */
final class OpcUaPubSubPropertiesMapper {

    static final String PREFIX = "opcua.pubsub";
    private static final String NODE_ID = "a NodeId such as ns=2;s=Line1.Speed, i=2258 or nsu=urn:acme:line;s=Speed";
    private static final String BUILT_IN_TYPES = "a built-in type name: Boolean, SByte, Byte, Int16, UInt16, Int32,"
            + " UInt32, Int64, UInt64, Float, Double, String, DateTime, Guid, ByteString, NodeId, StatusCode,"
            + " LocalizedText, QualifiedName";

    private final OpcUaPubSubProperties properties;
    private final PropertyChecks checks = new PropertyChecks(PREFIX, InvalidOpcUaPubSubPropertyException::new);

    OpcUaPubSubPropertiesMapper(OpcUaPubSubProperties properties) {
        this.properties = properties;
    }

    /** This application's PublisherId: a number of the smallest unsigned type that holds it, or the text. */
    PublisherId publisherId(String applicationName) {
        String text = properties.getPublisherId();
        if (text == null || text.isBlank()) {
            text = applicationName == null || applicationName.isBlank() ? "opcua-publisher" : applicationName;
        }
        return parsePublisherId("publisher-id", text);
    }

    private PublisherId parsePublisherId(String key, String text) {
        if (text == null || text.isBlank()) {
            throw checks.invalid(key, text, "it is not set", "a number (0..2^64-1) or a string");
        }
        if (text.chars().allMatch(Character::isDigit)) {
            try {
                long value = Long.parseUnsignedLong(text);
                if (value <= 0xFFFF) {
                    return PublisherId.ofUInt16((int) value);
                }
                if (value <= 0xFFFF_FFFFL) {
                    return PublisherId.ofUInt32(value);
                }
                return PublisherId.ofUInt64(value);
            } catch (NumberFormatException e) {
                throw checks.invalid(key, text, "the number is beyond UInt64", "a number (0..2^64-1) or a string", e);
            }
        }
        return PublisherId.ofString(text);
    }

    /**
     * The published data sets; a field's {@code nsu=} node id is resolved with the server's namespace table.
     *
     * @param namespaceIndex the index of a namespace URI (-1 when unknown), or null without a server
     * @param dataTypeOf the built-in type of a variable's value, or null when unknown
     */
    List<PublishedDataSet> dataSets(Function<String, Integer> namespaceIndex, Function<NodeId, BuiltinType> dataTypeOf) {
        List<PublishedDataSet> sets = new ArrayList<>();
        for (Map.Entry<String, OpcUaPubSubProperties.DataSet> set : properties.getDataSets().entrySet()) {
            String base = "data-sets." + set.getKey();
            if (set.getValue().getFields().isEmpty()) {
                throw checks.invalid(base + ".fields", null, "the data set has no fields",
                        "fields by name, each with node-id (and type)");
            }
            List<PublishedField> fields = new ArrayList<>();
            for (Map.Entry<String, OpcUaPubSubProperties.Field> field : set.getValue().getFields().entrySet()) {
                String key = base + ".fields." + field.getKey();
                OpcUaPubSubProperties.Field f = field.getValue();
                NodeId source = f.getNodeId() == null ? null : nodeId(key + ".node-id", f.getNodeId(), namespaceIndex);
                BuiltinType type = f.getType() != null ? builtinType(key + ".type", f.getType())
                        : source != null && dataTypeOf != null ? dataTypeOf.apply(source) : null;
                fields.add(new PublishedField(field.getKey(), source, type == null ? BuiltinType.Double : type, null,
                        f.isArray() ? 1 : -1));
            }
            sets.add(new PublishedDataSet(set.getKey(), fields));
        }
        return sets;
    }

    /** The connection with its writer groups and readers. */
    PubSubConnectionConfig connection(PublisherId publisherId, Function<String, Integer> namespaceIndex) {
        Set<String> dataSetNames = properties.getDataSets().keySet();
        List<WriterGroupConfig> groups = new ArrayList<>();
        Set<Integer> writerIds = new HashSet<>();
        int groupPosition = 0;
        int writerPosition = 0;
        for (Map.Entry<String, OpcUaPubSubProperties.WriterGroup> entry : properties.getWriterGroups().entrySet()) {
            groupPosition++;
            String base = "writer-groups." + entry.getKey();
            OpcUaPubSubProperties.WriterGroup g = entry.getValue();
            int groupId = id(base + ".id", g.getId(), groupPosition);
            if (g.getWriters().isEmpty()) {
                throw checks.invalid(base + ".writers", null, "the writer group has no writers",
                        "writers by name, each with data-set");
            }
            List<DataSetWriterConfig> writers = new ArrayList<>();
            for (Map.Entry<String, OpcUaPubSubProperties.Writer> w : g.getWriters().entrySet()) {
                writerPosition++;
                String key = base + ".writers." + w.getKey();
                OpcUaPubSubProperties.Writer writer = w.getValue();
                int writerId = id(key + ".id", writer.getId(), writerPosition);
                if (!writerIds.add(writerId)) {
                    throw checks.invalid(key + ".id", writerId, "another writer has this DataSetWriterId",
                            "an id 1..65535 unique among the application's writers");
                }
                String dataSet = checks.requireText(key + ".data-set", writer.getDataSet(),
                        "the name of a data set under " + PREFIX + ".data-sets");
                if (!dataSetNames.contains(dataSet)) {
                    throw checks.invalid(key + ".data-set", dataSet, "there is no data set of that name",
                            "one of " + dataSetNames);
                }
                if (writer.getKeyFrameCount() < 1) {
                    throw checks.invalid(key + ".key-frame-count", writer.getKeyFrameCount(), "it must be positive",
                            "1 (key frames only) or more");
                }
                writers.add(new DataSetWriterConfig(w.getKey(), writerId, dataSet, writer.getKeyFrameCount(),
                        fieldContentMask(key + ".field-content", writer.getFieldContent())));
            }
            Duration interval = checks.positiveDuration(base + ".publishing-interval", g.getPublishingInterval());
            Duration keepAlive = g.getKeepAliveTime() == null ? null
                    : checks.positiveDuration(base + ".keep-alive-time", g.getKeepAliveTime());
            groups.add(new WriterGroupConfig(entry.getKey(), groupId, interval, keepAlive,
                    encoding(base + ".encoding", g.getEncoding()), qos(base + ".qos", g.getQos()), g.getTopic(),
                    null, writers));
        }
        List<DataSetReaderConfig> readers = new ArrayList<>();
        for (Map.Entry<String, OpcUaPubSubProperties.Reader> entry : properties.getReaders().entrySet()) {
            String base = "readers." + entry.getKey();
            OpcUaPubSubProperties.Reader r = entry.getValue();
            PublisherId readFrom = parsePublisherId(base + ".publisher-id", r.getPublisherId());
            if (r.getDataSetWriterId() < 1 || r.getDataSetWriterId() > 0xFFFF) {
                throw checks.invalid(base + ".data-set-writer-id", r.getDataSetWriterId(),
                        "it is not a DataSetWriterId", "the publisher's DataSetWriterId, 1..65535");
            }
            if (r.getWriterGroupId() < 0 || r.getWriterGroupId() > 0xFFFF) {
                throw checks.invalid(base + ".writer-group-id", r.getWriterGroupId(), "it is not a WriterGroupId",
                        "0 (any) or the publisher's WriterGroupId, 1..65535");
            }
            if (r.getTopic() == null && (r.getWriterGroup() == null || r.getWriterGroup().isBlank())) {
                throw checks.invalid(base + ".writer-group", r.getWriterGroup(),
                        "neither the publisher's writer group nor a topic is set",
                        "the publisher's writer group name (or a topic filter in topic)");
            }
            List<FieldTarget> targets = new ArrayList<>();
            for (Map.Entry<String, String> target : r.getTargets().entrySet()) {
                targets.add(new FieldTarget(target.getKey(),
                        nodeId(base + ".targets." + target.getKey(), target.getValue(), namespaceIndex)));
            }
            readers.add(new DataSetReaderConfig(entry.getKey(), readFrom, r.getWriterGroup(), r.getWriterGroupId(),
                    r.getDataSetWriterId(), encoding(base + ".encoding", r.getEncoding()), qos(base + ".qos", r.getQos()),
                    r.getTopic(), null, targets));
        }
        try {
            return new PubSubConnectionConfig("mqtt", publisherId, groups, readers);
        } catch (IllegalArgumentException e) {
            throw checks.refused(e, "unique writer group ids and names, unique DataSetWriterIds");
        }
    }

    /** The MQTT client settings, without TLS and will (the auto-configuration adds them). */
    MqttSettings.Builder mqtt(PublisherId publisherId) {
        OpcUaPubSubProperties.Mqtt mqtt = properties.getMqtt();
        String url = checks.requireText("mqtt.broker-url", mqtt.getBrokerUrl(),
                "the broker's URL: tcp://host:1883 or ssl://host:8883");
        MqttSettings.Builder builder;
        try {
            builder = MqttSettings.builder(url);
        } catch (IllegalArgumentException e) {
            throw checks.invalid("mqtt.broker-url", url, e.getMessage(),
                    "tcp://host:port or mqtt://host:port, ssl://host:port or mqtts://host:port", e);
        }
        String clientId = mqtt.getClientId() != null && !mqtt.getClientId().isBlank() ? mqtt.getClientId()
                : "opcua-" + publisherId + "-" + UUID.randomUUID().toString().substring(0, 8);
        builder.clientId(clientId);
        if (mqtt.getUsername() != null) {
            builder.credentials(mqtt.getUsername(),
                    mqtt.getPassword() == null ? new char[0] : mqtt.getPassword().toCharArray());
        }
        builder.protocolVersion(switch (mqtt.getProtocolVersion() == null ? "" : mqtt.getProtocolVersion().trim()) {
            case "3.1.1", "3", "v3.1.1" -> MqttProtocolVersion.V3_1_1;
            case "5", "5.0", "v5" -> MqttProtocolVersion.V5;
            default -> throw checks.invalid("mqtt.protocol-version", mqtt.getProtocolVersion(),
                    "it is not an MQTT version this client speaks", "3.1.1 or 5");
        });
        builder.keepAlive(checks.positiveDuration("mqtt.keep-alive", mqtt.getKeepAlive()));
        builder.connectTimeout(checks.positiveDuration("mqtt.connect-timeout", mqtt.getConnectTimeout()));
        builder.reconnectDelay(checks.positiveDuration("mqtt.reconnect-initial-delay", mqtt.getReconnectInitialDelay()),
                checks.positiveDuration("mqtt.reconnect-max-delay", mqtt.getReconnectMaxDelay()));
        builder.maxQueuedMessages(checks.positive("mqtt.max-queued-messages", mqtt.getMaxQueuedMessages()));
        return builder;
    }

    int maxMessageSize() {
        return checks.bytes("max-message-size", properties.getMaxMessageSize());
    }

    private int id(String key, Integer configured, int position) {
        int id = configured == null ? position : configured;
        if (id < 1 || id > 0xFFFF) {
            throw checks.invalid(key, id, "it is outside 1..65535", "an id 1..65535");
        }
        return id;
    }

    private NodeId nodeId(String key, String text, Function<String, Integer> namespaceIndex) {
        ExpandedNodeId parsed;
        try {
            parsed = ExpandedNodeId.parse(text);
        } catch (RuntimeException e) {
            throw checks.invalid(key, text, "it is not a NodeId: " + e.getMessage(), NODE_ID, e);
        }
        if (parsed.namespaceUri() == null) {
            return parsed.nodeId();
        }
        Integer index = namespaceIndex == null ? null : namespaceIndex.apply(parsed.namespaceUri());
        if (index == null || index < 0) {
            throw checks.invalid(key, text, "the namespace " + parsed.namespaceUri() + " is not in the server's"
                    + " namespace table", NODE_ID + " of a namespace the server has");
        }
        return parsed.nodeId().withNamespaceIndex(index);
    }

    private BuiltinType builtinType(String key, String name) {
        for (BuiltinType type : BuiltinType.values()) {
            if (type.name().equalsIgnoreCase(name.trim()) && type != BuiltinType.Null) {
                return type;
            }
        }
        throw checks.invalid(key, name, "it is not a built-in type", BUILT_IN_TYPES);
    }

    private MessageEncoding encoding(String key, String text) {
        try {
            return MessageEncoding.valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (RuntimeException e) {
            throw checks.invalid(key, text, "it is not a PubSub message mapping", "json or uadp", e);
        }
    }

    private QualityOfService qos(String key, int qos) {
        return switch (qos) {
            case 0 -> QualityOfService.AT_MOST_ONCE;
            case 1 -> QualityOfService.AT_LEAST_ONCE;
            case 2 -> QualityOfService.EXACTLY_ONCE;
            default -> throw checks.invalid(key, qos, "it is not an MQTT QoS", "0, 1 or 2");
        };
    }

    private long fieldContentMask(String key, List<String> content) {
        long mask = 0;
        for (int i = 0; i < content.size(); i++) {
            String item = content.get(i).trim().toLowerCase(Locale.ROOT);
            mask |= switch (item) {
                case "status-code", "status" -> DataSetFieldContentMask.StatusCode;
                case "source-timestamp" -> DataSetFieldContentMask.SourceTimestamp;
                case "server-timestamp" -> DataSetFieldContentMask.ServerTimestamp;
                case "source-pico-seconds" -> DataSetFieldContentMask.SourcePicoSeconds;
                case "server-pico-seconds" -> DataSetFieldContentMask.ServerPicoSeconds;
                case "raw-data" -> DataSetFieldContentMask.RawData;
                default -> throw checks.invalid(key + "[" + i + "]", content.get(i), "it is not a field content",
                        "status-code, source-timestamp, server-timestamp, source-pico-seconds, server-pico-seconds,"
                                + " or raw-data alone");
            };
        }
        if ((mask & DataSetFieldContentMask.RawData) != 0 && mask != DataSetFieldContentMask.RawData) {
            throw checks.invalid(key, content, "raw-data carries the bare value and cannot be combined",
                    "raw-data alone, or any of status-code, source-timestamp, server-timestamp, *-pico-seconds");
        }
        return mask;
    }
}
