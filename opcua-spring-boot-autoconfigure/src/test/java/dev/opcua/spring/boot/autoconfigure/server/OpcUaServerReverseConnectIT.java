package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.RequestHeaders;
import dev.opcua.stack.client.transport.ReverseConnectListener;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.server.OpcUaServer;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** {@code opcua.server.reverse-connect.*}: the auto-configured server dials a client's reverse-connect listener. */
class OpcUaServerReverseConnectIT {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.hostnames=127.0.0.1", "opcua.server.application-uri=urn:test:reverse:plant");

    @Test
    void the_server_dials_the_listed_client_and_serves_it_over_that_connection() throws Exception {
        try (ClientResources resources = ClientResources.create();
                ReverseConnectListener listener = ReverseConnectListener.listen("127.0.0.1", 0, resources)) {
            listener.expect("urn:test:reverse:plant", null); // held from the start, whenever accept asks
            contextRunner.withPropertyValues(
                    "opcua.server.reverse-connect.clients=opc.tcp://127.0.0.1:" + listener.port(),
                    "opcua.server.reverse-connect.retry-interval=200ms",
                    "opcua.server.reverse-connect.ready-connections=1").run(context -> {
                        OpcUaServer server = context.getBean(OpcUaServer.class);
                        UaTcpClientChannel channel = listener.accept("urn:test:reverse:plant", server.endpointUrl(),
                                TransportQuotas.DEFAULT, ClientChannelSecurity.NONE).get(20, TimeUnit.SECONDS);
                        try {
                            GetEndpointsResponse response = channel.request(new GetEndpointsRequest(
                                    RequestHeaders.create(5000), channel.endpointUrl(), new String[0], new String[0]),
                                    GetEndpointsResponse.class).get(20, TimeUnit.SECONDS);
                            assertThat(response.endpoints()).isNotEmpty();
                        } finally {
                            channel.close().get(20, TimeUnit.SECONDS);
                        }
                        assertThat(server.statistics().reverseConnect().taken()).isEqualTo(1);
                    });
        }
    }
}
