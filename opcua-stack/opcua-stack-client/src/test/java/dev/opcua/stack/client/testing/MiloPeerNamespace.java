package dev.opcua.stack.client.testing;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ubyte;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ushort;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.core.Reference;
import org.eclipse.milo.opcua.sdk.core.ValueRanks;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
import org.eclipse.milo.opcua.sdk.server.methods.AbstractMethodInvocationHandler;
import org.eclipse.milo.opcua.sdk.server.model.objects.BaseEventTypeNode;
import org.eclipse.milo.opcua.sdk.server.model.objects.ServerTypeNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaFolderNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaMethodNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaObjectNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.sdk.server.util.SubscriptionModel;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.structured.Argument;

/**
 * The address space of {@link MiloPeerServer} in Milo's terms: the variables, the {@code Many}
 * folder and the {@code Methods} object under Objects, and events fired by the Server object. Each
 * server start gets a new instance, seeded with the values the previous one held.
 */
final class MiloPeerNamespace extends ManagedNamespaceWithLifecycle {

    /** Milo's value of each variable, keyed by the string identifier of its NodeId. */
    private final Map<String, UaVariableNode> variables = new LinkedHashMap<>();
    private final Map<String, Object> seed;
    private final int manyVariables;
    private final SubscriptionModel subscriptionModel;

    /**
     * @param seed the values, in Milo's types, the variables start with where they hold no default
     * @param manyVariables how many variables the {@code Many} folder organizes
     */
    MiloPeerNamespace(OpcUaServer server, Map<String, Object> seed, int manyVariables) {
        super(server, MiloPeerServer.NAMESPACE_URI);
        this.seed = seed;
        this.manyVariables = manyVariables;
        this.subscriptionModel = new SubscriptionModel(server, this);
        getLifecycleManager().addLifecycle(subscriptionModel);
        getLifecycleManager().addStartupTask(this::createNodes);
    }

    private void createNodes() {
        variable(MiloPeerServer.DOUBLE, NodeIds.Double, ValueRanks.Scalar, 0.0d, AccessLevel.READ_WRITE);
        variable(MiloPeerServer.INT32, NodeIds.Int32, ValueRanks.Scalar, 0, AccessLevel.READ_WRITE);
        variable(MiloPeerServer.STRING, NodeIds.String, ValueRanks.Scalar, "", AccessLevel.READ_WRITE);
        variable(MiloPeerServer.BOOLEAN, NodeIds.Boolean, ValueRanks.Scalar, false, AccessLevel.READ_WRITE);
        variable(MiloPeerServer.DOUBLE_ARRAY, NodeIds.Double, ValueRanks.OneDimension, new Double[] {1.0, 2.0, 3.0},
                AccessLevel.READ_WRITE);
        variable(MiloPeerServer.BYTE, NodeIds.Byte, ValueRanks.Scalar, ubyte(0), AccessLevel.READ_WRITE);
        variable(MiloPeerServer.READ_ONLY, NodeIds.Int32, ValueRanks.Scalar, MiloPeerServer.READ_ONLY_VALUE,
                AccessLevel.READ_ONLY);

        UaFolderNode many = new UaFolderNode(getNodeContext(), newNodeId(MiloPeerServer.MANY),
                newQualifiedName(MiloPeerServer.MANY), LocalizedText.english(MiloPeerServer.MANY));
        getNodeManager().addNode(many);
        many.addReference(new Reference(many.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(),
                false));
        for (int i = 0; i < manyVariables; i++) {
            UaVariableNode child = newVariable(MiloPeerServer.manyChild(i), NodeIds.Int32, ValueRanks.Scalar, i,
                    AccessLevel.READ_WRITE);
            many.addOrganizes(child);
        }

        UaObjectNode methods = UaObjectNode.builder(getNodeContext())
                .setNodeId(newNodeId(MiloPeerServer.METHODS))
                .setBrowseName(newQualifiedName(MiloPeerServer.METHODS))
                .setDisplayName(LocalizedText.english(MiloPeerServer.METHODS))
                .setTypeDefinition(NodeIds.BaseObjectType)
                .build();
        getNodeManager().addNode(methods);
        methods.addReference(new Reference(methods.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(),
                false));
        UaMethodNode add = UaMethodNode.builder(getNodeContext())
                .setNodeId(newNodeId(MiloPeerServer.ADD))
                .setBrowseName(newQualifiedName("Add"))
                .setDisplayName(LocalizedText.english("Add"))
                .setDescription(LocalizedText.english("a + b, in Java int arithmetic"))
                .build();
        AddMethod handler = new AddMethod(add);
        add.setInputArguments(handler.getInputArguments());
        add.setOutputArguments(handler.getOutputArguments());
        add.setInvocationHandler(handler);
        getNodeManager().addNode(add);
        add.addReference(new Reference(add.getNodeId(), NodeIds.HasComponent, methods.getNodeId().expanded(), false));

        // The Server object notifies of events only with its SubscribeToEvents bit set (Part 3, 5.5.2).
        if (getServer().getAddressSpaceManager().getManagedNode(NodeIds.Server).orElse(null)
                instanceof ServerTypeNode server) {
            server.setEventNotifier(ubyte(1));
        }
    }

