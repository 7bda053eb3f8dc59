package dev.opcua.stack.server.redundancy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.server.OpcUaServer;
import java.util.List;
import org.junit.jupiter.api.Test;

class RedundancySettingsTest {

    private static final RedundancyPartner B = new RedundancyPartner("urn:plant:b", "opc.tcp://host-b:4842");

    @Test
    void a_hot_pair_lists_this_server_first_then_the_partner() {
        RedundancySettings settings = RedundancySettings.of(RedundancyMode.Hot, B).forServer("urn:plant:a");
        assertThat(settings.serverUri()).isEqualTo("urn:plant:a");
        assertThat(settings.serverUris("urn:plant:a")).containsExactly("urn:plant:a", "urn:plant:b");
        assertThat(settings.mode().redundancySupport().value()).isEqualTo(3);
    }

    @Test
    void a_redundant_mode_without_partners_is_refused() {
        assertThatThrownBy(() -> RedundancySettings.of(RedundancyMode.Warm))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("redundancySettings.partners")
                .hasMessageContaining("at least one partner");
    }

    @Test
    void none_with_partners_is_refused() {
        assertThatThrownBy(() -> RedundancySettings.of(RedundancyMode.None, B))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("must be empty when the mode is None");
    }

    @Test
    void hot_and_mirrored_is_a_redundant_mode_with_partners() {
        assertThat(RedundancySettings.of(RedundancyMode.HotAndMirrored, B).mode())
                .isEqualTo(RedundancyMode.HotAndMirrored);
        assertThatThrownBy(() -> RedundancySettings.of(RedundancyMode.HotAndMirrored))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("at least one partner");
    }

    @Test
    void duplicate_partners_are_refused_by_server_uri_and_by_endpoint() {
        assertThatThrownBy(() -> RedundancySettings.of(RedundancyMode.Hot, B,
                new RedundancyPartner("urn:plant:b", "opc.tcp://other:4842")))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("urn:plant:b is listed twice");
        assertThatThrownBy(() -> RedundancySettings.of(RedundancyMode.Hot, B,
                new RedundancyPartner("urn:plant:c", "opc.tcp://host-b:4842")))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("opc.tcp://host-b:4842 is listed twice");
    }

    @Test
    void a_partner_needs_a_server_uri_and_an_opc_endpoint_url() {
        assertThatThrownBy(() -> new RedundancyPartner(" ", "opc.tcp://b:4842"))
                .isInstanceOf(InvalidSettingException.class)
                .extracting(e -> ((InvalidSettingException) e).setting()).isEqualTo("redundancyPartner.serverUri");
        assertThatThrownBy(() -> new RedundancyPartner("urn:b", "http://b:4842"))
                .isInstanceOf(InvalidSettingException.class)
                .extracting(e -> ((InvalidSettingException) e).setting()).isEqualTo("redundancyPartner.endpointUrl");
        assertThatThrownBy(() -> new RedundancyPartner("urn:b", null))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("urn:b");
    }

    @Test
    void a_pair_configured_with_itself_is_refused_when_the_server_is_built() {
        OpcUaServer.Builder builder = OpcUaServer.builder().applicationUri("urn:plant:b").port(0)
                .redundancy(RedundancySettings.of(RedundancyMode.Hot, B));
        assertThatThrownBy(builder::build)
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("urn:plant:b is this server's own ApplicationUri")
                .extracting(e -> ((InvalidSettingException) e).setting()).isEqualTo("redundancySettings.partners");
    }

    @Test
    void a_server_uri_other_than_the_application_uri_is_refused() {
        RedundancySettings settings = new RedundancySettings(RedundancyMode.Cold, "urn:plant:x", List.of(B));
        assertThatThrownBy(() -> settings.forServer("urn:plant:a"))
                .isInstanceOf(InvalidSettingException.class)
                .hasMessageContaining("must be this server's ApplicationUri urn:plant:a");
    }

    @Test
    void modes_parse_from_property_spellings() {
        assertThat(RedundancyMode.parse("hot")).isEqualTo(RedundancyMode.Hot);
        assertThat(RedundancyMode.parse("HOT_AND_MIRRORED")).isEqualTo(RedundancyMode.HotAndMirrored);
        assertThat(RedundancyMode.parse("hot-and-mirrored")).isEqualTo(RedundancyMode.HotAndMirrored);
        assertThatThrownBy(() -> RedundancyMode.parse("transparent")).hasMessageContaining("one of None, Cold");
    }
}
