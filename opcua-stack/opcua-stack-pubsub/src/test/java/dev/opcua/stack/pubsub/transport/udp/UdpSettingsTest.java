package dev.opcua.stack.pubsub.transport.udp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The opc.udp URL (Part 14, 7.3.2.2, 7.3.2.3) and the settings' checks and defaults. */
class UdpSettingsTest {

    @Test
    void urls_parse_with_the_default_port_4840_and_ipv6_in_brackets() {
        assertThat(UdpAddress.parse("opc.udp://239.0.0.1")).isEqualTo(new UdpAddress("239.0.0.1", 4840));
        assertThat(UdpAddress.parse("OPC.UDP://Host.Example:4841/")).isEqualTo(new UdpAddress("host.example", 4841));
        assertThat(UdpAddress.parse("opc.udp://[ff02::1]:5000").host()).isEqualTo("ff02::1");
        assertThat(UdpAddress.parse("opc.udp://[ff02::1]:5000").url()).isEqualTo("opc.udp://[ff02::1]:5000");
        assertThat(UdpAddress.parse("opc.udp://localhost").url()).isEqualTo("opc.udp://localhost:4840");
        assertThat(UdpAddress.isUdpUrl("opcua/uadp/data/1/g")).isFalse();
    }

    @Test
    void malformed_urls_are_refused_naming_the_url() {
        for (String bad : new String[] {"udp://239.0.0.1:4840", "opc.udp://", "opc.udp://h:70000",
                "opc.udp://h:4840/path", "opc.udp://h:4840?q", "opc.udp://user@h:4840", "opc.udp://h:0"}) {
            assertThatThrownBy(() -> UdpAddress.parse(bad), bad).isInstanceOf(IllegalArgumentException.class);
        }
        assertThatThrownBy(() -> UdpAddress.parse("opc.udp://h:4840/x")).hasMessageContaining("opc.udp://h:4840/x");
    }

    @Test
    void defaults_and_bounds() {
        UdpSettings s = UdpSettings.builder("opc.udp://239.0.0.1:4840").build();
        assertThat(s.multicastTtl()).isEqualTo(1);
        assertThat(s.multicastLoopback()).isTrue();
        assertThat(s.maxDatagramSize()).isEqualTo(65_507);
        assertThat(s.receiveBufferSize()).isZero();
        assertThat(s.networkInterface()).isEmpty();
        assertThat(s.addressUrl()).isEqualTo("opc.udp://239.0.0.1:4840");
        UdpSettings.Builder b = UdpSettings.builder("opc.udp://localhost:4840");
        assertThatThrownBy(() -> b.maxDatagramSize(65_508)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.maxDatagramSize(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.multicastTtl(256)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> b.receiveBufferSize(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> UdpSettings.builder("mqtt://broker:1883")).isInstanceOf(IllegalArgumentException.class);
        assertThat(b.networkInterface(" lo ").maxDatagramSize(UdpSettings.MTU_PAYLOAD_IPV4).build().toString())
                .contains("opc.udp://localhost:4840", "on lo", "max datagram 1472");
    }
}
