package dev.opcua.stack.pubsub.transport.mqtt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.pubsub.transport.QualityOfService;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class MqttSettingsTest {

    @ParameterizedTest
    @CsvSource({
        "mqtt://broker, broker, 1883, false",
        "tcp://broker:1999, broker, 1999, false",
        "mqtts://broker, broker, 8883, true",
        "ssl://10.0.0.1:9000, 10.0.0.1, 9000, true",
        "MQTT://[::1]:1883, ::1, 1883, false",
        "mqtt://broker/, broker, 1883, false"})
    void urlsGiveHostPortAndTls(String url, String host, int port, boolean tls) {
        BrokerAddress a = MqttSettings.builder(url).build().address();
        assertThat(a.host()).isEqualTo(host);
        assertThat(a.port()).isEqualTo(port);
        assertThat(a.tls()).isEqualTo(tls);
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://broker:1883", "ws://broker", "broker:1883", "mqtt://", "mqtt://broker/path",
        "mqtt://user:pw@broker", "mqtt://broker:0"})
    void badUrlsAreRefusedNamingThem(String url) {
        assertThatThrownBy(() -> MqttSettings.builder(url)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(url);
    }

    @Test
    void anUnknownSchemeNamesTheAcceptedOnes() {
        assertThatThrownBy(() -> MqttSettings.builder("http://broker"))
                .hasMessageContaining("mqtt://").hasMessageContaining("tcp://").hasMessageContaining("mqtts://")
                .hasMessageContaining("ssl://");
    }

    @Test
    void defaults() {
        MqttSettings s = MqttSettings.builder("mqtt://broker").build();
        assertThat(s.clientId()).startsWith("opcua-").hasSize(6 + 36);
        assertThat(s.protocolVersion()).isEqualTo(MqttProtocolVersion.V3_1_1);
        assertThat(s.keepAlive()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.reconnectInitialDelay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(s.reconnectMaxDelay()).isEqualTo(Duration.ofSeconds(30));
        assertThat(s.maxQueuedMessages()).isEqualTo(10_000);
        assertThat(s.cleanSession()).isTrue();
        assertThat(s.hostnameVerification()).isTrue();
        assertThat(s.will()).isEmpty();
        assertThat(MqttSettings.builder("mqtt://broker").build().clientId()).isNotEqualTo(s.clientId());
    }

    @Test
    void thePasswordIsNeverShown() {
        MqttSettings s = MqttSettings.builder("mqtt://broker").credentials("opc", "s3cr3t!".toCharArray()).build();
        assertThat(s.toString()).contains("opc").doesNotContain("s3cr3t!");
        assertThat(s.password()).hasValueSatisfying(
                p -> assertThat(new String(p, StandardCharsets.UTF_8)).isEqualTo("s3cr3t!"));
        assertThat(s.toBuilder().build().toString()).doesNotContain("s3cr3t!");
    }

    @Test
    void inconsistentSettingsAreRefused() throws Exception {
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        assertThatThrownBy(() -> MqttSettings.builder("mqtt://broker").tls(tmf, null).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("mqtt://broker")
                .hasMessageContaining("not TLS");
        assertThatThrownBy(() -> MqttSettings.builder("mqtt://broker")
                .reconnectDelay(Duration.ofSeconds(10), Duration.ofSeconds(1)).build())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("reconnectMaxDelay");
        assertThatThrownBy(() -> MqttSettings.builder("mqtt://broker").keepAlive(Duration.ofDays(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("keepAlive");
        assertThatThrownBy(() -> MqttSettings.builder("mqtt://broker").maxQueuedMessages(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxQueuedMessages");
        assertThatThrownBy(() -> new MqttWill("a/#", new byte[0], QualityOfService.AT_MOST_ONCE, true))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a/#");
    }

    @Test
    void backoffDoublesUpToTheMaxWithJitter() {
        MqttTransport t = new MqttTransport(MqttSettings.builder("mqtt://broker")
                .reconnectDelay(Duration.ofSeconds(1), Duration.ofSeconds(30)).build());
        assertThat(t.backoffMillis(0)).isBetween(800L, 1000L);
        assertThat(t.backoffMillis(1)).isBetween(1600L, 2000L);
        assertThat(t.backoffMillis(3)).isBetween(6400L, 8000L);
        assertThat(t.backoffMillis(5)).isBetween(24_000L, 30_000L);
        assertThat(t.backoffMillis(40)).isBetween(24_000L, 30_000L);
        t.close();
    }
}
