package dev.opcua.stack.pubsub.transport.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTopics.Encoding;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTopics.MessageType;
import org.junit.jupiter.api.Test;

/** The topic tree of Part 14, 7.3.5.7: forms, RETAIN defaults and refused names. */
class MqttTopicsTest {

    private static final PublisherId PLANT = PublisherId.ofString("Plant1");

    @Test
    void topicsHaveTheStandardForms() {
        assertThat(MqttTopics.data(Encoding.JSON, PLANT, "Fast")).isEqualTo("opcua/json/data/Plant1/Fast");
        assertThat(MqttTopics.data(Encoding.UADP, PLANT, "Fast", "Motor1"))
                .isEqualTo("opcua/uadp/data/Plant1/Fast/Motor1");
        assertThat(MqttTopics.metadata(Encoding.JSON, PLANT, "Fast", "Motor1"))
                .isEqualTo("opcua/json/metadata/Plant1/Fast/Motor1");
        assertThat(MqttTopics.status(Encoding.JSON, PLANT)).isEqualTo("opcua/json/status/Plant1");
        assertThat(MqttTopics.connection(Encoding.JSON, PLANT)).isEqualTo("opcua/json/connection/Plant1");
        assertThat(MqttTopics.application(Encoding.JSON, PLANT)).isEqualTo("opcua/json/application/Plant1");
        assertThat(MqttTopics.endpoints(Encoding.UADP, PLANT)).isEqualTo("opcua/uadp/endpoints/Plant1");
    }

    @Test
    void numericPublisherIdsAreDecimalText() {
        assertThat(MqttTopics.status(Encoding.JSON, PublisherId.ofUInt16(4711))).isEqualTo("opcua/json/status/4711");
        assertThat(MqttTopics.status(Encoding.JSON, PublisherId.ofUInt64(-1L)))
                .isEqualTo("opcua/json/status/18446744073709551615");
    }

    @Test
    void filtersUseTheMqttWildcards() {
        assertThat(MqttTopics.allData(Encoding.JSON, PLANT)).isEqualTo("opcua/json/data/Plant1/#");
        assertThat(MqttTopics.allMetadata(Encoding.JSON, PLANT)).isEqualTo("opcua/json/metadata/Plant1/#");
        assertThat(MqttTopics.allStatus(Encoding.JSON)).isEqualTo("opcua/json/status/#");
        assertThat(MqttTopics.filter(Encoding.UADP, MessageType.CONNECTION)).isEqualTo("opcua/uadp/connection/#");
    }

    @Test
    void retainDefaultsFollowTable204() {
        assertThat(MessageType.DATA.retained()).isFalse();
        assertThat(MessageType.ACTION_REQUEST.retained()).isFalse();
        assertThat(MessageType.ACTION_RESPONSE.retained()).isFalse();
        assertThat(MessageType.METADATA.retained()).isTrue();
        assertThat(MessageType.STATUS.retained()).isTrue();
        assertThat(MessageType.CONNECTION.retained()).isTrue();
        assertThat(MessageType.APPLICATION.retained()).isTrue();
        assertThat(MessageType.ENDPOINTS.retained()).isTrue();
        assertThat(MessageType.ACTION_METADATA.level()).isEqualTo("action-metadata");
        assertThat(MessageType.DATA.uaMessageType()).isEqualTo("ua-data");
    }

    @Test
    void anotherPrefixMayHaveSeveralLevels() {
        MqttTopicTree tree = MqttTopicTree.withPrefix("site7/opcua");
        assertThat(tree.data(Encoding.JSON, PLANT, "Fast")).isEqualTo("site7/opcua/json/data/Plant1/Fast");
        assertThat(tree.allStatus(Encoding.JSON)).isEqualTo("site7/opcua/json/status/#");
        assertThatThrownBy(() -> MqttTopicTree.withPrefix("a//b")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("a//b");
        assertThatThrownBy(() -> MqttTopicTree.withPrefix("a/+")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'+'");
        assertThatThrownBy(() -> MqttTopicTree.withPrefix("/a")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void namesThatCannotBeOneTopicLevelAreRefused() {
        assertThatThrownBy(() -> MqttTopics.data(Encoding.JSON, PLANT, "a/b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("WriterGroup name 'a/b'").hasMessageContaining("'/'");
        assertThatThrownBy(() -> MqttTopics.data(Encoding.JSON, PLANT, "G", "W#1"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DataSetWriter name 'W#1'");
        assertThatThrownBy(() -> MqttTopics.status(Encoding.JSON, PublisherId.ofString("x+y")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("PublisherId 'x+y'");
        assertThatThrownBy(() -> MqttTopics.data(Encoding.JSON, PLANT, ""))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("empty");
    }
}
