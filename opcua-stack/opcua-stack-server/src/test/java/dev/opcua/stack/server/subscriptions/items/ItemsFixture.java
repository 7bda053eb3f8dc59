package dev.opcua.stack.server.subscriptions.items;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DataChangeTrigger;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.DataChangeFilter;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import dev.opcua.stack.core.types.structured.MonitoringParameters;
import dev.opcua.stack.core.types.structured.Range;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.addressspace.ObjectNode;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.addressspace.ValueAttributes;
import dev.opcua.stack.server.addressspace.VariableNode;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.nodes.InMemoryNodeManagerBuilder;
import dev.opcua.stack.server.nodes.NamespaceTable;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import dev.opcua.stack.server.nodes.ReadOperation;
import dev.opcua.stack.server.nodes.SyncNodeManager;
import dev.opcua.stack.server.nodes.WriteOperation;
import dev.opcua.stack.server.namespace0.Namespace0Loader;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import dev.opcua.stack.server.subscriptions.events.EventTypeTree;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server's worth of monitored-item plumbing for tests: an {@link InMemoryNodeManager} ("Temp",
 * "Count", "Text", "Analog" with an EURange property 0..200, "BadRange" whose EURange is no
 * Range, "Values", the object "Pump" whose EventNotifier is 0, the notifier object "Area" with
 * SubscribeToEvents, optionally "Many.V0".."Many.Vn"), a manager that pushes changes, the broker,
 * the event notifier registry with the event types of namespace 0, the factory and recording
 * counters.
 */
final class ItemsFixture implements AutoCloseable {

    static final String NS = "urn:test:items";
    static final String PUSH_NS = "urn:test:push";
    static final String SLOW_NS = "urn:test:slow";
    static final long HOUR = 3_600_000;

    final NodeManagers managers = new NodeManagers(new NamespaceTable("urn:test:server"));
    final InMemoryNodeManager plant;
    final PushingManager pushing = new PushingManager();
    final SlowManager slow = new SlowManager();
    final DataChangeBroker broker = new DataChangeBroker();
    final RecordingCounters counters = new RecordingCounters();
    final EventNotifierRegistry notifiers = new EventNotifierRegistry();
    final MonitoredItemContainerFactory factory;

    private static EventTypeTree ns0Types;

    /** The ObjectTypes of namespace 0, loaded once per JVM (the loader takes about half a second). */
    static synchronized EventTypeTree ns0Types() {
        if (ns0Types == null) {
            ns0Types = EventTypeTree.of(Namespace0Loader.load());
        }
        return ns0Types;
    }

    /** With a manual sampler: items are sampled only by {@link #tick()}. */
    ItemsFixture() {
        this(MonitoredItemSettings.DEFAULT, 0, true);
    }

    /** @param manualSampling whether a manual sampler replaces the scheduler thread */
    ItemsFixture(MonitoredItemSettings settings, int manyVariables, boolean manualSampling) {
        InMemoryNodeManagerBuilder builder = InMemoryNodeManager.builder(NS)
                .variable("Temp", BuiltinType.Double, v -> v.value(Variant.ofDouble(20)).writable())
                .variable("Count", BuiltinType.Int32, v -> v.value(Variant.ofInt32(0)).writable())
                .variable("Text", BuiltinType.String, v -> v.value(Variant.ofString("a")).writable())
                .variable("Analog", BuiltinType.Double, v -> v.value(Variant.ofDouble(50)).writable())
                .variable("BadRange", BuiltinType.Double, v -> v.value(Variant.ofDouble(1)).writable())
                .variable("Values", BuiltinType.Double, v -> v.valueRank(1)
                        .value(Variant.ofArray(BuiltinType.Double, new double[] {1, 2, 3})).writable())
                .object("Pump");
        if (manyVariables > 0) {
            builder.folder("Many");
            for (int i = 0; i < manyVariables; i++) {
                int n = i;
                builder.variable("Many.V" + i, BuiltinType.Int32, v -> v.value(Variant.ofInt32(n)));
            }
        }
        plant = builder.build();
        managers.register(plant);
        managers.register(pushing);
        managers.register(slow);
        managers.startup();
        addProperty("Analog", Variant.of(new Range(0, 200)));
        addProperty("BadRange", Variant.ofString("0..200"));
        plant.store().add(new ObjectNode(area(), QualifiedName.of(plant.namespaceIndex(), "Area"),
                LocalizedText.of("Area"), null, 0, 0, (short) 1));
        factory = manualSampling
                ? new MonitoredItemContainerFactory(managers, broker, notifiers, ns0Types(), settings, counters,
                        ItemSampler.manual(managers))
                : new MonitoredItemContainerFactory(managers, broker, notifiers, ns0Types(), settings, counters);
    }

