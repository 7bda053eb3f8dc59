package dev.opcua.stack.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.testing.TestSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * One session floods a server that has one worker and room for two queued requests: the requests
 * that do not fit are refused with BadServerTooBusy at once, while another session's CloseSession,
 * served by the priority lane, still succeeds (DESIGN.md section 3).
 */
class OpcUaServerFloodIT {

    @Test
    void a_flood_gets_BadServerTooBusy_while_another_sessions_CloseSession_succeeds() throws Exception {
        InMemoryNodeManager plant = InMemoryNodeManager.builder("urn:test:flood")
                .variable("Slow", BuiltinType.Double, v -> v.valueSupplier(() -> {
                    try {
                        Thread.sleep(50); // a slow device: keeps the only worker busy
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    return Variant.ofDouble(1.0);
                }))
                .build();
        try (OpcUaServer server = OpcUaServer.builder().bindAddress("127.0.0.1").port(0)
                .hostnames(List.of("127.0.0.1")).requests(1, 1, 2).nodeManager(plant).build().start();
                ClientResources resources = ClientResources.create()) {
            UaTcpClientChannel flooder = UaTcpClientChannel.connect(server.endpointUrl(), TransportQuotas.DEFAULT,
                    resources).get(10, TimeUnit.SECONDS);
            UaTcpClientChannel other = UaTcpClientChannel.connect(server.endpointUrl(), TransportQuotas.DEFAULT,
                    resources).get(10, TimeUnit.SECONDS);
            NodeId flooding = TestSessions.open(flooder, server.endpointUrl());
            NodeId closing = TestSessions.open(other, server.endpointUrl());
            NodeId slow = plant.nodeId("Slow");

            List<CompletableFuture<ReadResponse>> flood = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                flood.add(flooder.request(new ReadRequest(TestSessions.header(flooding), 0, TimestampsToReturn.Both,
                        new ReadValueId[] {new ReadValueId(slow, AttributeIds.Value, null, QualifiedName.NULL)}),
                        ReadResponse.class));
            }
            CloseSessionResponse closed = other.request(new CloseSessionRequest(TestSessions.header(closing), true),
                    CloseSessionResponse.class).get(10, TimeUnit.SECONDS);
            assertThat(closed.responseHeader().serviceResult().isGood()).isTrue();
            long stillQueued = flood.stream().filter(f -> !f.isDone()).count();

            int tooBusy = 0;
            int served = 0;
            for (CompletableFuture<ReadResponse> f : flood) {
                try {
                    f.join();
                    served++;
                } catch (CompletionException e) {
                    assertThat(e.getCause()).isInstanceOf(UaException.class);
                    assertThat(((UaException) e.getCause()).statusCode().value()).isEqualTo(StatusCodes.BadServerTooBusy);
                    tooBusy++;
                }
            }
            assertThat(tooBusy).isGreaterThanOrEqualTo(10);
            assertThat(served).isBetween(1, 10);
            assertThat(stillQueued).as("the CloseSession did not wait for the flood to drain").isPositive();
            assertThat(server.statistics().currentSessions()).isEqualTo(1);
            flooder.close().get(10, TimeUnit.SECONDS);
            other.close().get(10, TimeUnit.SECONDS);
        }
    }
}
