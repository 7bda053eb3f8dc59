package dev.opcua.benchmarks.history;

import dev.opcua.benchmarks.load.LoadSession;
import dev.opcua.benchmarks.transport.ThreadAllocations;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.AggregateConfiguration;
import dev.opcua.stack.core.types.structured.HistoryData;
import dev.opcua.stack.core.types.structured.HistoryReadDetails;
import dev.opcua.stack.core.types.structured.HistoryReadRequest;
import dev.opcua.stack.core.types.structured.HistoryReadResponse;
import dev.opcua.stack.core.types.structured.HistoryReadResult;
import dev.opcua.stack.core.types.structured.HistoryReadValueId;
import dev.opcua.stack.core.types.structured.ReadProcessedDetails;
import dev.opcua.stack.core.types.structured.ReadRawModifiedDetails;
import dev.opcua.stack.history.embedded.SyncPolicy;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.history.HistorySample;
import dev.opcua.stack.server.history.HistoryStore;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.services.history.HistorySettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * HistoryRead over one secure channel on loopback, client and server in one process, from each store in turn
 * ({@code memory}, the reference; {@code embedded}; {@code postgres}, see {@link BenchStores}):
 *
 * <ul>
 *   <li>{@code raw}: one million raw values of one node (1 Hz, about 11.6 days) read forward, paged by
 *       continuation points at the server's MaxReturnDataValues (10,000 values per response): time, values per
 *       second, and heap bytes allocated per value returned by the server threads and by the client threads.</li>
 *   <li>{@code average}: ReadProcessedDetails Average over one day of 1 Hz values (86,400 raw values), as 24
 *       hourly intervals and as one interval: time per request and server bytes per raw value.</li>
 * </ul>
 *
 * <p>Usage: {@code java -cp opcua-benchmarks/target/benchmarks.jar dev.opcua.benchmarks.history.HistoryReadBench
 * [--values N] [--rounds N] [--stores memory,embedded,postgres] [--jdbc-url URL]}. Each measurement runs once to
 * warm up, then {@code rounds} times. The server's bytes include the store's own threads (the PostgreSQL store's
 * I/O threads and driver); PostgreSQL's own processes are not counted.
 */
public final class HistoryReadBench {

    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final long SECOND_TICKS = 10_000_000L;

    private HistoryReadBench() {
    }

