package dev.opcua.stack.server.namespace0;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.core.types.structured.BuildInfo;
import dev.opcua.stack.core.types.structured.ServerStatusDataType;
import dev.opcua.stack.server.addressspace.NodeStore;
import dev.opcua.stack.server.nodes.NamespaceTable;
import java.util.function.IntSupplier;

/**
 * The live values of the Server object (Part 5, 6.3.1 and 8.3.2): ServerStatus and its parts
 * (StartTime, CurrentTime, State, BuildInfo, SecondsTillShutdown, ShutdownReason), NamespaceArray,
 * ServerArray, ServiceLevel and EstimatedReturnTime, answered by value sources on the namespace-0 nodes so that every
 * read sees the present state.
 */
public final class ServerObject {

    /** ServiceLevel of a server that runs normally (Part 5, 6.3.34: 200..255 healthy). */
    static final short SERVICE_LEVEL_HEALTHY = 255;

    private final NamespaceTable namespaces;
    private final String applicationUri;
    private final BuildInfo buildInfo;
    private final DateTime startTime = DateTime.now();
    private volatile ServerState state = ServerState.Running;
    private volatile long secondsTillShutdown;
    private volatile LocalizedText shutdownReason = LocalizedText.NULL;
    /** EstimatedReturnTime (Part 5, 6.3.1); the null DateTime while no return is planned. */
    private volatile DateTime estimatedReturnTime = DateTime.MIN_VALUE;
    /** ServiceLevel now; by default 255 while Running, 0 otherwise, until {@link #serviceLevelSource} replaces it. */
    private volatile IntSupplier serviceLevel = () -> state == ServerState.Running ? SERVICE_LEVEL_HEALTHY : 0;

    /** The Server object of a server that does not audit. */
    public ServerObject(NodeStore store, NamespaceTable namespaces, String applicationUri, BuildInfo buildInfo) {
        this(store, namespaces, applicationUri, buildInfo, false);
    }

    /** @param auditing the Server's Auditing property (Part 5, 6.3.1): whether the server raises audit events */
    public ServerObject(NodeStore store, NamespaceTable namespaces, String applicationUri, BuildInfo buildInfo,
            boolean auditing) {
        this.namespaces = namespaces;
        this.applicationUri = applicationUri;
        this.buildInfo = buildInfo;
        ValueSources sources = new ValueSources(store);
        sources.put(NodeIds.Server_ServerStatus, () -> Variant.of(status()));
        sources.put(NodeIds.Server_ServerStatus_StartTime, () -> Variant.of(startTime));
        sources.put(NodeIds.Server_ServerStatus_CurrentTime, () -> Variant.of(DateTime.now()));
        sources.put(NodeIds.Server_ServerStatus_State, () -> Variant.ofInt32(state.value()));
        sources.put(NodeIds.Server_ServerStatus_SecondsTillShutdown, () -> Variant.ofUInt32(secondsTillShutdown));
        sources.put(NodeIds.Server_ServerStatus_ShutdownReason, () -> Variant.of(shutdownReason));
        sources.put(NodeIds.Server_ServerStatus_BuildInfo, () -> Variant.of(buildInfo));
        sources.put(NodeIds.Server_ServerStatus_BuildInfo_ProductUri, () -> Variant.ofString(buildInfo.productUri()));
        sources.put(NodeIds.Server_ServerStatus_BuildInfo_ManufacturerName,
                () -> Variant.ofString(buildInfo.manufacturerName()));
        sources.put(NodeIds.Server_ServerStatus_BuildInfo_ProductName, () -> Variant.ofString(buildInfo.productName()));
        sources.put(NodeIds.Server_ServerStatus_BuildInfo_SoftwareVersion,
                () -> Variant.ofString(buildInfo.softwareVersion()));
        sources.put(NodeIds.Server_ServerStatus_BuildInfo_BuildNumber, () -> Variant.ofString(buildInfo.buildNumber()));
        sources.put(NodeIds.Server_ServerStatus_BuildInfo_BuildDate, () -> Variant.of(buildInfo.buildDate()));
        sources.put(NodeIds.Server_NamespaceArray,
                () -> Variant.ofArray(BuiltinType.String, this.namespaces.toArray()));
        sources.put(NodeIds.Server_ServerArray,
                () -> Variant.ofArray(BuiltinType.String, new String[] {this.applicationUri}));
        Variant auditingValue = Variant.ofBoolean(auditing);
        sources.put(NodeIds.Server_Auditing, () -> auditingValue);
        sources.put(NodeIds.Server_ServiceLevel, () -> Variant.ofByte((short) serviceLevel.getAsInt()));
        addEstimatedReturnTime(store);
        sources.put(NodeIds.Server_EstimatedReturnTime, () -> Variant.of(estimatedReturnTime));
    }

