package dev.opcua.spring.boot.autoconfigure.pubsub;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * OPC UA PubSub over MQTT ({@code opcua.pubsub.*}, Part 14): connections to brokers, the data sets this
 * application publishes and the writer groups that send them, and the readers that take other publishers'
 * data sets into variables or {@code @OpcUaPubSubListener} methods.
 *
 * <p>The top-level {@code mqtt}, {@code writer-groups} and {@code readers} are the connection named
 * {@code default} (when {@code mqtt.broker-url} is set); {@code connections.<name>} adds others, each with its
 * own broker, PublisherId, writer groups and readers. Data sets are shared by all connections.
 */
@ConfigurationProperties("opcua.pubsub")
public class OpcUaPubSubProperties {

    /** Whether to run PubSub. */
    private boolean enabled = false;

    /**
     * This application's PublisherId (Part 14, 6.2.7.1): a number (UInt16/UInt32/UInt64 by size) or a string;
     * by default spring.application.name, else "opcua-publisher".
     */
    private String publisherId;

    /** Received messages larger than this are dropped before decoding. */
    private DataSize maxMessageSize = DataSize.ofMegabytes(1);

    /**
     * The MQTT broker of the connection named "default", which the top-level writer-groups and readers use; it
     * exists only when its broker-url is set.
     */
    private final Mqtt mqtt = new Mqtt();

    /** Further connections by name, each with its own broker, PublisherId, writer groups and readers. */
    private final Map<String, Connection> connections = new LinkedHashMap<>();

    /**
     * Whether an OPC UA server of the application shows the PubSub configuration and state below its
     * PublishSubscribe object (Part 14, 9.1), where clients browse it and enable or disable writer groups and
     * readers.
     */
    private boolean informationModel = true;

    /** Published data sets by name. */
    private final Map<String, DataSet> dataSets = new LinkedHashMap<>();

    /**
     * Writer groups of the connection "default" by name (the WriterGroupName of messages and topics); names are
     * unique across all connections.
     */
    private final Map<String, WriterGroup> writerGroups = new LinkedHashMap<>();

    /** Data set readers of the connection "default" by name; names are unique across all connections. */
    private final Map<String, Reader> readers = new LinkedHashMap<>();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getPublisherId() {
        return publisherId;
    }

    public void setPublisherId(String publisherId) {
        this.publisherId = publisherId;
    }

    public DataSize getMaxMessageSize() {
        return maxMessageSize;
    }

    public void setMaxMessageSize(DataSize maxMessageSize) {
        this.maxMessageSize = maxMessageSize;
    }

    public Mqtt getMqtt() {
        return mqtt;
    }

    public Map<String, Connection> getConnections() {
        return connections;
    }

    public boolean isInformationModel() {
        return informationModel;
    }

    public void setInformationModel(boolean informationModel) {
        this.informationModel = informationModel;
    }

    public Map<String, DataSet> getDataSets() {
        return dataSets;
    }

    public Map<String, WriterGroup> getWriterGroups() {
        return writerGroups;
    }

    public Map<String, Reader> getReaders() {
        return readers;
    }

    /**
     * A further connection (Part 14, 6.2.7): one broker, the PublisherId this application has there, and the
     * writer groups and readers on it.
     */
    public static class Connection {

        /** This application's PublisherId on the connection; by default the top-level publisher-id. */
        private String publisherId;

        /** The connection's MQTT broker. */
        private final Mqtt mqtt = new Mqtt();

        /**
         * Writer groups by name; names unique across all connections. Their DataSetWriterIds are unique among the
         * writers of one PublisherId, and by default numbered on from the writers of other connections with the
         * same PublisherId.
         */
        private final Map<String, WriterGroup> writerGroups = new LinkedHashMap<>();

        /** Data set readers by name; names unique across all connections. */
        private final Map<String, Reader> readers = new LinkedHashMap<>();

        public String getPublisherId() {
            return publisherId;
        }

        public void setPublisherId(String publisherId) {
            this.publisherId = publisherId;
        }

        public Mqtt getMqtt() {
            return mqtt;
        }

        public Map<String, WriterGroup> getWriterGroups() {
            return writerGroups;
        }

        public Map<String, Reader> getReaders() {
            return readers;
        }
    }

    /** The broker connection (Part 14, 7.3.5). */
    public static class Mqtt {

        /** Broker URL: tcp://host:1883 (or mqtt://), ssl://host:8883 (or mqtts://). */
        private String brokerUrl;

        /** MQTT client id; by default one made from the PublisherId and a random suffix. */
        private String clientId;

        /** User name for the broker. */
        private String username;

        /** Password for the broker. */
        private String password;

        /** Spring SSL bundle (spring.ssl.bundle.*) whose trust store (and key store) TLS uses. */
        private String sslBundle;

        /** MQTT protocol version: 3.1.1 or 5. */
        private String protocolVersion = "3.1.1";

