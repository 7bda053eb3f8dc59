package dev.opcua.spring.boot.test.autoconfigure;

import static dev.opcua.spring.boot.test.assertj.OpcUaAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.server.OpcUaServerStartedEvent;
import dev.opcua.spring.boot.test.client.OpcUaTestClient;
import dev.opcua.spring.boot.test.server.LocalOpcUaServerPort;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.OpcUaServer;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;

/**
 * {@link OpcUaServerTest}: the application starts with its server on a free port, the test gets the port and an
 * anonymous test client connected to it; Eclipse Milo 1.1.2's client finds the server at the endpoint URL published
 * in the environment.
 */
@OpcUaServerTest(classes = {TestLine.class, OpcUaServerTestIT.StartedEvents.class})
class OpcUaServerTestIT {

    @LocalOpcUaServerPort
    int port;

    @Value("${local.opcua.server.endpoint-url}")
    String endpointUrl;

    @Autowired
    OpcUaTestClient opcua;

    @Autowired
    OpcUaServer server;

    @Autowired
    StartedEvents events;

    @Test
    void the_server_listens_on_the_free_port_injected_with_local_opcua_server_port() {
        assertThat(port).isPositive().isNotEqualTo(4840).isEqualTo(server.port());
        assertThat(events.received).singleElement().extracting(OpcUaServerStartedEvent::getPort).isEqualTo(port);
        assertThat(opcua.endpointUrl()).isEqualTo("opc.tcp://localhost:" + port + "/").isEqualTo(endpointUrl);
    }

    @Test
    void the_test_client_reads_and_browses_the_application_nodes_anonymously() {
        assertThat(opcua.readValue(TestLine.SPEED)).isGood().hasValue(240.0).hasSourceTimestamp();
        assertThat(opcua.browse("i=85")).isGood().containsBrowseNames("Server", "Line");
        assertThat(opcua.writeValue(TestLine.SPEED, 1.0)).is(StatusCodes.BadUserAccessDenied);
        assertThat(opcua.readValue("nsu=" + TestLine.NAMESPACE + ";s=Line.Missing")).hasStatus(StatusCodes.BadNodeIdUnknown);
    }

    @Test
    void eclipse_milo_reads_the_line_at_the_endpoint_url_published_in_the_environment() throws Exception {
        org.eclipse.milo.opcua.sdk.client.OpcUaClient milo = org.eclipse.milo.opcua.sdk.client.OpcUaClient.create(
                endpointUrl, endpoints -> endpoints.stream()
                        .filter(e -> SecurityPolicy.None.getUri().equals(e.getSecurityPolicyUri())).findFirst(),
                transport -> { }, config -> { });
        try {
            milo.connect();
            int ns = milo.getNamespaceTable().getIndex(TestLine.NAMESPACE).intValue();
            DataValue speed = milo.readValue(0, TimestampsToReturn.Both, new NodeId(ns, "Line.Speed"));
            assertThat(speed.getStatusCode().isGood()).isTrue();
            assertThat(speed.getValue().getValue()).isEqualTo(240.0);
        } finally {
            milo.disconnect();
        }
    }

    /** Records the started events the server publishes. */
    @TestConfiguration(proxyBeanMethods = false)
    static class StartedEvents {

        final List<OpcUaServerStartedEvent> received = new CopyOnWriteArrayList<>();

        @Bean
        ApplicationListener<OpcUaServerStartedEvent> recordStarted() {
            return received::add;
        }
    }
}
