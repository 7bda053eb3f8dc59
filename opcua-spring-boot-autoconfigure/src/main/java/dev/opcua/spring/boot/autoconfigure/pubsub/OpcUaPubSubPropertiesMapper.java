package dev.opcua.spring.boot.autoconfigure.pubsub;

import dev.opcua.spring.boot.autoconfigure.diagnostics.PropertyChecks;
import dev.opcua.spring.boot.server.annotation.UaPublishedVariable;
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
import dev.opcua.stack.pubsub.message.json.JsonLayout;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.mqtt.MqttProtocolVersion;
import dev.opcua.stack.pubsub.transport.mqtt.MqttSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;

/**
 * Turns {@code opcua.pubsub.*} into the stack's PubSub configuration, checking every value on the way: a wrong
 * one stops the start with an {@link InvalidOpcUaPubSubPropertyException} naming the key, the value and what the
 * key accepts. One mapper maps one start: it remembers the DataSetWriterIds of each PublisherId and the names of
 * writer groups and readers across the connections.
 */
final class OpcUaPubSubPropertiesMapper {

    static final String PREFIX = "opcua.pubsub";
    /** The name of the connection of the top-level mqtt, writer-groups and readers. */
    static final String DEFAULT_CONNECTION = "default";
    private static final String NODE_ID = "a NodeId such as ns=2;s=Line1.Speed, i=2258 or nsu=urn:acme:line;s=Speed";
    private static final String BUILT_IN_TYPES = "a built-in type name: Boolean, SByte, Byte, Int16, UInt16, Int32,"
            + " UInt32, Int64, UInt64, Float, Double, String, DateTime, Guid, ByteString, NodeId, StatusCode,"
            + " LocalizedText, QualifiedName";
    private static final String BROKER_URL = "the broker's URL: tcp://host:1883 or ssl://host:8883";

    /**
     * One connection as the properties give it: the top-level one ({@code default}) or one of
     * {@code connections.<name>}.
     *
     * @param base the keys' part before {@code mqtt.}, {@code writer-groups.} ...: empty or
     *        {@code connections.<name>.}
     * @param publisherId the connection's own publisher-id, null for the application's
     */
    record ConnectionProperties(String name, String base, String publisherId, OpcUaPubSubProperties.Mqtt mqtt,
            Map<String, OpcUaPubSubProperties.WriterGroup> writerGroups,
            Map<String, OpcUaPubSubProperties.Reader> readers) {
    }

    private final OpcUaPubSubProperties properties;
    private final PropertyChecks checks = new PropertyChecks(PREFIX, InvalidOpcUaPubSubPropertyException::new);
    /** The DataSetWriterIds taken, and the last default position, per PublisherId (Part 14, 6.2.4.1). */
    private final Map<PublisherId, Set<Integer>> writerIds = new HashMap<>();
    private final Map<PublisherId, Integer> writerPositions = new HashMap<>();
    /** Writer group and reader names taken, with their keys: they are addressed by name application-wide. */
    private final Map<String, String> groupNames = new HashMap<>();
    private final Map<String, String> readerNames = new HashMap<>();
    private final Map<WriterGroupConfig, JsonLayout> jsonLayouts = new IdentityHashMap<>();

    OpcUaPubSubPropertiesMapper(OpcUaPubSubProperties properties) {
        this.properties = properties;
    }

    /**
     * The connections: {@code default} from the top-level keys when {@code mqtt.broker-url} is set, then those of
     * {@code connections.*}; at least one.
     */
    List<ConnectionProperties> connections() {
        List<ConnectionProperties> connections = new ArrayList<>();
        OpcUaPubSubProperties.Mqtt top = properties.getMqtt();
        boolean hasDefault = top.getBrokerUrl() != null && !top.getBrokerUrl().isBlank();
        if (hasDefault) {
            if (properties.getConnections().containsKey(DEFAULT_CONNECTION)) {
                throw checks.invalid("connections." + DEFAULT_CONNECTION + ".mqtt.broker-url",
                        properties.getConnections().get(DEFAULT_CONNECTION).getMqtt().getBrokerUrl(),
                        "the top-level mqtt, writer-groups and readers are the connection named default already",
                        "another connection name, or the default connection's keys at the top level");
            }
            connections.add(new ConnectionProperties(DEFAULT_CONNECTION, "", null, top, properties.getWriterGroups(),
                    properties.getReaders()));
        } else if (properties.getConnections().isEmpty()) {
            checks.requireText("mqtt.broker-url", top.getBrokerUrl(), BROKER_URL + " (or connections.<name>.mqtt.*)");
        } else if (!properties.getWriterGroups().isEmpty() || !properties.getReaders().isEmpty()) {
            throw checks.invalid("mqtt.broker-url", top.getBrokerUrl(), "the top-level writer-groups and readers"
                    + " belong to the connection default, which has no broker", BROKER_URL
                    + ", or the writer groups and readers moved under connections.<name>");
        }
        for (Map.Entry<String, OpcUaPubSubProperties.Connection> entry : properties.getConnections().entrySet()) {
            OpcUaPubSubProperties.Connection c = entry.getValue();
            connections.add(new ConnectionProperties(entry.getKey(), "connections." + entry.getKey() + ".",
                    c.getPublisherId(), c.getMqtt(), c.getWriterGroups(), c.getReaders()));
        }
        return connections;
    }

