package dev.opcua.spring.boot.testing;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ubyte;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ushort;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.core.AccessLevel;
import org.eclipse.milo.opcua.sdk.core.Reference;
import org.eclipse.milo.opcua.sdk.core.ValueRanks;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.ManagedNamespaceWithLifecycle;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.items.DataItem;
import org.eclipse.milo.opcua.sdk.server.items.MonitoredItem;
import org.eclipse.milo.opcua.sdk.server.model.objects.BaseEventTypeNode;
import org.eclipse.milo.opcua.sdk.server.model.objects.ServerTypeNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.sdk.server.util.SubscriptionModel;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.security.CertificateStore;
import org.eclipse.milo.opcua.stack.core.security.DefaultApplicationGroup;
import org.eclipse.milo.opcua.stack.core.security.DefaultCertificateManager;
import org.eclipse.milo.opcua.stack.core.security.DefaultServerCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateStore;
import org.eclipse.milo.opcua.stack.core.security.MemoryTrustListManager;
import org.eclipse.milo.opcua.stack.core.security.RsaSha256CertificateFactory;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * An Eclipse Milo 1.1.2 server on 127.0.0.1 with one SecurityPolicy None endpoint at
 * {@link #endpointUrl()}: namespace {@value #NAMESPACE_URI} holds the Double variable {@code s=Speed}
 * ({@link #setSpeed}), and the Server object (i=2253) notifies of BaseEventType events
 * ({@link #fireEvent}). The idea of the client module's {@code MiloPeerServer}, cut to what the
 * listener tests need.
 */
public final class MiloTestServer implements AutoCloseable {

    public static final String NAMESPACE_URI = "urn:dev.opcua:test:milo:listeners";
    public static final String PATH = "/milo";

    private final OpcUaServer server;
    private final Namespace namespace;
    private final int port;

    private MiloTestServer(OpcUaServer server, Namespace namespace, int port) {
        this.server = server;
        this.namespace = namespace;
        this.port = port;
    }

    /** Starts Milo on a free port. */
    public static MiloTestServer start() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        ApplicationCertificate certificate = CertificateBuilder.forApplication("milo listener test")
                .applicationUri("urn:dev.opcua:test:milo:listeners:server").hostNames("127.0.0.1").build();
        EndpointConfig endpoint = EndpointConfig.newBuilder()
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .setBindAddress("127.0.0.1").setBindPort(port).setHostname("127.0.0.1").setPath(PATH)
                .setCertificate(certificate.certificate())
                .setSecurityPolicy(SecurityPolicy.None).setSecurityMode(MessageSecurityMode.None)
                .addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS)
                .build();
        MemoryTrustListManager trustList = new MemoryTrustListManager();
        MemoryCertificateQuarantine quarantine = new MemoryCertificateQuarantine();
        MemoryCertificateStore store = new MemoryCertificateStore();
        store.set(NodeIds.RsaSha256ApplicationCertificateType, new CertificateStore.Entry(certificate.privateKey(),
                new X509Certificate[] {certificate.certificate()}));
        DefaultApplicationGroup group = DefaultApplicationGroup.createAndInitialize(trustList, store,
                new RsaSha256CertificateFactory() {
                    @Override
                    protected X509Certificate[] createRsaSha256CertificateChain(KeyPair keyPair) {
                        throw new IllegalStateException("the test server's certificate is given");
                    }
                }, new DefaultServerCertificateValidator(trustList, quarantine));
        OpcUaServerConfig config = OpcUaServerConfig.builder()
                .setApplicationUri("urn:dev.opcua:test:milo:listeners:server")
                .setProductUri("urn:dev.opcua:test")
                .setApplicationName(org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText.english(
                        "listener test peer"))
                .setEndpoints(java.util.Set.of(endpoint))
                .setCertificateManager(new DefaultCertificateManager(quarantine, group))
                .setIdentityValidator(AnonymousIdentityValidator.INSTANCE)
                .build();
        OpcUaServer milo = new OpcUaServer(config, profile -> new OpcTcpServerTransport(
                OpcTcpServerTransportConfig.newBuilder().build()));
        Namespace namespace = new Namespace(milo);
        namespace.startup();
        milo.startup().get(20, TimeUnit.SECONDS);
        return new MiloTestServer(milo, namespace, port);
    }

    public String endpointUrl() {
        return "opc.tcp://127.0.0.1:" + port + PATH;
    }

    /** Sets {@code s=Speed}, as a device would. */
    public void setSpeed(double value) {
        namespace.speed.setValue(new DataValue(new Variant(value), StatusCode.GOOD, DateTime.now()));
    }

    /** Fires a BaseEventType event of the Server object. */
    public void fireEvent(int severity, String message) throws Exception {
        namespace.fireEvent(severity, message);
    }

    @Override
    public void close() throws Exception {
        namespace.shutdown();
        server.shutdown().get(20, TimeUnit.SECONDS);
    }

    private static final class Namespace extends ManagedNamespaceWithLifecycle {

        private final SubscriptionModel subscriptionModel;
        private UaVariableNode speed;

        Namespace(OpcUaServer server) {
            super(server, NAMESPACE_URI);
            subscriptionModel = new SubscriptionModel(server, this);
            getLifecycleManager().addLifecycle(subscriptionModel);
            getLifecycleManager().addStartupTask(this::createNodes);
        }

        private void createNodes() {
            speed = new UaVariableNode.UaVariableNodeBuilder(getNodeContext())
                    .setNodeId(newNodeId("Speed"))
                    .setAccessLevel(AccessLevel.READ_WRITE)
                    .setUserAccessLevel(AccessLevel.READ_WRITE)
                    .setBrowseName(newQualifiedName("Speed"))
                    .setDisplayName(LocalizedText.english("Speed"))
                    .setDataType(NodeIds.Double)
                    .setValueRank(ValueRanks.Scalar)
                    .setTypeDefinition(NodeIds.BaseDataVariableType)
                    .build();
            speed.setValue(new DataValue(new Variant(0.0), StatusCode.GOOD, DateTime.now()));
            getNodeManager().addNode(speed);
            speed.addReference(new Reference(speed.getNodeId(), NodeIds.Organizes, NodeIds.ObjectsFolder.expanded(),
                    false));
            // the Server object notifies of events only with SubscribeToEvents set (Part 3, 5.5.2)
            if (getServer().getAddressSpaceManager().getManagedNode(NodeIds.Server).orElse(null)
                    instanceof ServerTypeNode serverNode) {
                serverNode.setEventNotifier(ubyte(1));
            }
        }

        void fireEvent(int severity, String message) throws Exception {
            BaseEventTypeNode event = getServer().getEventFactory().createEvent(newNodeId(UUID.randomUUID()),
                    NodeIds.BaseEventType);
            try {
                event.setBrowseName(newQualifiedName("event"));
                event.setDisplayName(LocalizedText.english("event"));
                event.setEventId(ByteString.of(UUID.randomUUID().toString().getBytes()));
                event.setEventType(NodeIds.BaseEventType);
                event.setSourceNode(NodeIds.Server);
                event.setSourceName("Server");
                event.setTime(DateTime.now());
                event.setReceiveTime(DateTime.NULL_VALUE);
                event.setMessage(LocalizedText.english(message));
                event.setSeverity(ushort(severity));
                getServer().getEventNotifier().fire(event);
            } finally {
                event.delete();
            }
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
    }
}