    /** A variable organized by the Objects folder. */
    private void variable(String id, NodeId dataType, int valueRank, Object initial, Set<AccessLevel> access) {
        UaVariableNode node = newVariable(id, dataType, valueRank, initial, access);
        node.addReference(new Reference(node.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(),
                false));
    }

    private UaVariableNode newVariable(String id, NodeId dataType, int valueRank, Object initial,
            Set<AccessLevel> access) {
        UaVariableNode.UaVariableNodeBuilder builder = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                .setNodeId(newNodeId(id))
                .setAccessLevel(access)
                .setUserAccessLevel(access)
                .setBrowseName(newQualifiedName(id))
                .setDisplayName(LocalizedText.english(id))
                .setDataType(dataType)
                .setValueRank(valueRank)
                .setTypeDefinition(NodeIds.BaseDataVariableType);
        if (valueRank == ValueRanks.OneDimension) {
            builder.setArrayDimensions(new UInteger[] {uint(0)});
        }
        UaVariableNode node = builder.build();
        node.setValue(new DataValue(new Variant(seed.getOrDefault(id, initial)), StatusCode.GOOD, DateTime.now()));
        getNodeManager().addNode(node);
        variables.put(id, node);
        return node;
    }

    /** The variable of {@code s=id}, or null. */
    UaVariableNode variable(String id) {
        return variables.get(id);
    }

    /** Every variable's value, in Milo's types, keyed by its id: the seed of the next start. */
    Map<String, Object> values() {
        Map<String, Object> values = new LinkedHashMap<>();
        variables.forEach((id, node) -> values.put(id, node.getValue().value().value()));
        return values;
    }

    /** Fires a BaseEventType event whose SourceNode is the Server object. */
    ByteString fireEvent(int severity, String message) throws UaException {
        BaseEventTypeNode event = getServer().getEventFactory().createEvent(newNodeId(UUID.randomUUID()),
                NodeIds.BaseEventType);
        try {
            ByteString eventId = ByteString.of(uuidBytes(UUID.randomUUID()));
            event.setBrowseName(newQualifiedName("event"));
            event.setDisplayName(LocalizedText.english("event"));
            event.setEventId(eventId);
            event.setEventType(NodeIds.BaseEventType);
            event.setSourceNode(NodeIds.Server);
            event.setSourceName("Server");
            event.setTime(DateTime.now());
            event.setReceiveTime(DateTime.NULL_VALUE);
            event.setMessage(LocalizedText.english(message));
            event.setSeverity(ushort(severity));
            getServer().getEventNotifier().fire(event);
            return eventId;
        } finally {
            event.delete();
        }
    }

    private static byte[] uuidBytes(UUID uuid) {
        byte[] bytes = new byte[16];
        long high = uuid.getMostSignificantBits();
        long low = uuid.getLeastSignificantBits();
        for (int i = 0; i < 8; i++) {
            bytes[i] = (byte) (high >>> (56 - 8 * i));
            bytes[8 + i] = (byte) (low >>> (56 - 8 * i));
        }
        return bytes;
    }

    @Override
    public void onDataItemsCreated(List<DataItem> dataItems) {
        subscriptionModel.onDataItemsCreated(dataItems);
    }

    @Override
    public void onDataItemsModified(List<DataItem> dataItems) {
        subscriptionModel.onDataItemsModified(dataItems);
    }

    @Override
    public void onDataItemsDeleted(List<DataItem> dataItems) {
        subscriptionModel.onDataItemsDeleted(dataItems);
    }

    @Override
    public void onMonitoringModeChanged(List<MonitoredItem> monitoredItems) {
        subscriptionModel.onMonitoringModeChanged(monitoredItems);
    }

    /** {@code Add(Int32 a, Int32 b) -> Int32 sum}. */
    private static final class AddMethod extends AbstractMethodInvocationHandler {

        private static final Argument A = new Argument("a", NodeIds.Int32, ValueRanks.Scalar, null,
                LocalizedText.english("first summand"));
        private static final Argument B = new Argument("b", NodeIds.Int32, ValueRanks.Scalar, null,
                LocalizedText.english("second summand"));
        private static final Argument SUM = new Argument("sum", NodeIds.Int32, ValueRanks.Scalar, null,
                LocalizedText.english("a + b"));

        AddMethod(UaMethodNode node) {
            super(node);
        }

        @Override
        public Argument[] getInputArguments() {
            return new Argument[] {A, B};
        }

        @Override
        public Argument[] getOutputArguments() {
            return new Argument[] {SUM};
        }

        @Override
        protected Variant[] invoke(InvocationContext context, Variant[] inputs) {
            return new Variant[] {new Variant((Integer) inputs[0].value() + (Integer) inputs[1].value())};
        }
    }
}
