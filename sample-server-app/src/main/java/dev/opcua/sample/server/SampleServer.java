package dev.opcua.sample.server;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A production line in namespace {@code urn:dev.opcua:sample:line1}: {@code Line1} with a Speed that
 * an operator may write, and a Temperature and a PartCount that the simulation changes every second.
 *
 * <p>Run with {@code mvn -B -q -pl sample-server-app exec:java} after an install; the port is 4840
 * unless {@code -Dopcua.port=N} says otherwise. Stops on Ctrl-C. Until sessions land, clients read
 * and write without a session.
 */
public final class SampleServer {

    static final String NAMESPACE = "urn:dev.opcua:sample:line1";

    private SampleServer() {
    }

    public static void main(String[] args) throws InterruptedException {
        int port = Integer.getInteger("opcua.port", 4840);
        NodeStore store = new NodeStore(8);
        OpcUaServer server = OpcUaServer.builder()
                .applicationUri("urn:dev.opcua:sample:server")
                .applicationName("dev.opcua sample plant")
                .port(port)
                .nodeManager(new NodeStoreNodeManager(List.of(NAMESPACE), store))
                .build();
        int ns = server.namespaces().indexOf(NAMESPACE);
        Line line = new Line(store, ns);
        server.start();

        ScheduledExecutorService simulation = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "sample-line-simulation");
            t.setDaemon(true);
            return t;
        });
        simulation.scheduleAtFixedRate(line::tick, 1, 1, TimeUnit.SECONDS);

        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            simulation.shutdownNow();
            server.close();
            stopped.countDown();
        }, "sample-server-shutdown"));
        System.out.println("READY " + server.endpointUrl());
        stopped.await();
    }

    /** The simulated line and its nodes. */
    static final class Line {
        private final VariableNode speed;
        private final VariableNode temperature;
        private final VariableNode partCount;
        private long parts;
        private long ticks;

        Line(NodeStore store, int ns) {
            NodeId lineId = NodeId.string(ns, "Line1");
            ObjectNode line = new ObjectNode(lineId, QualifiedName.of(ns, "Line1"), LocalizedText.of("Line 1"),
                    LocalizedText.of("en", "A simulated production line"), 0, 0, (short) 0);
            line.addReference(UaReference.inverse(NodeId.ns0(NodeIds.Organizes), NodeId.ns0(NodeIds.ObjectsFolder)));
            line.addReference(UaReference.forward(NodeId.ns0(NodeIds.HasTypeDefinition),
                    NodeId.ns0(NodeIds.BaseObjectType)));
            store.add(line);
            speed = variable(store, line, "Speed", Variant.ofDouble(1.2), NodeIds.Double, (short) 3);
            temperature = variable(store, line, "Temperature", Variant.ofDouble(21.0), NodeIds.Double, (short) 1);
            partCount = variable(store, line, "PartCount", Variant.ofUInt32(0), NodeIds.UInt32, (short) 1);
        }

        private static VariableNode variable(NodeStore store, ObjectNode parent, String name, Variant value,
                int dataType, short accessLevel) {
            int ns = parent.nodeId().namespaceIndex();
            NodeId id = NodeId.string(ns, "Line1." + name);
            VariableNode node = new VariableNode(id, QualifiedName.of(ns, name), null, null, 0, 0,
                    DataValue.of(value, StatusCode.GOOD, DateTime.now(), null),
                    ValueAttributes.scalar(NodeId.ns0(dataType)), accessLevel, accessLevel, 1000.0, false, accessLevel);
            node.addReference(UaReference.inverse(NodeId.ns0(NodeIds.HasComponent), parent.nodeId()));
            node.addReference(UaReference.forward(NodeId.ns0(NodeIds.HasTypeDefinition),
                    NodeId.ns0(NodeIds.BaseDataVariableType)));
            parent.addReference(UaReference.forward(NodeId.ns0(NodeIds.HasComponent), id));
            store.add(node);
            return node;
        }

        /** One second of production: parts follow the speed, the temperature drifts with it. */
        void tick() {
            ticks++;
            double rate = speed.value().value().doubleValue();
            parts += Math.max(0, Math.round(rate));
            double celsius = 21.0 + rate * 2.5 + Math.sin(ticks / 10.0);
            DateTime now = DateTime.now();
            temperature.setValue(DataValue.of(Variant.ofDouble(celsius), StatusCode.GOOD, now, null));
            partCount.setValue(DataValue.of(Variant.ofUInt32(parts & 0xFFFF_FFFFL), StatusCode.GOOD, now, null));
        }
    }
}
