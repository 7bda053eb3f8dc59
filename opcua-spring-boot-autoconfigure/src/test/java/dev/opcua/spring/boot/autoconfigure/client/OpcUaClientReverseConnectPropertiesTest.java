package dev.opcua.spring.boot.autoconfigure.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.diagnostics.StartupFailures;
import dev.opcua.spring.boot.client.OpcUaReverseConnectListeners;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.ReverseConnectListener;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.config.TransportQuotas;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code opcua.client.connections.<name>.reverse-connect.*}: the listeners the starter opens for them, one per
 * port, and the start-up report of each value it cannot use.
 */
class OpcUaClientReverseConnectPropertiesTest {

    private static final String PLC = "opcua.client.connections.plc.";
    private static final String LINE2 = "opcua.client.connections.line2.";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class))
            .withPropertyValues(PLC + "endpoint-url=opc.tcp://127.0.0.1:4840/", PLC + "connect-on-start=false",
                    PLC + "reverse-connect.listen-address=127.0.0.1");

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private void assertReport(Consumer<FailureAnalysis> analysis, String... properties) {
        contextRunner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis result = StartupFailures.analyze(context.getStartupFailure());
            assertThat(result).as("analysis of %s", context.getStartupFailure()).isNotNull();
            assertThat(result.getDescription()).startsWith("The OPC UA client connection '");
            analysis.accept(result);
        });
    }

    @Test
    void without_reverse_connect_no_listener_is_opened_and_the_client_dials() {
        contextRunner.run(context -> {
            assertThat(context.getBean(OpcUaReverseConnectListeners.class).isEmpty()).isTrue();
            assertThat(context.getBean(OpcUaClient.class).config().reverseConnectListener()).isNull();
        });
    }

    @Test
    void the_client_event_loops_are_asked_for_only_when_a_connection_listens() throws IOException {
        AtomicInteger asked = new AtomicInteger();
        Supplier<ClientResources> resources = () -> {
            asked.incrementAndGet();
            return ClientResources.shared();
        };
        OpcUaClientProperties properties = new OpcUaClientProperties();
        OpcUaClientProperties.Connection plc = new OpcUaClientProperties.Connection();
        plc.setEndpointUrl("opc.tcp://127.0.0.1:4840/");
        properties.getConnections().put("plc", plc);

        assertThat(ReverseConnectListenersFactory.open(properties, resources)).isSameAs(OpcUaReverseConnectListeners.NONE);
        assertThat(asked).hasValue(0);

        plc.getReverseConnect().setListenAddress("127.0.0.1");
        plc.getReverseConnect().setListenPort(freePort());
        plc.getReverseConnect().setServerUri("urn:acme:plc1");
        try (OpcUaReverseConnectListeners listeners = ReverseConnectListenersFactory.open(properties, resources)) {
            assertThat(listeners.forConnection("plc")).isPresent();
            assertThat(asked).hasValue(1);
        }
    }

    @Test
    void a_listen_port_makes_the_client_wait_on_a_listener_of_that_port_for_the_server_uri() throws IOException {
        int port = freePort();
        contextRunner.withPropertyValues(PLC + "reverse-connect.listen-port=" + port,
                PLC + "reverse-connect.server-uri=urn:acme:plc1", PLC + "reverse-connect.hello-timeout=3s")
                .run(context -> {
                    ReverseConnectListener listener = context.getBean(OpcUaReverseConnectListeners.class)
                            .forConnection("plc").orElseThrow();
                    assertThat(listener.port()).isEqualTo(port);
                    OpcUaClient client = context.getBean(OpcUaClient.class);
                    assertThat(client.config().reverseConnectListener()).isSameAs(listener);
                    assertThat(client.config().reverseConnectServerUri()).isEqualTo("urn:acme:plc1");
                });
    }

    @Test
    void connections_on_one_port_share_its_listener_which_is_closed_after_the_clients() throws IOException {
        int port = freePort();
        contextRunner.withPropertyValues(PLC + "reverse-connect.listen-port=" + port,
                PLC + "reverse-connect.server-uri=urn:acme:plc1",
                LINE2 + "endpoint-url=opc.tcp://127.0.0.1:4841/", LINE2 + "connect-on-start=false",
                LINE2 + "reverse-connect.listen-port=" + port, LINE2 + "reverse-connect.listen-address=127.0.0.1",
                LINE2 + "reverse-connect.server-uri=urn:acme:line2").run(context -> {
                    OpcUaReverseConnectListeners listeners = context.getBean(OpcUaReverseConnectListeners.class);
                    assertThat(listeners.listeners()).hasSize(1);
                    ReverseConnectListener shared = listeners.forConnection("plc").orElseThrow();
                    assertThat(listeners.listeners().get(shared)).containsExactly("plc", "line2");
                    assertThat(context.getBean("line2OpcUaClient", OpcUaClient.class).config()
                            .reverseConnectListener()).isSameAs(shared);
                    context.close();
                    assertThat(listeners.listeners()).isNotEmpty();
                    // closed with the context: nothing can wait on it any more
                    assertThat(shared.accept("urn:acme:plc1", null, TransportQuotas.DEFAULT,
                            ClientChannelSecurity.NONE)).isCompletedExceptionally();
                });
    }

    @Test
    void a_listen_port_without_server_uri_fails_start_up_naming_server_uri() throws IOException {
        int port = freePort();
        assertReport(analysis -> assertThat(analysis.getDescription())
                .contains("Property: " + PLC + "reverse-connect.server-uri").contains("it is not set")
                .contains("reverse-connect.listen-port is " + port), PLC + "reverse-connect.listen-port=" + port);
    }

    @Test
    void a_server_uri_without_listen_port_fails_start_up_naming_listen_port() {
        assertReport(analysis -> assertThat(analysis.getDescription())
                .contains("Property: " + PLC + "reverse-connect.listen-port")
                .contains("reverse-connect.server-uri is set"),
                PLC + "reverse-connect.server-uri=urn:acme:plc1");
    }

    @Test
    void a_port_in_use_fails_start_up_naming_listen_port() throws IOException {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            assertReport(analysis -> assertThat(analysis.getDescription())
                    .contains("Property: " + PLC + "reverse-connect.listen-port")
                    .contains("cannot listen on 127.0.0.1:" + taken.getLocalPort()),
                    PLC + "reverse-connect.listen-port=" + taken.getLocalPort(),
                    PLC + "reverse-connect.server-uri=urn:acme:plc1");
        }
    }

    @Test
    void connections_on_one_port_at_different_addresses_fail_start_up_naming_the_second() throws IOException {
        int port = freePort();
        assertReport(analysis -> assertThat(analysis.getDescription())
                .contains("Property: " + LINE2 + "reverse-connect.listen-address")
                .contains("connection 'plc' listens on port " + port + " already"),
                PLC + "reverse-connect.listen-port=" + port, PLC + "reverse-connect.server-uri=urn:acme:plc1",
                LINE2 + "endpoint-url=opc.tcp://127.0.0.1:4841/", LINE2 + "connect-on-start=false",
                LINE2 + "reverse-connect.listen-port=" + port, LINE2 + "reverse-connect.listen-address=0.0.0.0",
                LINE2 + "reverse-connect.server-uri=urn:acme:line2");
    }

    @Test
    void a_listen_port_out_of_range_is_refused_when_bound() {
        assertThat(Duration.ofSeconds(10)).isEqualTo(ReverseConnectListener.DEFAULT_HELLO_TIMEOUT);
        contextRunner.withPropertyValues(PLC + "reverse-connect.listen-port=65536",
                PLC + "reverse-connect.server-uri=urn:acme:plc1").run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis result = StartupFailures.analyze(context.getStartupFailure());
                    assertThat(result).as("analysis of %s", context.getStartupFailure()).isNotNull();
                    assertThat(result.getDescription()).contains(PLC + "reverse-connect.listen-port")
                            .contains("65536");
                });
    }
}
