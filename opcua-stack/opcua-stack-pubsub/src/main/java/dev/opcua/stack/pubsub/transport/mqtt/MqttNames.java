package dev.opcua.stack.pubsub.transport.mqtt;

import com.hivemq.client.mqtt.datatypes.MqttTopic;
import com.hivemq.client.mqtt.datatypes.MqttTopicFilter;

/**
 * Checks topic names and topic filters against the MQTT rules (MQTT 3.1.1, 4.7; 5.0, 4.7) up front, so a bad name
 * fails where it is given with a message naming it, not later inside the client.
 */
final class MqttNames {

    private MqttNames() {
    }

    /** A topic name: non-empty UTF-8, no wildcards, no U+0000. */
    static MqttTopic checkTopic(String topic) {
        if (topic == null) {
            throw new IllegalArgumentException("an MQTT topic is required, was null");
        }
        try {
            return MqttTopic.of(topic);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid MQTT topic '" + topic + "': " + e.getMessage(), e);
        }
    }

    /** A topic filter: like a topic, with {@code +} as a whole level and {@code #} as the whole last level. */
    static MqttTopicFilter checkFilter(String filter) {
        if (filter == null) {
            throw new IllegalArgumentException("an MQTT topic filter is required, was null");
        }
        try {
            return MqttTopicFilter.of(filter);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid MQTT topic filter '" + filter + "': " + e.getMessage(), e);
        }
    }
}
