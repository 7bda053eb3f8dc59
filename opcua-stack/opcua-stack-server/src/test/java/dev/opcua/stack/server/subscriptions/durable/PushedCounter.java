package dev.opcua.stack.server.subscriptions.durable;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.NodeStoreNodeManager;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.items.DataChangeBroker;
import dev.opcua.stack.server.subscriptions.items.MonitoringAware;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * A node manager with Int32 counters that report every change to the {@link DataChangeBroker} (Part 4,
 * 5.12.1.2: exception-based items, sampling interval 0), as a device driver would: each {@link #set}
 * reaches the items' queues, none is lost to sampling.
 */
public final class PushedCounter extends NodeStoreNodeManager implements MonitoringAware {

    public static final String NS = "urn:test:durable:pushed";

    private volatile DataChangeBroker broker;
    private volatile int namespaceIndex;

    public PushedCounter() {
        super(List.of(NS), new NodeStore(4));
    }

    /** Adds the counters, once the server started (its namespace index and broker are known). */
    public void start(int namespaceIndex, DataChangeBroker changes, String... names) {
        this.namespaceIndex = namespaceIndex;
        this.broker = changes;
        for (String name : names) {
            NodeId id = NodeId.string(namespaceIndex, name);
            VariableNode node = new VariableNode(id, QualifiedName.of(namespaceIndex, name), LocalizedText.of(name),
                    null, 0, 0, DataValue.of(Variant.ofInt32(0)), ValueAttributes.scalar(NodeId.ns0(NodeIds.Int32)),
                    (short) 1, (short) 1, 0, false, 1);
            node.addReference(UaReference.inverse(NodeId.ns0(NodeIds.Organizes), NodeId.ns0(NodeIds.ObjectsFolder)));
            store().add(node);
        }
    }

    /**
     * A started server serving these counters, named {@code names}: local, SecurityPolicy None, publishing intervals
     * from 20 ms, durable queues up to 1,000; {@code customize} adds what a test needs (its ApplicationUri at least).
     */
    public OpcUaServer startServer(Consumer<OpcUaServer.Builder> customize, String... names) {
        OpcUaServer.Builder builder = OpcUaServer.builder()
                .bindAddress("127.0.0.1").port(0).hostnames(List.of("localhost"))
                .security(List.of(EndpointSecurity.NONE))
                .subscriptionSettings(SubscriptionSettings.builder()
                        .minPublishingInterval(Duration.ofMillis(20))
                        .maxDurableQueueSize(1_000)
                        .build())
                .nodeManager(this);
        customize.accept(builder);
        OpcUaServer server = builder.build().start();
        start(server.namespaces().indexOf(NS), server.dataChanges(), names);
        return server;
    }

    public NodeId nodeId(String name) {
        return NodeId.string(namespaceIndex, name);
    }

    /** Stores the value and reports it. */
    public void set(String name, int value) {
        set(name, value, DateTime.now());
    }

    /** Stores the value with this source timestamp (a device's, which every server of a set reports) and reports it. */
    public void set(String name, int value, DateTime sourceTimestamp) {
        NodeId id = nodeId(name);
        DataValue changed = DataValue.of(Variant.ofInt32(value), StatusCode.GOOD, sourceTimestamp, null);
        ((VariableNode) store().get(id)).setValue(changed);
        broker.valueChanged(id, changed);
    }

    @Override
    public boolean pushesValueChanges(NodeId nodeId) {
        return store().get(nodeId) != null;
    }
}