    public static void main(String[] args) throws Exception {
        int values = 1_000_000;
        int rounds = 3;
        String stores = "memory,embedded,postgres";
        String jdbcUrl = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--values" -> values = Integer.parseInt(args[i + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--stores" -> stores = args[i + 1];
                case "--jdbc-url" -> jdbcUrl = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (use --values N, --rounds N, --stores memory,embedded,postgres, --jdbc-url URL)");
            }
        }
        for (String kind : stores.split(",")) {
            try (BenchStores.Opened opened = BenchStores.open(kind.strip(), null, SyncPolicy.EVERY_COMMIT, jdbcUrl)) {
                System.out.println("store: " + opened.describe());
                run(kind.strip(), opened.store(), values, rounds);
            }
        }
    }

    /** The raw and processed measurements against one store, which the caller owns. */
    private static void run(String kind, HistoryStore store, int values, int rounds) throws Exception {
        NodeStore nodes = new NodeStore(1);
        OpcUaServer server = OpcUaServer.builder()
                .applicationUri("urn:dev.opcua:bench")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("127.0.0.1"))
                .nodeManager(new NodeStoreNodeManager(List.of("urn:bench"), nodes))
                .history(store, HistorySettings.DEFAULT)
                .build();
        int ns = server.namespaces().indexOf("urn:bench");
        NodeId node = NodeId.string(ns, "Temperature");
        // AccessLevel CurrentRead | HistoryRead
        nodes.add(new VariableNode(node, QualifiedName.of(ns, "Temperature"), null, null, 0, 0,
                DataValue.of(Variant.ofDouble(20)), ValueAttributes.scalar(NodeId.ns0(NodeIds.Double)), (short) 5,
                (short) 5, 0, true, 5));
        fill(store, node, values);
        server.start();
        try (ClientResources resources = ClientResources.create()) {
            LoadSession session = LoadSession.open(server.endpointUrl(), resources);
            ThreadAllocations allocations = new ThreadAllocations();
            String caller = Thread.currentThread().getName();
            DateTime start = DateTime.ofInstant(T0);
            DateTime end = DateTime.ofTicks(start.utcTicks() + values * SECOND_TICKS);
            for (int round = 0; round <= rounds; round++) {
                Map<Long, ThreadAllocations.Sample> before = allocations.snapshot();
                long began = System.nanoTime();
                long[] pagesAndValues = readAll(session, node,
                        new ReadRawModifiedDetails(false, start, end, 0, false));
                long nanos = System.nanoTime() - began;
                Map<Long, ThreadAllocations.Sample> after = allocations.snapshot();
                long read = pagesAndValues[1];
                if (read != values) {
                    throw new IllegalStateException("read " + read + " values, expected " + values);
                }
                long serverBytes = ThreadAllocations.between(before, after,
                        n -> !n.equals(caller) && !n.startsWith("opcua-client-"));
                long clientBytes = ThreadAllocations.between(before, after,
                        n -> n.equals(caller) || n.startsWith("opcua-client-"));
                System.out.printf("RESULT bench=raw store=%s round=%s values=%d pages=%d ms=%.0f values_per_s=%.0f "
                                + "server_bytes_per_value=%.1f client_bytes_per_value=%.1f%n",
                        kind, round == 0 ? "warmup" : round, read, pagesAndValues[0], nanos / 1e6, read / (nanos / 1e9),
                        serverBytes / (double) read, clientBytes / (double) read);
            }
            DateTime dayEnd = DateTime.ofTicks(start.utcTicks() + 86_400 * SECOND_TICKS);
            for (double interval : new double[] {3_600_000, 0}) {
                for (int round = 0; round <= rounds; round++) {
                    Map<Long, ThreadAllocations.Sample> before = allocations.snapshot();
                    long began = System.nanoTime();
                    long[] result = readAll(session, node, new ReadProcessedDetails(start, dayEnd, interval,
                            new NodeId[] {NodeId.ns0(NodeIds.AggregateFunction_Average)},
                            new AggregateConfiguration(true, true, (short) 100, (short) 100, false)));
                    long nanos = System.nanoTime() - began;
                    Map<Long, ThreadAllocations.Sample> after = allocations.snapshot();
                    long serverBytes = ThreadAllocations.between(before, after,
                            n -> !n.equals(caller) && !n.startsWith("opcua-client-"));
                    System.out.printf("RESULT bench=average store=%s interval_ms=%.0f round=%s raw_values=86400 results=%d "
                                    + "ms=%.1f server_bytes_per_raw_value=%.1f%n",
                            kind, interval, round == 0 ? "warmup" : round, result[1], nanos / 1e6,
                            serverBytes / 86_400.0);
                }
            }
            session.close();
        } finally {
            server.close();
        }
    }

    /** One million values at 1 Hz, 10 to 30 as a slow sine, appended in batches. */
    private static void fill(HistoryStore store, NodeId node, int values) {
        List<HistorySample> batch = new ArrayList<>(10_000);
        long t0 = DateTime.ofInstant(T0).utcTicks();
        for (int i = 0; i < values; i++) {
            DateTime time = DateTime.ofTicks(t0 + i * SECOND_TICKS);
            batch.add(new HistorySample(node, DataValue.of(Variant.ofDouble(20 + 10 * Math.sin(i / 3600.0)),
                    StatusCode.GOOD, time, time)));
            if (batch.size() == 10_000) {
                store.append(batch).join();
                batch.clear();
            }
        }
        store.append(batch).join();
    }

    /** Reads until no continuation point is returned; pages and values. */
    private static long[] readAll(LoadSession session, NodeId node, HistoryReadDetails details) throws Exception {
        ByteString point = null;
        long pages = 0;
        long count = 0;
        do {
            HistoryReadRequest request = new HistoryReadRequest(session.header(), ExtensionObject.of(details),
                    TimestampsToReturn.Source, false, new HistoryReadValueId[] {
                        new HistoryReadValueId(node, null, QualifiedName.NULL, point)});
            HistoryReadResponse response = session.channel().request(request, HistoryReadResponse.class)
                    .get(60, TimeUnit.SECONDS);
            HistoryReadResult result = response.results()[0];
            if (result.statusCode().isBad()) {
                throw new IllegalStateException("HistoryRead failed: " + result.statusCode());
            }
            HistoryData data = (HistoryData) result.historyData().decoded();
            count += data.dataValues() == null ? 0 : data.dataValues().length;
            pages++;
            point = result.continuationPoint();
        } while (point != null && !point.isNull() && point.length() > 0);
        return new long[] {pages, count};
    }
}