    /** The optional property EstimatedReturnTime of ServerType (Part 5, 6.3.1), added when ns0.bin lacks it. */
    private static void addEstimatedReturnTime(NodeStore store) {
        dev.opcua.stack.core.types.builtin.NodeId id =
                dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.Server_EstimatedReturnTime);
        if (store.get(id) != null) {
            return;
        }
        dev.opcua.stack.core.types.builtin.NodeId server = dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.Server);
        dev.opcua.stack.core.types.builtin.NodeId hasProperty =
                dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.HasProperty);
        dev.opcua.stack.server.addressspace.VariableNode node = new dev.opcua.stack.server.addressspace.VariableNode(id,
                dev.opcua.stack.core.types.builtin.QualifiedName.of(0, "EstimatedReturnTime"),
                LocalizedText.of("EstimatedReturnTime"), null, 0, 0, null,
                dev.opcua.stack.server.addressspace.ValueAttributes.scalar(
                        dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.DateTime)), (short) 1, (short) 1, 1000,
                false, 1);
        node.addReference(dev.opcua.stack.server.addressspace.UaReference.inverse(hasProperty, server));
        node.addReference(dev.opcua.stack.server.addressspace.UaReference.forward(
                dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.HasTypeDefinition),
                dev.opcua.stack.core.types.builtin.NodeId.ns0(NodeIds.PropertyType)));
        store.add(node);
        if (store.get(server) != null) {
            store.get(server).addReference(dev.opcua.stack.server.addressspace.UaReference.forward(hasProperty, id));
        }
    }

    /**
     * EstimatedReturnTime (Part 5, 6.3.1): when the server expects to be Running and fully serving again after a
     * shutdown or maintenance (Part 4, 6.6.2.4.2: a server in maintenance should expose when clients can
     * reconnect); null (the null DateTime) when no return is planned or it is back.
     */
    public void setEstimatedReturnTime(java.time.Instant returnAt) {
        estimatedReturnTime = returnAt == null ? DateTime.MIN_VALUE : DateTime.ofInstant(returnAt);
    }

    /** The EstimatedReturnTime published now; the null DateTime when none. */
    public DateTime estimatedReturnTime() {
        return estimatedReturnTime;
    }

    /** The ServerStatus structure as it is now. */
    public ServerStatusDataType status() {
        return new ServerStatusDataType(startTime, DateTime.now(), state, buildInfo, secondsTillShutdown,
                shutdownReason);
    }

    /**
     * Where Server.ServiceLevel (Part 5, 6.3.1) comes from from now on, read on every Read and sample: the
     * server's {@code dev.opcua.stack.server.redundancy.ServiceLevelCalculator}.
     */
    public void serviceLevelSource(IntSupplier source) {
        serviceLevel = java.util.Objects.requireNonNull(source, "source");
    }

    public ServerState state() {
        return state;
    }

    /** Sets ServerState, and during a shutdown the seconds left and the reason (Part 5, 12.6). */
    public void setState(ServerState state, long secondsTillShutdown, LocalizedText shutdownReason) {
        this.state = state;
        this.secondsTillShutdown = secondsTillShutdown;
        this.shutdownReason = shutdownReason == null ? LocalizedText.NULL : shutdownReason;
    }

    public DateTime startTime() {
        return startTime;
    }
}