    /** The topic prefix of the standard tree, one for all connections. */
    String topicPrefix(List<ConnectionProperties> connections) {
        String prefix = checks.requireText(connections.get(0).base() + "mqtt.topic-prefix",
                connections.get(0).mqtt().getTopicPrefix(), "a topic prefix such as opcua");
        for (ConnectionProperties c : connections) {
            String own = c.mqtt().getTopicPrefix();
            if (!prefix.equals(own)) {
                throw checks.invalid(c.base() + "mqtt.topic-prefix", own, "the connection "
                        + connections.get(0).name() + " has the topic prefix " + prefix + " and the application has"
                        + " one topic tree", prefix + " on every connection");
            }
        }
        return prefix;
    }

    /** This application's PublisherId: a number of the smallest unsigned type that holds it, or the text. */
    PublisherId publisherId(String applicationName) {
        String text = properties.getPublisherId();
        if (text == null || text.isBlank()) {
            text = applicationName == null || applicationName.isBlank() ? "opcua-publisher" : applicationName;
        }
        return parsePublisherId("publisher-id", text);
    }

    /** A connection's PublisherId: its own publisher-id, else the application's. */
    PublisherId publisherId(ConnectionProperties connection, PublisherId application) {
        return connection.publisherId() == null ? application
                : parsePublisherId(connection.base() + "publisher-id", connection.publisherId());
    }