        /** MQTT keep-alive. */
        private Duration keepAlive = Duration.ofSeconds(30);

        /** How long to wait for the broker's CONNACK. */
        private Duration connectTimeout = Duration.ofSeconds(10);

        /** First delay before reconnecting after the broker is lost; it doubles up to reconnect-max-delay. */
        private Duration reconnectInitialDelay = Duration.ofSeconds(1);

        /** Longest delay between reconnection attempts. */
        private Duration reconnectMaxDelay = Duration.ofSeconds(30);

        /** Messages held while the broker is unreachable; beyond them the oldest are dropped and counted. */
        private int maxQueuedMessages = 10_000;

        /** Topic prefix of the standard topic tree (Part 14, 7.3.5.4); the same on every connection. */
        private String topicPrefix = "opcua";

        public String getBrokerUrl() {
            return brokerUrl;
        }

        public void setBrokerUrl(String brokerUrl) {
            this.brokerUrl = brokerUrl;
        }

        public String getClientId() {
            return clientId;
        }

        public void setClientId(String clientId) {
            this.clientId = clientId;
        }

        public String getUsername() {
            return username;
        }

        public void setUsername(String username) {
            this.username = username;
        }

        public String getPassword() {
            return password;
        }

        public void setPassword(String password) {
            this.password = password;
        }

        public String getSslBundle() {
            return sslBundle;
        }

        public void setSslBundle(String sslBundle) {
            this.sslBundle = sslBundle;
        }

        public String getProtocolVersion() {
            return protocolVersion;
        }

        public void setProtocolVersion(String protocolVersion) {
            this.protocolVersion = protocolVersion;
        }

        public Duration getKeepAlive() {
            return keepAlive;
        }

        public void setKeepAlive(Duration keepAlive) {
            this.keepAlive = keepAlive;
        }

        public Duration getConnectTimeout() {
            return connectTimeout;
        }

        public void setConnectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
        }

        public Duration getReconnectInitialDelay() {
            return reconnectInitialDelay;
        }

        public void setReconnectInitialDelay(Duration reconnectInitialDelay) {
            this.reconnectInitialDelay = reconnectInitialDelay;
        }

        public Duration getReconnectMaxDelay() {
            return reconnectMaxDelay;
        }

        public void setReconnectMaxDelay(Duration reconnectMaxDelay) {
            this.reconnectMaxDelay = reconnectMaxDelay;
        }

        public int getMaxQueuedMessages() {
            return maxQueuedMessages;
        }

        public void setMaxQueuedMessages(int maxQueuedMessages) {
            this.maxQueuedMessages = maxQueuedMessages;
        }

        public String getTopicPrefix() {
            return topicPrefix;
        }

