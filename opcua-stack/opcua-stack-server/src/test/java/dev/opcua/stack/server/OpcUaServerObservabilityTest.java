package dev.opcua.stack.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.services.ServiceObserver;
import dev.opcua.stack.server.testing.TestSessions;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** What the server tells its observers: service calls with their status, transport counts, state, endpoints. */
class OpcUaServerObservabilityTest {

    /** How long a report may follow its response, and how often the test looks. */
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(10);

    private static final String NS = "urn:test:observed";

    record Seen(String service, long channelId, long status, Throwable failure, String scopeThread) {
    }

    @Test
    void reports_each_service_call_with_its_name_channel_and_status_and_counts_bytes_and_channels()
            throws Exception {
        Queue<Seen> seen = new ConcurrentLinkedQueue<>();
        ServiceObserver observer = (service, channelId) -> new ServiceObserver.Call() {
            private volatile String scopeThread;

            @Override
            public ServiceObserver.Scope openScope() {
                scopeThread = Thread.currentThread().getName();
                return () -> { };
            }

            @Override
            public void finished(long statusCode, Throwable failure) {
                seen.add(new Seen(service, channelId, statusCode, failure, scopeThread));
            }
        };
        InMemoryNodeManager plant = InMemoryNodeManager.builder(NS)
                .variable("Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(1.5)))
                .build();
        OpcUaServer server = OpcUaServer.builder()
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("127.0.0.1"))
                .requestPool(new RequestPoolSettings(1, 2, 7, 3, Duration.ofSeconds(30), Duration.ofMinutes(1),
                        false, Duration.ofSeconds(1)))
                .serviceObserver(observer)
                .nodeManager(plant)
                .build();
        assertThat(server.isRunning()).isFalse();
        assertThat(server.lifecycle()).isEqualTo(OpcUaServer.Lifecycle.NOT_STARTED);
        assertThat(server.endpoints()).isEmpty();
        assertThat(server.statistics().transport()).isNull();
        server.start();
        try (ClientResources resources = ClientResources.create()) {
            assertThat(server.isRunning()).isTrue();
            assertThat(server.lifecycle()).isEqualTo(OpcUaServer.Lifecycle.RUNNING);
            assertThat(server.endpoints()).hasSize(1);
            assertThat(server.endpoints().get(0).endpointUrl()).isEqualTo(server.endpointUrl());
            assertThat(server.applicationCertificate()).isNull();
            assertThat(server.statistics().requests().queueCapacity()).isEqualTo(7);

            UaTcpClientChannel client = UaTcpClientChannel.connect(server.endpointUrl(), TransportQuotas.DEFAULT,
                    resources).get(10, TimeUnit.SECONDS);
            NodeId token = TestSessions.open(client, server.endpointUrl());
            ReadValueId speed = new ReadValueId(plant.nodeId("Speed"), AttributeIds.Value, null, QualifiedName.NULL);
            client.request(new ReadRequest(TestSessions.header(token), 0, TimestampsToReturn.Both,
                    new ReadValueId[] {speed}), ReadResponse.class).join();
            RequestHeader noSession = TestSessions.header(NodeId.NULL);
            CompletionException refused = org.assertj.core.api.Assertions.catchThrowableOfType(CompletionException.class,
                    () -> client.request(new ReadRequest(noSession, 0, TimestampsToReturn.Both,
                            new ReadValueId[] {speed}), ReadResponse.class).join());
            assertThat(refused.getCause()).isInstanceOf(UaException.class);

            await().atMost(WAIT).pollInterval(POLL).until(() -> seen.size() >= 4);
            // A call is reported once its response is sent, so a worker may report it after the client's
            // next call was reported on another thread: the order of the calls is the order of the services
            // here (sort is stable; the two Reads ran one after the other on the same I/O thread).
            List<String> order = List.of("CreateSession", "ActivateSession", "Read");
            List<Seen> calls = seen.stream().sorted(Comparator.comparingInt(c -> order.indexOf(c.service()))).toList();
            assertThat(calls).extracting(Seen::service)
                    .containsExactly("CreateSession", "ActivateSession", "Read", "Read");
            assertThat(calls).extracting(Seen::channelId).containsOnly(client.secureChannelId());
            assertThat(calls.get(2).status()).isEqualTo(StatusCodes.Good);
            assertThat(calls.get(3).status()).isEqualTo(StatusCodes.BadSessionIdInvalid & 0xFFFF_FFFFL);
            assertThat(calls.get(3).failure()).isInstanceOf(UaException.class);
            // The scope is current on the thread that runs the call: a worker for the session services, the
            // I/O thread for the Reads, which run inline (nothing waits, the plant holds stored values only)
            assertThat(calls).extracting(Seen::scopeThread).satisfiesExactly(
                    name -> assertThat(name).startsWith("opcua-worker"),
                    name -> assertThat(name).startsWith("opcua-worker"),
                    name -> assertThat(name).startsWith("opcua-server-io"),
                    name -> assertThat(name).startsWith("opcua-server-io"));

            assertThat(server.statistics().sessions()).singleElement().satisfies(session -> {
                assertThat(session.security()).isEqualTo(dev.opcua.stack.core.security.EndpointSecurity.NONE);
                assertThat(session.lastRequestAt()).isAfterOrEqualTo(session.createdAt());
            });
            assertThat(server.statistics().transport().secureChannels()).isEqualTo(1);
            assertThat(server.statistics().transport().bytesReceived()).isGreaterThan(100);
            assertThat(server.statistics().transport().bytesSent()).isGreaterThan(100);
            client.close().get(10, TimeUnit.SECONDS);
            await().atMost(WAIT).pollInterval(POLL).until(() -> server.statistics().transport().secureChannels() == 0);
        } finally {
            server.close();
        }
        assertThat(server.isRunning()).isFalse();
        assertThat(server.lifecycle()).isEqualTo(OpcUaServer.Lifecycle.STOPPED);
    }
}
