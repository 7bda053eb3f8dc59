package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.server.OpcUaServer;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class PartnerMonitorSettingsTest {

    @Test
    void an_interval_or_timeout_out_of_range_is_refused_naming_the_setting() {
        assertThatThrownBy(() -> new PartnerMonitorSettings(true, Duration.ofMillis(10), Duration.ofSeconds(5)))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("partnerMonitor.interval")
                .hasMessageContaining("100 ms to 1 h");
        assertThatThrownBy(() -> new PartnerMonitorSettings(true, Duration.ofSeconds(1), Duration.ofMinutes(5)))
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("partnerMonitor.requestTimeout");
    }

    @Test
    void a_partner_endpoint_that_is_this_servers_own_is_refused() {
        for (String self : List.of("opc.tcp://localhost:4841", "opc.tcp://127.0.0.1:4841/path", "opc.tcp://line1-a:4841")) {
            assertThat(SelfPartnerCheck.selfReason(self, 4841, "0.0.0.0", List.of("line1-a")))
                    .as(self).contains("this server's own");
        }
        assertThatThrownBy(() -> OpcUaServer.builder().applicationUri("urn:line1:a").port(4841)
                .hostnames(List.of("line1-a"))
                .redundancy(RedundancySettings.of(RedundancyMode.Hot,
                        new RedundancyPartner("urn:line1:b", "opc.tcp://line1-a:4841")))
                .build())
                .isInstanceOf(InvalidSettingException.class).hasMessageContaining("redundancySettings.partners")
                .hasMessageContaining("opc.tcp://line1-a:4841").hasMessageContaining("configured with itself");
    }

    @Test
    void another_port_another_host_or_a_free_port_is_a_partner() {
        assertThat(SelfPartnerCheck.selfReason("opc.tcp://localhost:4842", 4841, "0.0.0.0", List.of("localhost")))
                .isNull();
        assertThat(SelfPartnerCheck.selfReason("opc.tcp://line1-b:4841", 4841, "0.0.0.0", List.of("line1-a")))
                .isNull();
        assertThat(SelfPartnerCheck.selfReason("opc.tcp://localhost:4841", 4841, "10.0.0.5", List.of("line1-a")))
                .as("bound to another address: localhost is not this server").isNull();
        assertThat(SelfPartnerCheck.selfReason("opc.tcp://localhost:4841", 0, "0.0.0.0", List.of("localhost")))
                .isNull();
        assertThat(SelfPartnerCheck.selfReason("opc.tcp://localhost", 4841, "0.0.0.0", List.of("localhost")))
                .as("4840 when the URL has no port").isNull();
    }
}
