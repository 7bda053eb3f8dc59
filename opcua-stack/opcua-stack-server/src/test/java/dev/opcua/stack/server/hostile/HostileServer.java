package dev.opcua.stack.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.server.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.server.transport.uasc.TransportRejection;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.testing.TestSessions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.awaitility.Awaitility;

/**
 * An {@link OpcUaServer} on 127.0.0.1 and an ephemeral port with short transport timers, and a
 * well-behaved client (our own channel, an activated anonymous session) that proves the server still
 * serves others while a hostile peer misbehaves.
 */
final class HostileServer implements AutoCloseable {

    /** Timers short enough for the default build, long enough for a loaded 2-core machine. */
    static final TransportQuotas SHORT_TIMERS = TransportQuotas.builder()
            .helloTimeout(Duration.ofMillis(2_000))
            .messageReceiveTimeout(Duration.ofMillis(2_000))
            .writeStallTimeout(Duration.ofMillis(1_000))
            .build();

    private final OpcUaServer server;
    private final ClientResources resources = ClientResources.create();
    private UaTcpClientChannel good;
    private NodeId goodSession;

    private HostileServer(OpcUaServer server) {
        this.server = server;
    }

    /** A server with {@link #SHORT_TIMERS}, configured further by {@code config}. */
    static HostileServer start(Consumer<OpcUaServer.Builder> config) {
        OpcUaServer.Builder builder = OpcUaServer.builder().bindAddress("127.0.0.1").port(0)
                .hostnames(List.of("127.0.0.1")).transportQuotas(SHORT_TIMERS);
        config.accept(builder);
        return new HostileServer(builder.build().start());
    }

    OpcUaServer server() {
        return server;
    }

    int port() {
        return server.port();
    }

    String endpointUrl() {
        return server.endpointUrl();
    }

    ClientResources resources() {
        return resources;
    }

    ServerChannelCounters transport() {
        return server.statistics().transport();
    }

    long rejected(TransportRejection reason) {
        return server.statistics().transport().rejected(reason);
    }

    /** A new channel of our client with default quotas. */
    UaTcpClientChannel connect() throws Exception {
        return connect(TransportQuotas.DEFAULT);
    }

    UaTcpClientChannel connect(TransportQuotas quotas) throws Exception {
        return UaTcpClientChannel.connect(endpointUrl(), quotas, resources).get(10, TimeUnit.SECONDS);
    }

    /** Connects the well-behaved client and activates its session, so that it holds its resources first. */
    HostileServer withGoodClient() throws Exception {
        good = connect();
        goodSession = TestSessions.open(good, endpointUrl());
        return this;
    }

    /** The well-behaved client reads ServerStatus.State: the read succeeds with a Good value. */
    void assertGoodClientServed() throws Exception {
        if (good == null) {
            withGoodClient();
        }
        assertReadSucceeds(good, goodSession);
    }

    static void assertReadSucceeds(UaTcpClientChannel channel, NodeId session) throws Exception {
        ReadResponse response = read(channel, session, NodeId.ns0(NodeIds.Server_ServerStatus_State))
                .get(20, TimeUnit.SECONDS);
        DataValue value = response.results()[0];
        assertThat(value.statusCode().isGood()).as("the well-behaved client's Read: %s", value.statusCode()).isTrue();
    }

    /** Sends a Read of one node's Value in the session, without waiting for the answer. */
    static CompletableFuture<ReadResponse> read(UaTcpClientChannel channel, NodeId session, NodeId node) {
        return channel.request(new ReadRequest(TestSessions.header(session), 0, TimestampsToReturn.Neither,
                new ReadValueId[] {new ReadValueId(node, AttributeIds.Value, null, QualifiedName.NULL)}),
                ReadResponse.class);
    }

    /**
     * Waits up to 20 s for {@code condition}, looking every 20 ms; fails naming {@code what} when it does not
     * come. The hostile tests share this patience: a loaded machine may take seconds to close a flood's sockets.
     */
    static void await(String what, BooleanSupplier condition) {
        Awaitility.await(what).atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(20))
                .until(condition::getAsBoolean);
    }

    @Override
    public void close() throws Exception {
        try {
            if (good != null) {
                good.close().get(10, TimeUnit.SECONDS);
            }
        } finally {
            server.close();
            resources.close();
        }
    }
}
