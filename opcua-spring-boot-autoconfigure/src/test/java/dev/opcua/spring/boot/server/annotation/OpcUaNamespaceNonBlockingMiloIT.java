package dev.opcua.spring.boot.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.testing.MiloClients;
import dev.opcua.stack.server.OpcUaServer;
import java.util.List;
import java.util.Map;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.junit.jupiter.api.Test;

/**
 * {@link OpcUaNamespace#nonBlocking()} seen from Eclipse Milo 1.1.2's client: Reads and Writes of a
 * non-blocking bean's members run on the server's I/O thread.
 */
class OpcUaNamespaceNonBlockingMiloIT {

    private static final String NS = "urn:test:annotations:nonblocking";

    @OpcUaNamespace(value = NS, name = "Tank", nonBlocking = true)
    static final class Tank {
        volatile String readBy;
        volatile String writtenBy;
        private volatile double level = 3.5;

        @UaVariable(access = UaAccess.READ_WRITE)
        public double getLevel() {
            readBy = Thread.currentThread().getName();
            return level;
        }

        public void setLevel(double value) {
            writtenBy = Thread.currentThread().getName();
            level = value;
        }
    }

    @Test
    void milo_reads_and_writes_a_non_blocking_beans_members_on_the_io_thread() throws Exception {
        Tank tank = new Tank();
        OpcUaServer.Builder builder = OpcUaServer.builder()
                .applicationUri("urn:test:annotations:nonblocking:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"));
        OpcUaAnnotatedNodeManagers.of(Map.of("tank", tank)).registerWith(builder);
        OpcUaServer server = builder.build().start();
        OpcUaClient client = null;
        try {
            client = MiloClients.anonymousOverNone(server.endpointUrl());
            NodeId level = new NodeId(server.namespaces().indexOf(NS), "Tank.Level");

            DataValue read = client.readValue(0, TimestampsToReturn.Both, level);
            StatusCode written = client.writeValues(List.of(level), List.of(new DataValue(new Variant(4.25)))).get(0);

            assertThat(read.getValue().getValue()).isEqualTo(3.5);
            assertThat(written.isGood()).isTrue();
            assertThat(tank.readBy).startsWith("opcua-server-io-");
            assertThat(tank.writtenBy).startsWith("opcua-server-io-");
            assertThat(server.statistics().requests().ranInline()).isGreaterThanOrEqualTo(2);
        } finally {
            if (client != null) {
                client.disconnect();
            }
            server.close();
        }
    }
}