        public void setTopicPrefix(String topicPrefix) {
            this.topicPrefix = topicPrefix;
        }
    }

    /**
     * A published data set: its fields in order. Variables annotated {@code @UaVariable(published = "<name>")}
     * are appended to the fields configured here, or make the data set when none is configured.
     */
    public static class DataSet {

        /** Fields by name, in publishing order. */
        private final Map<String, Field> fields = new LinkedHashMap<>();

        public Map<String, Field> getFields() {
            return fields;
        }
    }

    /** One field of a published data set. */
    public static class Field {

        /** The variable published, such as nsu=urn:acme:line;s=Line1.Speed or ns=2;i=17. */
        private String nodeId;

        /**
         * The field's built-in type (Boolean, Int32, UInt32, Int64, Float, Double, String, DateTime, ...), which
         * goes into the metadata; by default the DataType of the variable when the server has it, else Double.
         */
        private String type;

        /** Whether the field is a one-dimensional array. */
        private boolean array;

        public String getNodeId() {
            return nodeId;
        }

        public void setNodeId(String nodeId) {
            this.nodeId = nodeId;
        }

        public String getType() {
            return type;
        }

        public void setType(String type) {
            this.type = type;
        }

        public boolean isArray() {
            return array;
        }

        public void setArray(boolean array) {
            this.array = array;
        }
    }

    /** A writer group: writers whose messages go out together every publishing interval. */
    public static class WriterGroup {

        /** WriterGroupId, 1..65535; by default the group's position (1, 2, ...). */
        private Integer id;

        /** How often the group samples and publishes. */
        private Duration publishingInterval = Duration.ofSeconds(1);

        /** After how long without a change a keep-alive message goes out; by default interval x key-frame-count. */
        private Duration keepAliveTime;

        /** Message mapping: json or uadp. */
        private String encoding = "json";

        /**
         * How a json group writes each field: verbose (the bare value in the JSON type of the metadata's type, for
         * consumers without OPC UA knowledge) or variant (every field as {"UaType":n,"Value":..}, the reversible
         * form that subscribers without the metadata need, such as open62541 1.5).
         */
        private String fieldEncoding = "verbose";

        /** MQTT QoS: 0 (at most once), 1 (at least once) or 2 (exactly once). */
        private int qos = 1;

        /**
         * Whether the broker keeps the group's last data message for subscribers that connect later (MQTT retain);
         * metadata and status are always retained.
         */
        private boolean retain;

        /** Topic to publish to; by default the standard topic tree's data topic. */
        private String topic;

        /** Data set writers by name. */
        private final Map<String, Writer> writers = new LinkedHashMap<>();

        public Integer getId() {
            return id;
        }

        public void setId(Integer id) {
            this.id = id;
        }

        public Duration getPublishingInterval() {
            return publishingInterval;
        }

        public void setPublishingInterval(Duration publishingInterval) {
            this.publishingInterval = publishingInterval;
        }

        public Duration getKeepAliveTime() {
            return keepAliveTime;
        }

        public void setKeepAliveTime(Duration keepAliveTime) {
            this.keepAliveTime = keepAliveTime;
        }

        public String getEncoding() {
            return encoding;
        }

        public void setEncoding(String encoding) {
            this.encoding = encoding;
        }

        public String getFieldEncoding() {
            return fieldEncoding;
        }

        public void setFieldEncoding(String fieldEncoding) {
            this.fieldEncoding = fieldEncoding;
        }

        public int getQos() {
            return qos;
        }

        public void setQos(int qos) {
            this.qos = qos;
        }

        public boolean isRetain() {
            return retain;
        }

        public void setRetain(boolean retain) {
            this.retain = retain;
        }

        public String getTopic() {
            return topic;
        }

        public void setTopic(String topic) {
            this.topic = topic;
        }

        public Map<String, Writer> getWriters() {
            return writers;
        }
    }

    /** A data set writer. */
    public static class Writer {

        /**
         * DataSetWriterId, 1..65535 and unique among the writers of the connection's PublisherId; by default the
         * writer's position among them.
         */
        private Integer id;

        /** The published data set it sends (a key of opcua.pubsub.data-sets). */
        private String dataSet;

        /** Every how many messages a key frame goes out; 1 sends key frames only. */
        private int keyFrameCount = 1;

        /**
         * What each field carries besides its value: status-code, source-timestamp, server-timestamp,
         * source-pico-seconds, server-pico-seconds, or raw-data alone; empty for the bare value.
         */
        private List<String> fieldContent = new ArrayList<>();

        public Integer getId() {
            return id;
        }

        public void setId(Integer id) {
            this.id = id;
        }

        public String getDataSet() {
            return dataSet;
        }

        public void setDataSet(String dataSet) {
            this.dataSet = dataSet;
        }

        public int getKeyFrameCount() {
            return keyFrameCount;
        }

        public void setKeyFrameCount(int keyFrameCount) {
            this.keyFrameCount = keyFrameCount;
        }

        public List<String> getFieldContent() {
            return fieldContent;
        }

        public void setFieldContent(List<String> fieldContent) {
            this.fieldContent = fieldContent;
        }
    }

    /** A data set reader: one writer of one publisher. */
    public static class Reader {

        /** The publisher read. */
        private String publisherId;

        /** The publisher's writer group name (the topic level of the standard tree). */
        private String writerGroup;

        /** The publisher's WriterGroupId, 0 for any. */
        private int writerGroupId;

        /** The publisher's DataSetWriterId. */
        private int dataSetWriterId;

        /** Message mapping: json or uadp. */
        private String encoding = "json";

        /** MQTT QoS of the subscription: 0, 1 or 2. */
        private int qos = 1;

        /** Topic filter; by default the standard data topic of the writer group. */
        private String topic;

        /** Variables written with each received field, by field name. */
        private final Map<String, String> targets = new LinkedHashMap<>();

        public String getPublisherId() {
            return publisherId;
        }

        public void setPublisherId(String publisherId) {
            this.publisherId = publisherId;
        }

        public String getWriterGroup() {
            return writerGroup;
        }

        public void setWriterGroup(String writerGroup) {
            this.writerGroup = writerGroup;
        }

        public int getWriterGroupId() {
            return writerGroupId;
        }

        public void setWriterGroupId(int writerGroupId) {
            this.writerGroupId = writerGroupId;
        }

        public int getDataSetWriterId() {
            return dataSetWriterId;
        }

        public void setDataSetWriterId(int dataSetWriterId) {
            this.dataSetWriterId = dataSetWriterId;
        }

        public String getEncoding() {
            return encoding;
        }

        public void setEncoding(String encoding) {
            this.encoding = encoding;
        }

        public int getQos() {
            return qos;
        }

        public void setQos(int qos) {
            this.qos = qos;
        }

        public String getTopic() {
            return topic;
        }

        public void setTopic(String topic) {
            this.topic = topic;
        }

        public Map<String, String> getTargets() {
            return targets;
        }
    }
}
