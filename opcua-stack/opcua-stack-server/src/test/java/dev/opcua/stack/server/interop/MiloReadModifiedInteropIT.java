package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.history.HistorySample;
import dev.opcua.stack.server.history.InMemoryHistoryStore;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.services.history.HistorySettings;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.testing.MiloClients;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.HistoryUpdateType;
import org.eclipse.milo.opcua.stack.core.types.enumerated.PerformUpdateType;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.DeleteRawModifiedDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryModifiedData;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadResult;
import org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ModificationInfo;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails;
import org.eclipse.milo.opcua.stack.core.types.structured.UpdateDataDetails;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client reads modified values (Part 11, 6.5.3.3, ReadRawModifiedDetails with isReadModified):
 * after it replaced, inserted and deleted values as user alice, HistoryModifiedData returns the old values (the new
 * one for the insert) with a ModificationInfo each, paged by continuation points; returnBounds is refused.
 */
class MiloReadModifiedInteropIT {

    private static final String NS = "urn:test:milo:read-modified";
    private static final Instant T0 = Instant.now().minus(Duration.ofHours(2)).truncatedTo(ChronoUnit.SECONDS);

    private static OpcUaServer server;
    private static OpcUaClient client;
    private static InMemoryHistoryStore store;
    private static NodeId level;

    @BeforeAll
    static void start() throws Exception {
        store = new InMemoryHistoryStore();
        InMemoryNodeManager nodes = InMemoryNodeManager.builder(NS)
                .folder("Tank")
                .variable("Tank.Level", BuiltinType.Double, v -> v.value(
                        dev.opcua.stack.core.types.builtin.Variant.ofDouble(0)).historyWritable())
                .build();
        server = OpcUaServer.builder()
                .applicationUri("urn:test:milo:read-modified:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .identities(UserNameIdentityValidator.of(Map.of("alice", "a-secret"), true),
                        List.of(DiscoveryServices.ANONYMOUS,
                                new UserTokenPolicy("username", UserTokenType.UserName, null, null, null)))
                .nodeManager(nodes)
                .history(store, HistorySettings.DEFAULT)
                .build()
                .start();
        dev.opcua.stack.core.types.builtin.NodeId levelId = nodes.nodeId("Tank.Level");
        List<HistorySample> samples = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            dev.opcua.stack.core.types.builtin.DateTime time =
                    dev.opcua.stack.core.types.builtin.DateTime.ofInstant(T0.plusSeconds(i));
            samples.add(new HistorySample(levelId, dev.opcua.stack.core.types.builtin.DataValue.of(
                    dev.opcua.stack.core.types.builtin.Variant.ofDouble(i),
                    dev.opcua.stack.core.types.builtin.StatusCode.GOOD, time, time)));
        }
        store.append(samples).join();
        client = MiloClients.overNone(server.endpointUrl(), new UsernameProvider("alice", "a-secret"));
        level = new NodeId(client.getNamespaceTable().getIndex(NS).intValue(), "Tank.Level");
        // alice replaces the value at 2 s, inserts one at 20 s and deletes 5 s to 7 s
        assertThat(client.historyUpdate(List.of(
                new UpdateDataDetails(level, PerformUpdateType.Replace, new DataValue[] {at(42.0, 2)}),
                new UpdateDataDetails(level, PerformUpdateType.Insert, new DataValue[] {at(99.0, 20)}),
                new DeleteRawModifiedDetails(level, false, time(5), time(7)))).getResults())
                .allSatisfy(result -> assertThat(result.getStatusCode().isGood()).isTrue());
    }

    @AfterAll
    static void stop() throws Exception {
        MiloClients.disconnectAndClose(client, server, store);
    }

    private static DateTime time(double seconds) {
        return MiloClients.miloTime(T0, seconds);
    }

    private static DataValue at(double value, double seconds) {
        return new DataValue(new Variant(value), StatusCode.GOOD, time(seconds), null);
    }

    private static HistoryReadResult read(ReadRawModifiedDetails details, ByteString point) throws Exception {
        return client.historyRead(details, TimestampsToReturn.Both, false,
                List.of(new HistoryReadValueId(level, null, QualifiedName.NULL_VALUE, point))).getResults()[0];
    }

    @Test
    void reads_the_modified_values_with_their_modification_info_in_pages() throws Exception {
        ReadRawModifiedDetails details = new ReadRawModifiedDetails(true, time(0), time(100), uint(2), false);
        List<String> all = new ArrayList<>();
        List<Integer> pages = new ArrayList<>();
        HistoryReadResult result = read(details, null);
        Instant updated = Instant.now().minus(Duration.ofMinutes(5));
        while (true) {
            assertThat(result.getStatusCode().isGood()).as("%s", result.getStatusCode()).isTrue();
            HistoryModifiedData data = (HistoryModifiedData) result.getHistoryData()
                    .decode(client.getStaticEncodingContext());
            pages.add(data.getDataValues().length);
            for (int i = 0; i < data.getDataValues().length; i++) {
                ModificationInfo info = data.getModificationInfos()[i];
                assertThat(info.getUserName()).isEqualTo("alice");
                assertThat(info.getModificationTime().getJavaInstant()).isAfter(updated);
                all.add(info.getUpdateType() + " " + data.getDataValues()[i].getValue().getValue() + " @"
                        + Duration.between(T0, data.getDataValues()[i].getSourceTime().getJavaInstant()).toSeconds());
            }
            ByteString point = result.getContinuationPoint();
            if (point == null || point.isNull()) {
                break;
            }
            result = read(details, point);
        }
        assertThat(all).containsExactly(HistoryUpdateType.Replace + " 2.0 @2", HistoryUpdateType.Delete + " 5.0 @5",
                HistoryUpdateType.Delete + " 6.0 @6", HistoryUpdateType.Insert + " 99.0 @20");
        assertThat(pages).containsExactly(2, 2);
    }

    @Test
    void raw_reads_see_the_new_values_and_bounds_with_read_modified_are_refused() throws Exception {
        HistoryReadResult raw = read(new ReadRawModifiedDetails(false, time(0), time(100), uint(0), false), null);
        org.eclipse.milo.opcua.stack.core.types.structured.HistoryData data =
                (org.eclipse.milo.opcua.stack.core.types.structured.HistoryData) raw.getHistoryData()
                        .decode(client.getStaticEncodingContext());
        assertThat(Arrays.stream(data.getDataValues()).map(v -> (Double) v.getValue().getValue()).toList())
                .containsExactly(0.0, 1.0, 42.0, 3.0, 4.0, 7.0, 8.0, 9.0, 99.0);
        assertThat(read(new ReadRawModifiedDetails(true, time(0), time(100), uint(0), true), null).getStatusCode()
                .getValue()).isEqualTo(StatusCodes.Bad_InvalidArgument);
        assertThat(read(new ReadRawModifiedDetails(true, time(0), DateTime.MIN_VALUE, uint(0), false), null)
                .getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_InvalidTimestampArgument);
    }
}
