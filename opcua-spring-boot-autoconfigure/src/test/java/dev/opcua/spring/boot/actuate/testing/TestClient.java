package dev.opcua.spring.boot.actuate.testing;

import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.session.SessionOptions;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.OpcUaServer;
import java.util.concurrent.TimeUnit;

/** Our stack's client with one anonymous session on a channel with SecurityPolicy None; closes all of it. */
public final class TestClient implements AutoCloseable {

    /** The client's applicationName, which the server lists with the session. */
    public static final String APPLICATION_NAME = "Actuator test client";
    public static final String APPLICATION_URI = "urn:test:actuate:client";
    public static final String SESSION_NAME = "actuator-test-session";

    private final ClientResources resources;
    private final UaTcpClientChannel channel;
    private final ClientSession session;

    private TestClient(ClientResources resources, UaTcpClientChannel channel, ClientSession session) {
        this.resources = resources;
        this.channel = channel;
        this.session = session;
    }

    /** Connects to the server and opens an activated anonymous session. */
    public static TestClient connect(OpcUaServer server) throws Exception {
        ClientResources resources = ClientResources.create();
        try {
            UaTcpClientChannel channel = UaTcpClientChannel.connect(server.endpointUrl(), TransportQuotas.DEFAULT,
                    resources).get(10, TimeUnit.SECONDS);
            ClientSession session = ClientSession.open(channel, SessionOptions.builder()
                    .applicationUri(APPLICATION_URI)
                    .applicationName(APPLICATION_NAME)
                    .sessionName(SESSION_NAME)
                    .build()).get(10, TimeUnit.SECONDS);
            return new TestClient(resources, channel, session);
        } catch (Exception | Error e) {
            resources.close();
            throw e;
        }
    }

    public ClientSession session() {
        return session;
    }

    public UaTcpClientChannel channel() {
        return channel;
    }

    /** Reads the Value attribute of a node. */
    public DataValue read(NodeId node) throws Exception {
        return session.read(new ReadValueId(node, AttributeIds.Value, null, QualifiedName.NULL))
                .get(10, TimeUnit.SECONDS)[0];
    }

    /** Closes the session, then the channel, then the client's threads. */
    @Override
    public void close() throws Exception {
        try {
            session.close().get(10, TimeUnit.SECONDS);
            channel.close().get(10, TimeUnit.SECONDS);
        } finally {
            resources.close();
        }
    }
}
