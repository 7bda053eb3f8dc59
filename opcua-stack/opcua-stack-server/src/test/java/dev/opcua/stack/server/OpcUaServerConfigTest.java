package dev.opcua.stack.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.session.SessionSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link OpcUaServer.Builder#build()} freezes the builder's settings into the server's {@link OpcUaServerConfig}. */
class OpcUaServerConfigTest {

    private static final String NS = "urn:test:config";

    @Test
    void an_untouched_builder_gives_the_documented_defaults() {
        OpcUaServerConfig config = OpcUaServer.builder().build().config();

        assertThat(config.applicationUri()).isEqualTo("urn:dev.opcua:server");
        assertThat(config.port()).isEqualTo(4840);
        assertThat(config.path()).isEqualTo("/");
        assertThat(config.hostnames()).containsExactly("localhost");
        assertThat(config.transportQuotas()).isEqualTo(TransportQuotas.DEFAULT);
        assertThat(config.requestPool()).isEqualTo(RequestPoolSettings.DEFAULT);
        assertThat(config.operationLimits()).isEqualTo(OperationLimits.NONE);
        assertThat(config.sessionSettings()).isEqualTo(SessionSettings.DEFAULT);
        assertThat(config.maxBrowseContinuationPoints()).isEqualTo(10);
        assertThat(config.readsPerTurn()).isEqualTo(1);
        assertThat(config.endpointSecurity()).containsExactly(EndpointSecurity.NONE);
        assertThat(config.secured()).isFalse();
        assertThat(config.userTokenPolicies()).isNull();
        assertThat(config.userTokenTypes()).containsExactly(UserTokenType.Anonymous);
        assertThat(config.certificate()).isNull();
        assertThat(config.historyStore()).isNull();
        assertThat(config.nodeManagers()).isEmpty();
    }

    @Test
    void settings_changed_on_the_builder_after_build_do_not_reach_the_built_server() {
        InMemoryNodeManager plant = InMemoryNodeManager.builder(NS).build();
        OpcUaServer.Builder builder = OpcUaServer.builder().port(4841).applicationUri("urn:test:first")
                .browseLimits(5, 3).nodeManager(plant).defaultPermissions(NS, NodePermissions.builder().build());
        OpcUaServer server = builder.build();

        builder.port(4842).applicationUri("urn:test:second").browseLimits(6, 4)
                .nodeManager(InMemoryNodeManager.builder("urn:test:other").build())
                .defaultPermissions("urn:test:other", NodePermissions.builder().build());

        OpcUaServerConfig config = server.config();
        assertThat(config.port()).isEqualTo(4841);
        assertThat(config.applicationUri()).isEqualTo("urn:test:first");
        assertThat(server.namespaces().uri(1)).isEqualTo("urn:test:first");
        assertThat(config.operationLimits().maxNodesPerBrowse()).isEqualTo(5);
        assertThat(config.maxBrowseContinuationPoints()).isEqualTo(3);
        assertThat(config.nodeManagers()).containsExactly(plant);
        assertThat(config.defaultPermissions()).containsOnlyKeys(NS);
    }

    @Test
    void the_lists_of_a_config_cannot_be_changed() {
        OpcUaServerConfig config = OpcUaServer.builder()
                .nodeManager(InMemoryNodeManager.builder(NS).build()).build().config();

        assertThatThrownBy(() -> config.nodeManagers().clear()).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> config.defaultPermissions().clear())
                .isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> config.hostnames().add("other")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void default_permissions_of_a_namespace_without_node_manager_stop_the_build_naming_the_namespace() {
        assertThatThrownBy(() -> OpcUaServer.builder()
                .defaultPermissions("urn:test:nobody", NodePermissions.builder().build()).build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("opcUaServer.defaultPermissions");
                    assertThat(e.value()).isEqualTo("urn:test:nobody");
                })
                .hasMessageContaining("must name a namespace a node manager owns");
    }

    @Test
    void a_secured_endpoint_without_certificate_stops_the_build() {
        assertThatThrownBy(() -> OpcUaServer.builder()
                .security(List.of(new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.Sign))).build())
                .isInstanceOfSatisfying(InvalidSettingException.class,
                        e -> assertThat(e.setting()).isEqualTo("opcUaServer.security"))
                .hasMessageContaining("needs an application certificate for policies other than None: configure"
                        + " certificate(...) or pki(...)");
    }
}
