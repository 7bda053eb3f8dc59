package dev.opcua.benchmarks.transport;

import dev.opcua.benchmarks.load.LoadSession;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Round trips of a Read of one Double value over one open secure channel on loopback, against our
 * {@link OpcUaServer}, in one process: latency percentiles of sequential requests and the heap bytes
 * allocated per request by the server threads and by the client threads (told apart by name).
 *
 * <p>Usage: {@code java -cp opcua-benchmarks/target/benchmarks.jar dev.opcua.benchmarks.transport.ReadRoundTrip
 * [--requests N] [--warmup N]}. The reads go in an anonymous session.
 */
public final class ReadRoundTrip {

    private ReadRoundTrip() {
    }

    public static void main(String[] args) throws Exception {
        int requests = 20_000;
        int warmup = 20_000;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--requests" -> requests = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (use --requests N, --warmup N)");
            }
        }
        NodeStore store = new NodeStore(1);
        OpcUaServer server = OpcUaServer.builder()
                .applicationUri("urn:dev.opcua:bench")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("127.0.0.1"))
                .nodeManager(new NodeStoreNodeManager(List.of("urn:bench"), store))
                .build();
        int ns = server.namespaces().indexOf("urn:bench");
        NodeId var0 = NodeId.string(ns, "Var.0");
        store.add(new VariableNode(var0, QualifiedName.of(ns, "Var.0"), null, null, 0, 0,
                DataValue.of(Variant.ofDouble(1.5)), ValueAttributes.scalar(NodeId.ns0(NodeIds.Double)), (short) 3,
                (short) 3, 0, false, 3));
        server.start();
        try (ClientResources resources = ClientResources.create()) {
            LoadSession session = LoadSession.open(server.endpointUrl(), resources);
            ReadValueId[] items = {new ReadValueId(var0, AttributeIds.Value, null, QualifiedName.NULL)};
            for (int i = 0; i < warmup; i++) {
                call(session, items);
            }
            ThreadAllocations allocations = new ThreadAllocations();
            String caller = Thread.currentThread().getName();
            long[] nanos = new long[requests];
            Map<Long, ThreadAllocations.Sample> before = allocations.snapshot();
            for (int i = 0; i < requests; i++) {
                long start = System.nanoTime();
                call(session, items);
                nanos[i] = System.nanoTime() - start;
            }
            Map<Long, ThreadAllocations.Sample> after = allocations.snapshot();
            long client = ThreadAllocations.between(before, after,
                    n -> n.equals(caller) || n.startsWith("opcua-client-"));
            long serverBytes = ThreadAllocations.between(before, after,
                    n -> !n.equals(caller) && !n.startsWith("opcua-client-"));
            Arrays.sort(nanos);
            System.out.printf("RESULT service=read1 requests=%d p50_us=%.1f p90_us=%.1f p99_us=%.1f max_us=%.1f "
                            + "server_bytes_per_request=%d client_bytes_per_request=%d%n",
                    requests, nanos[requests / 2] / 1e3, nanos[requests * 9 / 10] / 1e3, nanos[requests * 99 / 100] / 1e3,
                    nanos[requests - 1] / 1e3, serverBytes / requests, client / requests);
            session.close();
        } finally {
            server.close();
        }
    }

    private static void call(LoadSession session, ReadValueId[] items) throws Exception {
        ReadResponse response = session.channel().request(new ReadRequest(session.header(), 0, TimestampsToReturn.Both,
                items), ReadResponse.class).get(10, TimeUnit.SECONDS);
        if (!response.results()[0].statusCode().isGood()) {
            throw new IllegalStateException("read failed: " + response.results()[0]);
        }
    }
}
