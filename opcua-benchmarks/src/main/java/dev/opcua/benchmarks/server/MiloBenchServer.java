package dev.opcua.benchmarks.server;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ushort;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.core.Reference;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfigBuilder;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
import org.eclipse.milo.opcua.sdk.server.methods.AbstractMethodInvocationHandler;
import org.eclipse.milo.opcua.sdk.server.model.objects.BaseEventTypeNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaFolderNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaMethodNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaObjectNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.sdk.server.util.SubscriptionModel;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UShort;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.structured.Argument;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Eclipse Milo 1.1.2's server serving the {@link BenchAddressSpace} (same node ids, browse names and
 * references as {@link BenchServer}) over SecurityPolicy None with anonymous users, so that both
 * servers are measured with the same client; with {@code --pki DIR} also over every policy Milo
 * implements in Sign and SignAndEncrypt (see {@link MiloBenchSecurity}); its variables can be
 * monitored (sampled by Milo's {@code SubscriptionModel}). Prints
 * {@code READY <endpoint url>} on stdout once listening; a shutdown hook stops it on SIGTERM or Ctrl-C.
 * {@code --threads} and {@code --max-queued} are accepted and ignored: Milo sizes its own executor.
 *
 * <p>Usage: {@code java -cp opcua-benchmarks/target/benchmarks.jar dev.opcua.benchmarks.server.MiloBenchServer
 * [--port 4841] [--nodes 1000] [--host localhost] [--pki DIR [--trust-all-clients]] [--simulate N,RATE]};
 * with {@code --simulate} it changes its variables itself ({@link ValueSimulator}) with {@code setValue}.
 */
public final class MiloBenchServer {

    /** Milo's ApplicationUri, also in the certificate it gets with {@code --pki}. */
    static final String APPLICATION_URI = "urn:dev.opcua:bench:milo";

    private static final String APPLICATION_NAME = "bench server (Milo)";
    /** The first half of the EventIds of this process's events, the second half counts. */
    private static final long EMIT_PREFIX = new SecureRandom().nextLong();
    private static final Logger LOG = LoggerFactory.getLogger(MiloBenchServer.class);

    private MiloBenchServer() {
    }

    public static void main(String[] args) {
        BenchOptions options;
        try {
            options = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("MiloBenchServer: " + e.getMessage());
            System.exit(2);
            return;
        }
        RunningBenchServer server = start(options);
        BenchAddressSpace.serveUntilStopped(server);
    }

    /** Starts the server; the caller owns the result and closes it. */
    public static RunningBenchServer start(BenchOptions options) {
        // Milo does not tell the bound port, so port 0 is resolved up front (a small race, fine for tests)
        int port = options.port() != 0 ? options.port() : freePort();
        EndpointConfig.Builder base = EndpointConfig.newBuilder()
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .setBindAddress("0.0.0.0")
                .setBindPort(port)
                .setHostname(options.host())
                .setPath("/");
        OpcUaServerConfigBuilder config = OpcUaServerConfig.builder()
                .setApplicationUri(APPLICATION_URI)
                .setProductUri("urn:dev.opcua:bench")
                .setApplicationName(LocalizedText.english(APPLICATION_NAME));
        MiloBenchSecurity security = null;
        if (options.pki() != null) {
            security = MiloBenchSecurity.create(options, APPLICATION_URI, APPLICATION_NAME);
            base.setCertificate(security.certificate());
            config.setCertificateManager(security.certificateManager());
        }
        EndpointConfig endpoint = base.copy()
                .setSecurityPolicy(SecurityPolicy.None)
                .setSecurityMode(MessageSecurityMode.None)
                .addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS)
                .build();
        Set<EndpointConfig> endpoints = new LinkedHashSet<>(List.of(endpoint));
        if (security != null) {
            security.addSecuredEndpoints(base, endpoints);
        }
        config.setEndpoints(endpoints);
        OpcUaServer server = new OpcUaServer(config.build(),
                profile -> new OpcTcpServerTransport(OpcTcpServerTransportConfig.newBuilder().build()));
        BenchNamespace namespace = new BenchNamespace(server, options.nodes());
        namespace.startup();
        ScheduledExecutorService ticker = null;
        ValueSimulator<DateTime> simulator = null;
        try {
            server.startup().get(30, TimeUnit.SECONDS);
            ticker = BenchAddressSpace.startCounter(namespace::setCounter);
            if (options.simulates()) {
                simulator = new ValueSimulator<>(options.simulatedVariables(), options.simulatedRate(),
                        namespace.simulated(options.simulatedVariables()));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop(server, namespace);
            throw new IllegalStateException("interrupted while starting", e);
        } catch (ExecutionException | TimeoutException e) {
            stop(server, namespace);
            throw new IllegalStateException("Milo server did not start", e);
        }
        int ns = namespace.getNamespaceIndex().intValue();
        LOG.info("Milo bench server: {} variables, namespace {} has index {}, listening at {} with {} endpoints{}{}",
                options.nodes(), BenchAddressSpace.NAMESPACE_URI, ns, endpoint.getEndpointUrl(), endpoints.size(),
                options.pki() == null ? " (None only)" : " (None and every policy in Sign and SignAndEncrypt)",
                options.simulates() ? ", simulating " + options.simulatedRate() + " values/s on "
                        + options.simulatedVariables() + " variables" : "");
        return new Running(server, namespace, ticker, simulator, endpoint.getEndpointUrl(), ns);
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void stop(OpcUaServer server, BenchNamespace namespace) {
        namespace.shutdown();
        try {
            server.shutdown().get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            LOG.warn("Milo server did not stop cleanly", e);
        }
    }

    private record Running(OpcUaServer server, BenchNamespace namespace, ScheduledExecutorService ticker,
            ValueSimulator<DateTime> simulator, String endpointUrl, int namespaceIndex) implements RunningBenchServer {

        @Override
        public long simulatedValues() {
            return simulator == null ? -1 : simulator.valuesSet();
        }

        @Override
        public void startSimulation() {
            if (simulator != null) {
                simulator.release();
            }
        }

        @Override
        public void close() {
            if (simulator != null) {
                simulator.close();
            }
            ticker.shutdownNow();
            stop(server, namespace);
        }
    }

    /**
     * The bench nodes as a Milo managed namespace. Data-change monitored items on them are sampled by
     * Milo's own {@link SubscriptionModel}, the way Milo's example namespaces serve them.
     */
    private static final class BenchNamespace extends ManagedNamespaceWithLifecycle {
        private final int nodes;
        private final SubscriptionModel subscriptions;
        private volatile UaVariableNode counter;
        private volatile UaVariableNode simulatedCount;
        private final List<UaVariableNode> variables = new ArrayList<>();

        BenchNamespace(OpcUaServer server, int nodes) {
            super(server, BenchAddressSpace.NAMESPACE_URI);
            this.nodes = nodes;
            this.subscriptions = new SubscriptionModel(server, this);
            getLifecycleManager().addLifecycle(subscriptions);
            getLifecycleManager().addStartupTask(this::createNodes);
        }

        /** The simulation's target: Milo's own node API, {@code setValue} on the variable nodes. */
        ValueSimulator.Target<DateTime> simulated(int n) {
            UaVariableNode[] nodes = variables.subList(0, n).toArray(new UaVariableNode[0]);
            UaVariableNode count = simulatedCount;
            return new ValueSimulator.Target<>() {
                @Override
                public DateTime timestamp(Instant now) {
                    return new DateTime(now);
                }

                @Override
                public void set(int variable, double value, DateTime time) {
                    nodes[variable].setValue(new DataValue(new Variant(value), StatusCode.GOOD, time, time));
                }

                @Override
                public void progress(long changed) {
                    count.setValue(new DataValue(new Variant(changed)));
                }
            };
        }

        void setCounter(int value) {
            UaVariableNode node = counter;
            if (node != null) {
                node.setValue(new DataValue(new Variant(value)));
            }
        }

        private void createNodes() {
            UaFolderNode bench = new UaFolderNode(getNodeContext(), newNodeId(BenchAddressSpace.BENCH),
                    newQualifiedName(BenchAddressSpace.BENCH), LocalizedText.english(BenchAddressSpace.BENCH));
            getNodeManager().addNode(bench);
            bench.addReference(new Reference(bench.getNodeId(), Identifiers.Organizes,
                    Identifiers.ObjectsFolder.expanded(), false));
            for (int i = 0; i < nodes; i++) {
                String id = BenchAddressSpace.variableId(i);
                UaVariableNode variable = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                        .setNodeId(newNodeId(id))
                        .setBrowseName(newQualifiedName(BenchAddressSpace.variableBrowseName(i)))
                        .setDisplayName(LocalizedText.english(id))
                        .setDataType(Identifiers.Double)
                        .setTypeDefinition(Identifiers.BaseDataVariableType)
                        .setAccessLevel(AccessLevel.READ_WRITE)
                        .setUserAccessLevel(AccessLevel.READ_WRITE)
                        .setValue(new DataValue(new Variant(0.0)))
                        .build();
                getNodeManager().addNode(variable);
                bench.addOrganizes(variable);
                variables.add(variable);
            }
            UaVariableNode simulatedNode = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                    .setNodeId(newNodeId(BenchAddressSpace.SIMULATED))
                    .setBrowseName(newQualifiedName(BenchAddressSpace.SIMULATED))
                    .setDisplayName(LocalizedText.english(BenchAddressSpace.SIMULATED))
                    .setDataType(Identifiers.Int64)
                    .setTypeDefinition(Identifiers.BaseDataVariableType)
                    .setAccessLevel(AccessLevel.READ_ONLY)
                    .setUserAccessLevel(AccessLevel.READ_ONLY)
                    .setValue(new DataValue(new Variant(0L)))
                    .build();
            getNodeManager().addNode(simulatedNode);
            bench.addOrganizes(simulatedNode);
            simulatedCount = simulatedNode;
            UaVariableNode counterNode = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                    .setNodeId(newNodeId(BenchAddressSpace.COUNTER))
                    .setBrowseName(newQualifiedName(BenchAddressSpace.COUNTER))
                    .setDisplayName(LocalizedText.english(BenchAddressSpace.COUNTER))
                    .setDataType(Identifiers.Int32)
                    .setTypeDefinition(Identifiers.BaseDataVariableType)
                    .setAccessLevel(AccessLevel.READ_ONLY)
                    .setUserAccessLevel(AccessLevel.READ_ONLY)
                    .setValue(new DataValue(new Variant(0)))
                    .build();
            getNodeManager().addNode(counterNode);
            bench.addOrganizes(counterNode);
            counter = counterNode;

            UaObjectNode methods = UaObjectNode.builder(getNodeContext())
                    .setNodeId(newNodeId(BenchAddressSpace.METHODS))
                    .setBrowseName(newQualifiedName(BenchAddressSpace.METHODS))
                    .setDisplayName(LocalizedText.english(BenchAddressSpace.METHODS))
                    .setTypeDefinition(Identifiers.BaseObjectType)
                    .build();
            getNodeManager().addNode(methods);
            methods.addReference(new Reference(methods.getNodeId(), Identifiers.Organizes,
                    Identifiers.ObjectsFolder.expanded(), false));

            UaMethodNode add = UaMethodNode.builder(getNodeContext())
                    .setNodeId(newNodeId(BenchAddressSpace.ADD))
                    .setBrowseName(newQualifiedName("Add"))
                    .setDisplayName(LocalizedText.english("Add"))
                    .build();
            AddHandler handler = new AddHandler(add);
            add.setInputArguments(handler.getInputArguments());
            add.setOutputArguments(handler.getOutputArguments());
            add.setInvocationHandler(handler);
            getNodeManager().addNode(add);
            methods.addReference(new Reference(methods.getNodeId(), Identifiers.HasComponent,
                    add.getNodeId().expanded(), true));

            UaMethodNode emit = UaMethodNode.builder(getNodeContext())
                    .setNodeId(newNodeId(BenchAddressSpace.EMIT))
                    .setBrowseName(newQualifiedName("Emit"))
                    .setDisplayName(LocalizedText.english("Emit"))
                    .build();
            EmitHandler emitHandler = new EmitHandler(emit, getServer(), getNamespaceIndex());
            emit.setInputArguments(emitHandler.getInputArguments());
            emit.setOutputArguments(emitHandler.getOutputArguments());
            emit.setInvocationHandler(emitHandler);
            getNodeManager().addNode(emit);
            methods.addReference(new Reference(methods.getNodeId(), Identifiers.HasComponent,
                    emit.getNodeId().expanded(), true));
        }

        @Override
        public void onDataItemsCreated(List<DataItem> items) {
            subscriptions.onDataItemsCreated(items);
        }

        @Override
        public void onDataItemsModified(List<DataItem> items) {
            subscriptions.onDataItemsModified(items);
        }

        @Override
        public void onDataItemsDeleted(List<DataItem> items) {
            subscriptions.onDataItemsDeleted(items);
        }

        @Override
        public void onMonitoringModeChanged(List<MonitoredItem> items) {
            subscriptions.onMonitoringModeChanged(items);
        }
    }

    /**
     * Emit(Int64 first, Int32 count): fires {@code count} BaseEventType events on the Server object
     * with Milo's event API, an event node per event, deleted once fired.
     */
    private static final class EmitHandler extends AbstractMethodInvocationHandler {
        private static final Argument[] INPUTS = {
            new Argument("first", Identifiers.Int64, -1, null, LocalizedText.english("first")),
            new Argument("count", Identifiers.Int32, -1, null, LocalizedText.english("count"))};
        private static final AtomicLong EVENT_IDS = new AtomicLong();

        private final OpcUaServer server;
        private final UShort namespaceIndex;

        EmitHandler(UaMethodNode node, OpcUaServer server, UShort namespaceIndex) {
            super(node);
            this.server = server;
            this.namespaceIndex = namespaceIndex;
        }

        @Override
        public Argument[] getInputArguments() {
            return INPUTS;
        }

        @Override
        public Argument[] getOutputArguments() {
            return new Argument[0];
        }

        @Override
        protected Variant[] invoke(InvocationContext context, Variant[] inputs) throws UaException {
            if (!(inputs[0].getValue() instanceof Long first) || !(inputs[1].getValue() instanceof Integer count)
                    || count < 0 || count > BenchAddressSpace.MAX_EMIT) {
                throw new UaException(StatusCodes.Bad_InvalidArgument, "Emit takes an Int64 and an Int32 count of 0.."
                        + BenchAddressSpace.MAX_EMIT);
            }
            for (int i = 0; i < count; i++) {
                long id = EVENT_IDS.incrementAndGet();
                BaseEventTypeNode event = server.getEventFactory().createEvent(new NodeId(namespaceIndex,
                        "Event." + id), Identifiers.BaseEventType);
                event.setBrowseName(new QualifiedName(namespaceIndex, "Event"));
                event.setDisplayName(LocalizedText.english("Event"));
                event.setEventId(ByteString.of(ByteBuffer.allocate(16).putLong(EMIT_PREFIX).putLong(id).array()));
                event.setEventType(Identifiers.BaseEventType);
                event.setSourceNode(Identifiers.Server);
                event.setSourceName(BenchAddressSpace.BENCH);
                event.setTime(DateTime.now());
                event.setReceiveTime(DateTime.NULL_VALUE);
                event.setMessage(LocalizedText.english(BenchAddressSpace.eventMessage(first + i)));
                event.setSeverity(ushort(BenchAddressSpace.EVENT_SEVERITY));
                server.getEventNotifier().fire(event);
                event.delete();
            }
            return new Variant[0];
        }
    }

    /** Add(Int32 a, Int32 b) -> Int32. */
    private static final class AddHandler extends AbstractMethodInvocationHandler {
        private static final Argument[] INPUTS = {int32("a"), int32("b")};
        private static final Argument[] OUTPUTS = {int32("sum")};

        AddHandler(UaMethodNode node) {
            super(node);
        }

        private static Argument int32(String name) {
            return new Argument(name, Identifiers.Int32, -1, null, LocalizedText.english(name));
        }

        @Override
        public Argument[] getInputArguments() {
            return INPUTS;
        }

        @Override
        public Argument[] getOutputArguments() {
            return OUTPUTS;
        }

        @Override
        protected Variant[] invoke(InvocationContext context, Variant[] inputs) throws UaException {
            if (!(inputs[0].getValue() instanceof Integer a) || !(inputs[1].getValue() instanceof Integer b)) {
                throw new UaException(StatusCodes.Bad_InvalidArgument, "Add takes two Int32");
            }
            return new Variant[] {new Variant(a + b)};
        }
    }
}