    /** A HasProperty child named 0:EURange, as an AnalogItemType instance has (the builder makes components). */
    private void addProperty(String variable, Variant value) {
        NodeId parent = id(variable);
        NodeId property = NodeId.string(parent.namespaceIndex(), variable + ".EURange");
        short read = 1;
        plant.store().add(new VariableNode(property, QualifiedName.of(0, EuRangeLookup.EU_RANGE),
                LocalizedText.of(EuRangeLookup.EU_RANGE), null, 0, 0,
                DataValue.of(value, StatusCode.GOOD, DateTime.now(), null),
                new ValueAttributes(NodeId.ns0(NodeIds.Range), -1, null), read, read, 0, false, read));
        NodeId hasProperty = NodeId.ns0(NodeIds.HasProperty);
        plant.store().get(parent).addReference(UaReference.forward(hasProperty, property));
        plant.store().get(property).addReference(UaReference.inverse(hasProperty, parent));
    }

    /** Manual sampler: one tick of every interval group, reads applied before this returns. */
    void tick() {
        factory.sampler().tickAll();
    }

    NodeId id(String path) {
        return plant.nodeId(path);
    }

    /** The notifier object "Area": EventNotifier SubscribeToEvents. */
    NodeId area() {
        return NodeId.string(plant.namespaceIndex(), "Area");
    }

    NodeId slow(String id) {
        return NodeId.string(managers.namespaces().indexOf(SLOW_NS), id);
    }

    NodeId pushed(String id) {
        return NodeId.string(managers.namespaces().indexOf(PUSH_NS), id);
    }

    /** Stores a new value, as a write would (source and server timestamp now). */
    void set(String path, Variant value) {
        set(path, value, StatusCode.GOOD);
    }

    void set(String path, Variant value, StatusCode status) {
        DateTime now = DateTime.now();
        ((VariableNode) plant.store().get(id(path))).setValue(DataValue.of(value, status, now, now));
    }

    FakeOwner owner() {
        return owner(1000);
    }

    FakeOwner owner(int maxItems) {
        return new FakeOwner(1, 100, maxItems, factory);
    }

    static MonitoredItemCreateRequest request(NodeId node, MonitoringMode mode, double interval, long queueSize,
            boolean discardOldest, DataChangeFilter filter) {
        return request(new ReadValueId(node, AttributeIds.Value, null, null), mode, interval, queueSize, discardOldest,
                filter == null ? null : ExtensionObject.of(filter), 7);
    }

    static MonitoredItemCreateRequest request(ReadValueId item, MonitoringMode mode, double interval, long queueSize,
            boolean discardOldest, ExtensionObject filter, long clientHandle) {
        return new MonitoredItemCreateRequest(item, mode,
                new MonitoringParameters(clientHandle, interval, filter, queueSize, discardOldest));
    }

    /** A reporting item sampled hourly (so only the test feeds it), queue of {@code queueSize}. */
    static MonitoredItemCreateRequest reporting(NodeId node, long queueSize) {
        return request(node, MonitoringMode.Reporting, HOUR, queueSize, true, null);
    }

    static DataChangeFilter filter(DataChangeTrigger trigger, int deadbandType, double deadband) {
        return new DataChangeFilter(trigger, deadbandType, deadband);
    }

