package dev.opcua.stack.pubsub.transport.mqtt;

import dev.opcua.stack.pubsub.message.PublisherId;

/**
 * The standard MQTT topic tree of Part 14 (1.05.04: 7.3.5.7 "Topic tree"; 1.05.02: 7.3.4.7) under the default
 * prefix {@code opcua}; {@link MqttTopicTree#withPrefix} gives the same builders under another prefix. For example
 * {@code data(Encoding.JSON, PublisherId.ofString("Plant1"), "Fast")} is {@code opcua/json/data/Plant1/Fast}.
 * A system may configure its own QueueName / MetaDataQueueName instead; this tree is the default when it does not.
 */
public final class MqttTopics {

    private static final MqttTopicTree DEFAULT = MqttTopicTree.withPrefix(MqttTopicTree.DEFAULT_PREFIX);

    private MqttTopics() {
    }

    /** The {@code <Encoding>} level (7.3.5.7.1): the message mapping of every message on the topic. */
    public enum Encoding {
        /** JSON message mapping (7.2.5); TransportProfileUri http://opcfoundation.org/UA-Profile/Transport/pubsub-mqtt-json. */
        JSON("json"),
        /** UADP message mapping (7.2.4); TransportProfileUri http://opcfoundation.org/UA-Profile/Transport/pubsub-mqtt-uadp. */
        UADP("uadp");

        private final String level;

        Encoding(String level) {
            this.level = level;
        }

        /** The topic level text. */
        public String level() {
            return level;
        }
    }

    /**
     * The {@code <MqttMessageType>} level and its RETAIN default (Part 14 1.05.04, 7.3.5.7.2, Table 204).
     * A Publisher sends all retained discovery messages at start up, updates them when its configuration changes,
     * and clears them when the element goes away; over MQTT 3.1.1 it clears them when it shuts down, over MQTT 5 it
     * sets a message expiry instead (7.3.5.8).
     */
    public enum MessageType {
        /** DataSetMessages (7.3.5.7.3). */
        DATA("data", false),
        /** DataSetMetaData (7.3.5.7.4). */
        METADATA("metadata", true),
        /** ApplicationDescription (7.3.5.7.5); optional. */
        APPLICATION("application", true),
        /** ServerEndpoints (7.3.5.7.6); optional. */
        ENDPOINTS("endpoints", true),
        /** Status (7.3.5.7.7). */
        STATUS("status", true),
        /** PubSubConnection (7.3.5.7.8). */
        CONNECTION("connection", true),
        /** ActionRequest (7.3.5.7.9). */
        ACTION_REQUEST("action-request", false),
        /** ActionResponse (7.3.5.7.10); optional. */
        ACTION_RESPONSE("action-response", false),
        /** ActionResponder (7.3.5.7.11). */
        ACTION_RESPONDER("action-responder", true),
        /** ActionMetaData (7.3.5.7.12). */
        ACTION_METADATA("action-metadata", true);

        private final String level;
        private final boolean retained;

        MessageType(String level, boolean retained) {
            this.level = level;
            this.retained = retained;
        }

        /** The topic level text. */
        public String level() {
            return level;
        }

        /** Whether messages of this type are published with RETAIN by default (Table 204). */
        public boolean retained() {
            return retained;
        }

        /** The value of the MQTT 5 user property UAMessageType for this type: {@code ua-<level>} (Table 207). */
        public String uaMessageType() {
            return "ua-" + level;
        }
    }

    /** The tree under the default prefix {@code opcua}. */
    public static MqttTopicTree defaultTree() {
        return DEFAULT;
    }

    /** {@code opcua/<encoding>/data/<PublisherId>/<WriterGroup>}, see {@link MqttTopicTree#data(Encoding, PublisherId, String)}. */
    public static String data(Encoding encoding, PublisherId publisherId, String writerGroupName) {
        return DEFAULT.data(encoding, publisherId, writerGroupName);
    }

    /** {@code opcua/<encoding>/data/<PublisherId>/<WriterGroup>/<DataSetWriter>}. */
    public static String data(Encoding encoding, PublisherId publisherId, String writerGroupName,
            String dataSetWriterName) {
        return DEFAULT.data(encoding, publisherId, writerGroupName, dataSetWriterName);
    }

    /** {@code opcua/<encoding>/metadata/<PublisherId>/<WriterGroup>/<DataSetWriter>}. */
    public static String metadata(Encoding encoding, PublisherId publisherId, String writerGroupName,
            String dataSetWriterName) {
        return DEFAULT.metadata(encoding, publisherId, writerGroupName, dataSetWriterName);
    }

    /** {@code opcua/<encoding>/status/<PublisherId>}. */
    public static String status(Encoding encoding, PublisherId publisherId) {
        return DEFAULT.status(encoding, publisherId);
    }

    /** {@code opcua/<encoding>/connection/<PublisherId>}. */
    public static String connection(Encoding encoding, PublisherId publisherId) {
        return DEFAULT.connection(encoding, publisherId);
    }

    /** {@code opcua/<encoding>/application/<PublisherId>}. */
    public static String application(Encoding encoding, PublisherId publisherId) {
        return DEFAULT.application(encoding, publisherId);
    }

    /** {@code opcua/<encoding>/endpoints/<PublisherId>}. */
    public static String endpoints(Encoding encoding, PublisherId publisherId) {
        return DEFAULT.endpoints(encoding, publisherId);
    }

    /** Filter {@code opcua/<encoding>/data/<PublisherId>/#}: all data of a publisher. */
    public static String allData(Encoding encoding, PublisherId publisherId) {
        return DEFAULT.allData(encoding, publisherId);
    }

    /** Filter {@code opcua/<encoding>/metadata/<PublisherId>/#}: all metadata of a publisher. */
    public static String allMetadata(Encoding encoding, PublisherId publisherId) {
        return DEFAULT.allMetadata(encoding, publisherId);
    }

    /** Filter {@code opcua/<encoding>/status/#}: the status of every publisher. */
    public static String allStatus(Encoding encoding) {
        return DEFAULT.allStatus(encoding);
    }

    /** Filter {@code opcua/<encoding>/<type>/#}: one message type of every publisher. */
    public static String filter(Encoding encoding, MessageType messageType) {
        return DEFAULT.filter(encoding, messageType);
    }
}
