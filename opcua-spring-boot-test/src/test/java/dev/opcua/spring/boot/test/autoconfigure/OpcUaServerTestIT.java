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
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;

/**
 * {@link OpcUaServerTest}: the application starts with its server on a free port, the test gets the port and an
 * anonymous test client connected to it.
 */
@OpcUaServerTest(classes = {TestLine.class, OpcUaServerTestIT.StartedEvents.class})
class OpcUaServerTestIT {

    @LocalOpcUaServerPort
    int port;

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
        assertThat(opcua.endpointUrl()).isEqualTo("opc.tcp://localhost:" + port + "/");
    }

    @Test
    void the_test_client_reads_and_browses_the_application_nodes_anonymously() {
        assertThat(opcua.readValue(TestLine.SPEED)).isGood().hasValue(240.0).hasSourceTimestamp();
        assertThat(opcua.browse("i=85")).isGood().containsBrowseNames("Server", "Line");
        assertThat(opcua.writeValue(TestLine.SPEED, 1.0)).is(StatusCodes.BadUserAccessDenied);
        assertThat(opcua.readValue("nsu=" + TestLine.NAMESPACE + ";s=Line.Missing")).hasStatus(StatusCodes.BadNodeIdUnknown);
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