    MonitoredItemCreateResult[] create(FakeOwner owner, TimestampsToReturn timestamps,
            MonitoredItemCreateRequest... requests) {
        try {
            return owner.items().create(new OperationContext(null), timestamps, requests).get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    /** Creates one item that must succeed. */
    MonitoredItem createOne(FakeOwner owner, TimestampsToReturn timestamps, MonitoredItemCreateRequest request) {
        MonitoredItemCreateResult result = create(owner, timestamps, request)[0];
        assertThat(result.statusCode().value()).as("create %s", result).isEqualTo(StatusCodes.Good);
        assertThat(result.monitoredItemId()).isNotZero();
        return owner.items().item(result.monitoredItemId());
    }

    MonitoredItem createOne(FakeOwner owner, MonitoredItemCreateRequest request) {
        return createOne(owner, TimestampsToReturn.Both, request);
    }

    @Override
    public void close() {
        factory.close();
    }

    /**
     * A manager of namespace {@value #SLOW_NS} like a device behind a slow link: while a gate is set,
     * reads complete only when it opens. Every node reads a counter that advances with each read.
     */
    static final class SlowManager implements dev.opcua.stack.server.nodes.NodeManager {

        volatile java.util.concurrent.CompletableFuture<Void> gate;
        final AtomicInteger readCalls = new AtomicInteger();

        @Override
        public List<String> namespaceUris() {
            return List.of(SLOW_NS);
        }

        @Override
        public java.util.concurrent.CompletableFuture<Void> read(OperationContext context,
                List<ReadOperation> operations) {
            int n = readCalls.incrementAndGet();
            Runnable answer = () -> operations.forEach(op -> op.complete(DataValue.of(Variant.ofInt32(n),
                    StatusCode.GOOD, DateTime.now(), DateTime.now())));
            java.util.concurrent.CompletableFuture<Void> wait = gate;
            if (wait == null) {
                answer.run();
                return java.util.concurrent.CompletableFuture.completedFuture(null);
            }
            return wait.thenRun(answer);
        }

        @Override
        public java.util.concurrent.CompletableFuture<Void> write(OperationContext context,
                List<WriteOperation> operations) {
            operations.forEach(op -> op.complete(StatusCode.of(StatusCodes.BadNotWritable)));
            return java.util.concurrent.CompletableFuture.completedFuture(null);
        }
    }

    /**
     * A manager of namespace {@value #PUSH_NS} that pushes changes of every node but "Polled", and
     * records the monitoring callbacks and its reads.
     */
    static final class PushingManager implements SyncNodeManager, MonitoringAware {

        final Map<String, DataValue> values = new ConcurrentHashMap<>();
        final List<String> callbacks = new CopyOnWriteArrayList<>();
        final AtomicInteger readCalls = new AtomicInteger();

        PushingManager() {
            DateTime now = DateTime.now();
            values.put("P1", DataValue.of(Variant.ofInt32(1), StatusCode.GOOD, now, now));
            values.put("P2", DataValue.of(Variant.ofInt32(2), StatusCode.GOOD, now, now));
            values.put("Polled", DataValue.of(Variant.ofInt32(3), StatusCode.GOOD, now, now));
        }

        @Override
        public List<String> namespaceUris() {
            return List.of(PUSH_NS);
        }

        @Override
        public void readNow(OperationContext context, List<ReadOperation> operations) {
            readCalls.incrementAndGet();
            for (ReadOperation operation : operations) {
                DataValue value = operation.item().attributeId() == AttributeIds.Value
                        ? values.get(operation.item().nodeId().stringId()) : null;
                operation.complete(value != null ? value : DataValue.ofStatus(StatusCode.of(StatusCodes.BadNodeIdUnknown)));
            }
        }

        @Override
        public void writeNow(OperationContext context, List<WriteOperation> operations) {
            operations.forEach(op -> op.complete(StatusCode.of(StatusCodes.BadNotWritable)));
        }

        @Override
        public boolean pushesValueChanges(NodeId nodeId) {
            return !"Polled".equals(nodeId.stringId());
        }

        @Override
        public void monitoringStarted(NodeId nodeId, double samplingInterval) {
            callbacks.add("started " + nodeId.stringId() + " " + samplingInterval);
        }

        @Override
        public void monitoringStopped(NodeId nodeId, double samplingInterval) {
            callbacks.add("stopped " + nodeId.stringId() + " " + samplingInterval);
        }
    }
}