    /** The JSON layout of each writer group mapped so far that does not use the default. */
    Map<WriterGroupConfig, JsonLayout> jsonLayouts() {
        return jsonLayouts;
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
     * The published data sets: those of the properties with the annotated variables appended, then the data sets
     * that only annotations name; a field's {@code nsu=} node id is resolved with the server's namespace table.
     *
     * @param namespaceIndex the index of a namespace URI (-1 when unknown), or null without a server
     * @param dataTypeOf the built-in type of a variable's value, or null when unknown
     * @param annotated the variables annotated {@code @UaVariable(published = ...)}, in declaration order
     */
    List<PublishedDataSet> dataSets(Function<String, Integer> namespaceIndex, Function<NodeId, BuiltinType> dataTypeOf,
            List<UaPublishedVariable> annotated) {
        Map<String, List<PublishedField>> sets = new LinkedHashMap<>();
        for (Map.Entry<String, OpcUaPubSubProperties.DataSet> set : properties.getDataSets().entrySet()) {
            String base = "data-sets." + set.getKey();
            if (set.getValue().getFields().isEmpty()
                    && annotated.stream().noneMatch(v -> v.dataSet().equals(set.getKey()))) {
                throw checks.invalid(base + ".fields", null, "the data set has no fields",
                        "fields by name, each with node-id (and type), or @UaVariable(published = \""
                                + set.getKey() + "\") variables");
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
            sets.put(set.getKey(), fields);
        }
        for (UaPublishedVariable variable : annotated) {
            List<PublishedField> fields = sets.computeIfAbsent(variable.dataSet(), name -> new ArrayList<>());
            if (fields.stream().anyMatch(f -> f.name().equals(variable.field()))) {
                throw checks.invalid("data-sets." + variable.dataSet() + ".fields." + variable.field(), null,
                        variable.member() + " is annotated @UaVariable(published = \"" + variable.dataSet()
                                + "\") as a field of this name", "another field name here, or another"
                                + " publishedField on the variable");
            }
            fields.add(new PublishedField(variable.field(), variable.nodeId(), variable.builtinType(), null,
                    variable.valueRank()));
        }
        List<PublishedDataSet> dataSets = new ArrayList<>();
        sets.forEach((name, fields) -> dataSets.add(new PublishedDataSet(name, fields)));
        return dataSets;
    }

    /**
     * A connection with its writer groups and readers.
     *
     * @param dataSetNames the names of the published data sets, which writers name
     */
    PubSubConnectionConfig connection(ConnectionProperties connection, PublisherId publisherId,
            Function<String, Integer> namespaceIndex, Set<String> dataSetNames) {
        List<WriterGroupConfig> groups = new ArrayList<>();
        Set<Integer> writerIds = this.writerIds.computeIfAbsent(publisherId, id -> new HashSet<>());
        int groupPosition = 0;
        int writerPosition = writerPositions.getOrDefault(publisherId, 0);
        for (Map.Entry<String, OpcUaPubSubProperties.WriterGroup> entry : connection.writerGroups().entrySet()) {
            groupPosition++;
            String base = connection.base() + "writer-groups." + entry.getKey();
            OpcUaPubSubProperties.WriterGroup g = entry.getValue();
            uniqueName(groupNames, entry.getKey(), base, "writer group");
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
                    throw checks.invalid(key + ".id", writerId, "another writer of PublisherId " + publisherId
                            + " has this DataSetWriterId", "an id 1..65535 unique among the writers of the"
                            + " PublisherId, on all its connections");
                }
                String dataSet = checks.requireText(key + ".data-set", writer.getDataSet(),
                        "the name of a data set under " + PREFIX + ".data-sets or of @UaVariable(published)");
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
            MessageEncoding encoding = encoding(base + ".encoding", g.getEncoding());
            boolean variantFields = variantFields(base + ".field-encoding", g.getFieldEncoding(), encoding);
            WriterGroupConfig group = new WriterGroupConfig(entry.getKey(), groupId, interval, keepAlive, encoding,
                    qos(base + ".qos", g.getQos()), g.getTopic(), null, writers, g.isRetain());
            if (variantFields) {
                jsonLayouts.put(group, JsonLayout.DEFAULT.withVariantFields());
            }
            groups.add(group);
        }
        writerPositions.put(publisherId, writerPosition);
        List<DataSetReaderConfig> readers = new ArrayList<>();
        for (Map.Entry<String, OpcUaPubSubProperties.Reader> entry : connection.readers().entrySet()) {
            String base = connection.base() + "readers." + entry.getKey();
            OpcUaPubSubProperties.Reader r = entry.getValue();
            uniqueName(readerNames, entry.getKey(), base, "reader");
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
            return new PubSubConnectionConfig(connection.name(), publisherId, groups, readers);
        } catch (IllegalArgumentException e) {
            throw checks.refused(e, "unique writer group ids and names, unique DataSetWriterIds");
        }
    }

    /** Writer groups and readers are listened to, shown and switched by name: one name, one of them. */
    private void uniqueName(Map<String, String> taken, String name, String key, String what) {
        String other = taken.putIfAbsent(name, key);
        if (other != null) {
            throw checks.invalid(key, null, "the " + what + " " + checks.key(other) + " has this name",
                    "a " + what + " name unique across all connections (@OpcUaPubSubListener, the information"
                            + " model and the enabling of writer groups and readers go by name)");
        }
    }

    /** Whether a group writes its fields as Variant objects. */
    private boolean variantFields(String key, String text, MessageEncoding encoding) {
        String value = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        return switch (value) {
            case "verbose" -> false;
            case "variant" -> {
                if (encoding != MessageEncoding.JSON) {
                    throw checks.invalid(key, text, "the field encoding belongs to the json mapping; uadp writes"
                            + " its fields as the writers' field-content says", "verbose (the default) with uadp");
                }
                yield true;
            }
            default -> throw checks.invalid(key, text, "it is not a JSON field encoding",
                    "verbose (bare values, the default) or variant ({\"UaType\":..,\"Value\":..} for each field)");
        };
    }

    /** The MQTT client settings of a connection, without TLS and will (the factory adds them). */
    MqttSettings.Builder mqtt(ConnectionProperties connection, PublisherId publisherId) {
        OpcUaPubSubProperties.Mqtt mqtt = connection.mqtt();
        String k = connection.base() + "mqtt.";
        String url = checks.requireText(k + "broker-url", mqtt.getBrokerUrl(), BROKER_URL);
        MqttSettings.Builder builder;
        try {
            builder = MqttSettings.builder(url);
        } catch (IllegalArgumentException e) {
            throw checks.invalid(k + "broker-url", url, e.getMessage(),
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
            default -> throw checks.invalid(k + "protocol-version", mqtt.getProtocolVersion(),
                    "it is not an MQTT version this client speaks", "3.1.1 or 5");
        });
        builder.keepAlive(checks.positiveDuration(k + "keep-alive", mqtt.getKeepAlive()));
        builder.connectTimeout(checks.positiveDuration(k + "connect-timeout", mqtt.getConnectTimeout()));
        builder.reconnectDelay(checks.positiveDuration(k + "reconnect-initial-delay", mqtt.getReconnectInitialDelay()),
                checks.positiveDuration(k + "reconnect-max-delay", mqtt.getReconnectMaxDelay()));
        builder.maxQueuedMessages(checks.positive(k + "max-queued-messages", mqtt.getMaxQueuedMessages()));
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
