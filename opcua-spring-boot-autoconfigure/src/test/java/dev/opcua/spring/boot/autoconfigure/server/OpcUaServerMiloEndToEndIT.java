package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.testing.MiloClients;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.Session;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The auto-configured server on port 0 serves a node manager bean to Eclipse Milo 1.1.2's client,
 * anonymously and for a user of {@code opcua.server.identity.users} with a bcrypt password (sent
 * encrypted with the certificate the PKI directory created, over the None endpoint).
 */
class OpcUaServerMiloEndToEndIT {

    private static final String NS = "urn:test:e2e:line1";

    @TempDir
    static Path pkiDir;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class))
            .withUserConfiguration(Line.class)
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=urn:test:e2e:server",
                    "opcua.server.security.policies=None,Basic256Sha256",
                    "opcua.server.security.pki-dir=" + pkiDir,
                    "opcua.server.identity.users[0].username=operator",
                    "opcua.server.identity.users[0].password={bcrypt}"
                            + OpenBSDBCrypt.generate("2a", "secret".getBytes(StandardCharsets.UTF_8), new byte[16], 4));

    @Configuration(proxyBeanMethods = false)
    static class Line {

        @Bean
        InMemoryNodeManager line() {
            return InMemoryNodeManager.builder(NS).folder("Line1")
                    .variable("Line1.Speed", BuiltinType.Double,
                            v -> v.value(dev.opcua.stack.core.types.builtin.Variant.ofDouble(42.5)))
                    .build();
        }
    }

    @Test
    void milo_reads_a_value_of_a_node_manager_bean_anonymously() {
        contextRunner.run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            assertThat(readSpeed(server, new AnonymousProvider())).isEqualTo(42.5);
        });
    }

    @Test
    void milo_reads_a_value_as_a_configured_user_with_a_bcrypt_password() {
        contextRunner.run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            assertThat(readSpeed(server, new UsernameProvider("operator", "secret"))).isEqualTo(42.5);
        });
    }

    private static Object readSpeed(OpcUaServer server, IdentityProvider identity) throws Exception {
        OpcUaClient client = MiloClients.overNone(server.endpointUrl(), identity);
        try {
            if (identity instanceof UsernameProvider) {
                assertThat(server.statistics().sessions()).extracting(Session::identity)
                        .contains(Identity.user("operator"));
            }
            int ns = server.namespaces().indexOf(NS);
            DataValue value = client.readValue(0, TimestampsToReturn.Both, new NodeId(ns, "Line1.Speed"));
            assertThat(value.getStatusCode().isGood()).as("status %s", value.getStatusCode()).isTrue();
            return value.getValue().getValue();
        } finally {
            client.disconnect();
        }
    }
}
