package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.redundancy.RedundancyMode;
import dev.opcua.stack.server.redundancy.RedundancyPartner;
import dev.opcua.stack.server.redundancy.RedundancySettings;
import dev.opcua.stack.server.testing.MiloClients;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UByte;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.enumerated.ServerState;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.RedundantServerDataType;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client, an independent peer, reads a Hot server's redundancy nodes by NodeId (Part 5,
 * 6.3.7 and 6.3.9) and sees ServiceLevel (Part 4, 6.6.2.4.2) change in a subscription when the operator's
 * override degrades the server and when it is cleared, which is what a failing-over client watches.
 */
class RedundancyMiloInteropIT {

    private static final String A = "urn:test:redundancy:milo:a";
    private static final String B = "urn:test:redundancy:milo:b";
    // i=3709 RedundancySupport, i=11314 ServerUriArray, i=11313 RedundantServerArray, i=2267 ServiceLevel
    private static final NodeId REDUNDANCY_SUPPORT = new NodeId(0, 3709);
    private static final NodeId SERVER_URI_ARRAY = new NodeId(0, 11314);
    private static final NodeId REDUNDANT_SERVER_ARRAY = new NodeId(0, 11313);
    private static final NodeId SERVICE_LEVEL = new NodeId(0, 2267);

    private static OpcUaServer server;
    private static OpcUaClient client;

    @BeforeAll
    static void start() throws Exception {
        server = OpcUaServer.builder().applicationUri(A).bindAddress("127.0.0.1").port(0)
                .hostnames(List.of("localhost"))
                .redundancy(RedundancySettings.of(RedundancyMode.Hot, new RedundancyPartner(B, "opc.tcp://localhost:4842")))
                .build().start();
        client = MiloClients.anonymousOverNone(server.endpointUrl());
    }

    @AfterAll
    static void stop() throws Exception {
        MiloClients.disconnectAndClose(client, server);
    }

    private static Object read(NodeId node) throws Exception {
        DataValue value = client.readValue(0, TimestampsToReturn.Both, node);
        assertThat(value.getStatusCode().isGood()).as("%s: %s", node, value.getStatusCode()).isTrue();
        return value.getValue().getValue();
    }

    @Test
    void milo_reads_redundancy_support_server_uri_array_and_redundant_server_array() throws Exception {
        assertThat(read(REDUNDANCY_SUPPORT)).isEqualTo(3); // HOT_3, an Int32 on the wire
        assertThat((String[]) read(SERVER_URI_ARRAY)).containsExactly(A, B);
        assertThat(read(SERVICE_LEVEL)).isEqualTo(UByte.valueOf(255));
        ExtensionObject[] servers = (ExtensionObject[]) read(REDUNDANT_SERVER_ARRAY);
        RedundantServerDataType own = (RedundantServerDataType) servers[0].decode(client.getStaticEncodingContext());
        assertThat(own.getServerId()).isEqualTo(A);
        assertThat(own.getServiceLevel()).isEqualTo(UByte.valueOf(255));
        assertThat(own.getServerState()).isEqualTo(ServerState.Running);
    }

    @Test
    void milo_sees_service_level_drop_when_the_server_is_degraded_and_rise_when_cleared() throws Exception {
        List<Integer> levels = new CopyOnWriteArrayList<>();
        OpcUaSubscription subscription = new OpcUaSubscription(client, 100.0);
        subscription.create();
        try {
            OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(SERVICE_LEVEL);
            item.setSamplingInterval(100.0); // revised up to ServiceLevel's MinimumSamplingInterval (1 s)
            item.setQueueSize(UInteger.valueOf(10));
            item.setDataValueListener((i, value) -> levels.add(((UByte) value.getValue().getValue()).intValue()));
            subscription.addMonitoredItem(item);
            subscription.synchronizeMonitoredItems();
            await().atMost(Duration.ofSeconds(5)).until(() -> levels.contains(255));

            server.serviceLevel().degrade("interop test: move clients to the partner");
            await().atMost(Duration.ofSeconds(5)).until(() -> levels.contains(100));
            server.serviceLevel().clear();
            await().atMost(Duration.ofSeconds(5)).until(() -> levels.lastIndexOf(255) > levels.indexOf(100));
            assertThat(levels).containsSubsequence(255, 100, 255);
        } finally {
            server.serviceLevel().clear();
            subscription.delete();
        }
    }
}
