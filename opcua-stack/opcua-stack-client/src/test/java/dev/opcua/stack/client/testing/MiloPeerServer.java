package dev.opcua.stack.client.testing;

import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ubyte;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.client.session.TestCertificates;
import dev.opcua.stack.core.security.ApplicationCertificate;
import io.netty.channel.Channel;
import io.netty.channel.ChannelPipeline;
import java.io.IOException;
import java.net.ServerSocket;
import java.security.KeyPair;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.awaitility.core.ConditionTimeoutException;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfigLimits;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.identity.CompositeValidator;
import org.eclipse.milo.opcua.sdk.server.identity.UsernameIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.identity.X509IdentityValidator;
import org.eclipse.milo.opcua.sdk.server.model.objects.ServerTypeNode;
import org.eclipse.milo.opcua.sdk.server.nodes.UaVariableNode;
import org.eclipse.milo.opcua.sdk.server.servicesets.impl.DefaultMonitoredItemServiceSet;
import org.eclipse.milo.opcua.sdk.server.servicesets.impl.DefaultViewServiceSet;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.UaException;
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
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UByte;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.UserTokenType;
import org.eclipse.milo.opcua.stack.core.types.structured.UserTokenPolicy;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * An Eclipse Milo 1.1.2 server on 127.0.0.1, the interop peer of the client tests.
 *
 * <p><b>Endpoints</b> at {@link #endpointUrl()}: None, and each of Basic128Rsa15, Basic256,
 * Basic256Sha256, Aes128_Sha256_RsaOaep and Aes256_Sha256_RsaPss in Sign and SignAndEncrypt. Its
 * application certificate and the client certificates it trusts are given (BouncyCastle, see
 * {@link TestCertificates}); Milo's trust list and certificate validator decide as in production.
 * Users: anonymous, {@value #USER} / {@value #PASSWORD}, and the one X.509 user certificate it is
 * given. Token policies: Milo's defaults (user name and certificate under Basic256Sha256) on every
 * endpoint but Aes256_Sha256_RsaPss, whose user name policy names that policy and whose certificate
 * policy names none, so that the channel's policy signs.
 *
 * <p><b>Address space</b>, namespace {@value #NAMESPACE_URI} at index {@value #NAMESPACE_INDEX}
 * (after Part 5's namespace 0 and Milo's own server namespace 1; {@link #start} checks it),
 * organized by the Objects folder, string identifiers:
 * <ul>
 * <li>writable variables {@value #DOUBLE} (Double, 0.0), {@value #INT32} (Int32, 0), {@value #STRING}
 * (String, ""), {@value #BOOLEAN} (Boolean, false), {@value #DOUBLE_ARRAY} (Double[], {1, 2, 3}),
 * {@value #BYTE} (Byte, 0); read-only {@value #READ_ONLY} (Int32, {@value #READ_ONLY_VALUE});</li>
 * <li>folder {@value #MANY}, organizing {@link Builder#manyVariables} Int32 variables
 * {@code Many.0}, {@code Many.1}, ... of value {@code i} (see {@link #manyChild}); a Browse returns at
 * most {@link Builder#maxReferencesPerBrowse} references per node (default
 * {@value #DEFAULT_MAX_REFERENCES_PER_BROWSE}) with a continuation point for BrowseNext. Milo has no
 * setting for this and obeys the client's requestedMaxReferencesPerNode alone; the fixture lowers
 * that field in front of Milo's View service set;</li>
 * <li>object {@value #METHODS} with method {@value #ADD}: {@code Add(Int32 a, Int32 b) -> Int32};</li>
 * <li>the Server object (i=2253) notifies of events: {@link #emitEvent}.</li>
 * </ul>
 *
 * <p><b>OperationLimits</b> (Part 5, 6.3.11) are advertised by Milo under
 * Server/ServerCapabilities/OperationLimits and refused over the limit with BadTooManyOperations:
 * by Milo itself for Read, Write, Browse, Call, TranslateBrowsePathsToNodeIds and RegisterNodes;
 * by the fixture, in front of Milo's MonitoredItem service set, for MaxMonitoredItemsPerCall, which
 * Milo 1.1.2 advertises but does not check.
 *
 * <p><b>Restart</b>: the port is chosen at {@link Builder#start} and kept; {@link #stop} shuts Milo
 * down (every connection closed, every session and subscription gone), {@link #start()} starts a new
 * Milo server on the same port whose variables hold the values the stopped one held.
 *
 * <p>Milo's types stay in this package; the API speaks Java types. Thread-safe.
 */
public final class MiloPeerServer implements AutoCloseable {

    public static final String NAMESPACE_URI = "urn:dev.opcua:test:milo";
    public static final int NAMESPACE_INDEX = 2;
    public static final String PATH = "/milo";
    public static final String USER = "user";
    public static final String PASSWORD = "password1";
    public static final String USER_NAME_POLICY_PSS = "username-pss";
    public static final String CERTIFICATE_POLICY_PSS = "certificate-pss";

    public static final String DOUBLE = "Double";
    public static final String INT32 = "Int32";
    public static final String STRING = "String";
    public static final String BOOLEAN = "Boolean";
    public static final String DOUBLE_ARRAY = "DoubleArray";
    public static final String BYTE = "Byte";
    public static final String READ_ONLY = "ReadOnly";
    public static final int READ_ONLY_VALUE = 42;
    public static final String MANY = "Many";
    public static final String METHODS = "Methods";
    public static final String ADD = "Methods.Add";

    public static final int DEFAULT_MANY_VARIABLES = 1_500;
    public static final int DEFAULT_MAX_REFERENCES_PER_BROWSE = 100;

    private static final String CERTIFICATE_NAME = "milo-server";
    private static final Duration START_TIMEOUT = Duration.ofSeconds(20);
    /** How long a restart retries to bind the port a moment ago closed. */
    private static final Duration REBIND_PATIENCE = Duration.ofSeconds(5);
    private static final List<SecurityPolicy> POLICIES = List.of(SecurityPolicy.Basic128Rsa15, SecurityPolicy.Basic256,
            SecurityPolicy.Basic256Sha256, SecurityPolicy.Aes128_Sha256_RsaOaep, SecurityPolicy.Aes256_Sha256_RsaPss);

    private final Builder options;
    private final int port;
    private final String endpointUrl;
    private final boolean addedProvider;
    /** The connections Milo accepted and has not closed yet. */
    private final Set<Channel> connections = ConcurrentHashMap.newKeySet();
    /** The variables' values while stopped, in Milo's types; the seed of the next start. */
    private Map<String, Object> values = new LinkedHashMap<>();
    private OpcUaServer server;
    private MiloPeerNamespace namespace;
    private int serviceLevel = 255;
    private boolean closed;

    private MiloPeerServer(Builder options, int port, boolean addedProvider) {
        this.options = options;
        this.port = port;
        this.endpointUrl = "opc.tcp://127.0.0.1:" + port + PATH;
        this.addedProvider = addedProvider;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The string identifier of the {@code i}-th variable of the {@value #MANY} folder: {@code Many.<i>}. */
    public static String manyChild(int i) {
        return MANY + "." + i;
    }

    /** opc.tcp://127.0.0.1:port/milo, the same across restarts. */
    public String endpointUrl() {
        return endpointUrl;
    }

    public int port() {
        return port;
    }

    /** {@value #NAMESPACE_INDEX}, the index of {@value #NAMESPACE_URI} in Milo's namespace table. */
    public int namespaceIndex() {
        return NAMESPACE_INDEX;
    }

    /** The OperationLimits Milo advertises and enforces. */
    public OperationLimits operationLimits() {
        return options.limits;
    }

    /** Sessions Milo holds now (created, activated or not); 0 while stopped. */
    public synchronized int sessionCount() {
        return server == null ? 0 : server.getSessionManager().getCurrentSessionCount().intValue();
    }

    /** Subscriptions Milo holds now, of every session; 0 while stopped. */
    public synchronized int subscriptionCount() {
        return server == null ? 0 : server.getSubscriptions().size();
    }

    /** The ids of the subscriptions Milo holds now, of every session; empty while stopped. */
    public synchronized java.util.Set<Long> subscriptionIds() {
        java.util.Set<Long> ids = new java.util.TreeSet<>();
        if (server != null) {
            server.getSubscriptions().keySet().forEach(id -> ids.add(id.longValue()));
        }
        return ids;
    }

    public synchronized boolean isRunning() {
        return server != null;
    }

    /**
     * Starts Milo again on the same port after {@link #stop}, with no session or subscription and the
     * variables' last values; does nothing while running.
     *
     * @throws IllegalStateException if closed, or the port stays taken for {@code 5 s}
     */
    public synchronized void start() throws Exception {
        if (closed) {
            throw new IllegalStateException("closed");
        }
        if (server != null) {
            return;
        }
        // The port may be held a moment after stop (Milo's binding fails with an ExecutionException): try again.
        // In this thread, which holds this server's lock.
        try {
            await("Milo bound to 127.0.0.1:" + port).atMost(REBIND_PATIENCE).pollDelay(Duration.ZERO)
                    .pollInterval(Duration.ofMillis(50)).pollInSameThread()
                    .ignoreExceptionsInstanceOf(ExecutionException.class).until(() -> {
                        startMilo();
                        return true;
                    });
        } catch (ConditionTimeoutException e) {
            throw new IllegalStateException("Milo could not bind 127.0.0.1:" + port + " again", e);
        }
    }

    /**
     * Shuts Milo down as a server process that stops: the listening socket and every connection are
     * closed, sessions and subscriptions are lost. The variables keep their values. Does nothing
     * while stopped.
     */
    public synchronized void stop() {
        if (server == null) {
            return;
        }
        values = namespace.values();
        try {
            namespace.shutdown();
        } finally {
            try {
                server.shutdown().get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (ExecutionException | TimeoutException e) {
                throw new IllegalStateException("Milo did not shut down", e);
            } finally {
                server = null;
                namespace = null;
            }
            awaitConnectionsClosed();
        }
    }

    /** Remembers a connection Milo accepted until it closes. */
    private void track(ChannelPipeline pipeline) {
        Channel connection = pipeline.channel();
        connections.add(connection);
        connection.closeFuture().addListener(closed -> connections.remove(connection));
    }

    /**
     * Milo's shutdown closes its connections without waiting for them (one of them may still answer a
     * request that arrives meanwhile, seen once in CI), so stop waits until each is closed.
     */
    private void awaitConnectionsClosed() {
        for (Channel connection : List.copyOf(connections)) {
            connection.close();
            if (!connection.closeFuture().awaitUninterruptibly(START_TIMEOUT.toMillis())) {
                throw new IllegalStateException("Milo's connection " + connection + " did not close");
            }
        }
    }

    /**
     * Sets a variable's value, as a device would: Read returns it and data change monitored items
     * report it at their next sample. Java types by data type: Double, Integer (Int32), String,
     * Boolean, double[] or Double[] (DoubleArray), Short or Integer 0..255 (Byte). While stopped the
     * value is kept for the next start.
     *
     * @param id the string identifier, e.g. {@value #DOUBLE} or {@code manyChild(7)}
     * @throws IllegalArgumentException if there is no such variable or the value is of another type
     */
    public synchronized void setValue(String id, Object value) {
        Object milo = toMilo(id, value);
        if (server == null) {
            if (!values.containsKey(id)) {
                throw new IllegalArgumentException("no variable s=" + id);
            }
            values.put(id, milo);
        } else {
            variable(id).setValue(new DataValue(new Variant(milo), StatusCode.GOOD, DateTime.now()));
        }
    }

    /**
     * A variable's value in the Java types our stack's Variant holds (Double, Integer, String,
     * Boolean, double[] for DoubleArray, Short for Byte), e.g. to see a client's Write.
     *
     * @throws IllegalArgumentException if there is no such variable
     */
    public synchronized Object value(String id) {
        Object milo;
        if (server == null) {
            if (!values.containsKey(id)) {
                throw new IllegalArgumentException("no variable s=" + id);
            }
            milo = values.get(id);
        } else {
            milo = variable(id).getValue().value().value();
        }
        if (milo instanceof UByte b) {
            return (short) b.intValue();
        }
        if (milo instanceof Double[] doubles) {
            return Arrays.stream(doubles).mapToDouble(Double::doubleValue).toArray();
        }
        return milo;
    }

    /**
     * Fires a BaseEventType event with the Server object (i=2253) as notifier and SourceNode,
     * SourceName "Server", Time now, and the given Severity and Message (locale "en"): event
     * monitored items on the Server object receive it.
     *
     * @param severity 1..1000 (Part 5, 6.4.2)
     * @return its EventId, 16 random bytes
     * @throws IllegalStateException while stopped
     */
    public synchronized byte[] emitEvent(int severity, String message) {
        if (severity < 1 || severity > 1000) {
            throw new IllegalArgumentException("severity " + severity + " is outside 1..1000");
        }
        if (server == null) {
            throw new IllegalStateException("stopped");
        }
        try {
            return namespace.fireEvent(severity, message).bytesOrEmpty();
        } catch (UaException e) {
            throw new IllegalStateException("Milo could not create the event", e);
        }
    }

    /** Stops Milo; the fixture cannot start again. Idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            stop();
        } finally {
            if (addedProvider) {
                // Later test classes in this JVM must not lean on a provider production code lacks.
                Security.removeProvider(BouncyCastleProvider.PROVIDER_NAME);
            }
        }
    }

    private UaVariableNode variable(String id) {
        UaVariableNode node = namespace.variable(id);
        if (node == null) {
            throw new IllegalArgumentException("no variable s=" + id);
        }
        return node;
    }

    private static Object toMilo(String id, Object value) {
        Objects.requireNonNull(value, "value");
        Class<?> expected;
        if (id.equals(DOUBLE)) {
            expected = Double.class;
        } else if (id.equals(INT32) || id.equals(READ_ONLY) || id.startsWith(MANY + ".")) {
            expected = Integer.class;
        } else if (id.equals(STRING)) {
            expected = String.class;
        } else if (id.equals(BOOLEAN)) {
            expected = Boolean.class;
        } else if (id.equals(DOUBLE_ARRAY)) {
            if (value instanceof double[] doubles) {
                return Arrays.stream(doubles).boxed().toArray(Double[]::new);
            }
            expected = Double[].class;
        } else if (id.equals(BYTE)) {
            if ((value instanceof Short || value instanceof Integer) && ((Number) value).intValue() >= 0
                    && ((Number) value).intValue() <= 255) {
                return ubyte(((Number) value).intValue());
            }
            throw new IllegalArgumentException("s=Byte takes a Short or Integer 0..255, not "
                    + value.getClass().getName() + " " + value);
        } else {
            throw new IllegalArgumentException("no variable s=" + id);
        }
        if (!expected.isInstance(value)) {
            throw new IllegalArgumentException("s=" + id + " takes a " + expected.getSimpleName() + ", not "
                    + value.getClass().getName());
        }
        return value;
    }

    /** Builds Milo's server on {@link #port} and starts it; on failure nothing stays bound. */
    private void startMilo() throws Exception {
        OpcUaServer milo = new OpcUaServer(config(), profile -> new OpcTcpServerTransport(
                OpcTcpServerTransportConfig.newBuilder().setChannelPipelineCustomizer(this::track).build()));
        if (options.maxReferencesPerBrowse > 0) {
            milo.addServiceSet(PATH, MiloServiceSetLimits.capReferences(new DefaultViewServiceSet(milo),
                    options.maxReferencesPerBrowse));
        }
        milo.addServiceSet(PATH, MiloServiceSetLimits.limitItemsPerCall(new DefaultMonitoredItemServiceSet(milo),
                options.limits.maxMonitoredItemsPerCall()));
        MiloPeerNamespace peer = new MiloPeerNamespace(milo, values, options.manyVariables);
        peer.startup();
        try {
            int index = peer.getNamespaceIndex().intValue();
            if (index != NAMESPACE_INDEX) {
                throw new IllegalStateException(NAMESPACE_URI + " has index " + index + ", not " + NAMESPACE_INDEX);
            }
            milo.startup().get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception | Error e) {
            peer.shutdown();
            milo.shutdown();
            throw e;
        }
        server = milo;
        namespace = peer;
        applyServiceLevel();
    }

    /**
     * Sets the Server object's ServiceLevel (Part 5, 6.3.1, i=2267), as a server of a redundant set reports
     * its health (Part 4, 6.6.2.4.2): Milo 1.1.2's Server node is a {@code ServerTypeNode}, whose
     * {@code setServiceLevel(UByte)} sets the property's value. Milo starts at 255; kept across a restart.
     *
     * @param level 0..255
     */
    public synchronized void setServiceLevel(int level) {
        if (level < 0 || level > 255) {
            throw new IllegalArgumentException("ServiceLevel " + level + " is outside 0..255");
        }
        serviceLevel = level;
        if (server != null) {
            applyServiceLevel();
        }
    }

    private void applyServiceLevel() {
        ServerTypeNode node = (ServerTypeNode) server.getAddressSpaceManager().getManagedNode(NodeIds.Server)
                .orElseThrow(() -> new IllegalStateException("Milo has no Server node"));
        node.setServiceLevel(ubyte(serviceLevel));
    }

    private OpcUaServerConfig config() throws Exception {
        EndpointConfig.Builder base = EndpointConfig.newBuilder()
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .setBindAddress("127.0.0.1")
                .setBindPort(port)
                .setHostname("127.0.0.1")
                .setPath(PATH)
                .setCertificate(options.certificate.certificate());
        Set<EndpointConfig> endpoints = new LinkedHashSet<>();
        endpoints.add(base.copy().setSecurityPolicy(SecurityPolicy.None).setSecurityMode(MessageSecurityMode.None)
                .addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS,
                        OpcUaServerConfig.USER_TOKEN_POLICY_USERNAME)
                .build());
        for (SecurityPolicy policy : POLICIES) {
            for (MessageSecurityMode mode : List.of(MessageSecurityMode.Sign, MessageSecurityMode.SignAndEncrypt)) {
                EndpointConfig.Builder endpoint = base.copy().setSecurityPolicy(policy).setSecurityMode(mode)
                        .addTokenPolicy(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS);
                if (policy == SecurityPolicy.Aes256_Sha256_RsaPss) {
                    endpoint.addTokenPolicies(
                            new UserTokenPolicy(USER_NAME_POLICY_PSS, UserTokenType.UserName, null, null, policy.getUri()),
                            new UserTokenPolicy(CERTIFICATE_POLICY_PSS, UserTokenType.Certificate, null, null, null));
                } else {
                    endpoint.addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_USERNAME,
                            OpcUaServerConfig.USER_TOKEN_POLICY_X509);
                }
                endpoints.add(endpoint.build());
            }
        }

        MemoryTrustListManager trustList = new MemoryTrustListManager();
        options.trustedClients.forEach(trustList::addTrustedCertificate);
        MemoryCertificateQuarantine quarantine = new MemoryCertificateQuarantine();
        MemoryCertificateStore store = new MemoryCertificateStore();
        store.set(NodeIds.RsaSha256ApplicationCertificateType, new CertificateStore.Entry(
                options.certificate.privateKey(), new X509Certificate[] {options.certificate.certificate()}));
        DefaultApplicationGroup group = DefaultApplicationGroup.createAndInitialize(trustList, store,
                new RsaSha256CertificateFactory() {
                    @Override
                    protected X509Certificate[] createRsaSha256CertificateChain(KeyPair keyPair) {
                        throw new IllegalStateException("the test server's certificate is given, never created");
                    }
                }, new DefaultServerCertificateValidator(trustList, quarantine));

        X509Certificate x509User = options.x509User;
        return OpcUaServerConfig.builder()
                .setApplicationUri(options.applicationUri)
                .setProductUri("urn:dev.opcua:test")
                .setApplicationName(LocalizedText.english("opcua-java client interop peer"))
                .setEndpoints(endpoints)
                .setCertificateManager(new DefaultCertificateManager(quarantine, group))
                .setIdentityValidator(new CompositeValidator(AnonymousIdentityValidator.INSTANCE,
                        new UsernameIdentityValidator(challenge -> USER.equals(challenge.getUsername())
                                && PASSWORD.equals(challenge.getPassword())),
                        new X509IdentityValidator(certificate -> x509User != null && x509User.equals(certificate))))
                .setLimits(options.limits.toMilo())
                .build();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /**
     * The OperationLimits (Part 5, 6.3.11) the server advertises and enforces; each at least 1 (Milo
     * would enforce 0, "no limit" in Part 5, as zero). Milo's defaults: {@link #MILO_DEFAULTS}.
     */
    public record OperationLimits(long maxNodesPerRead, long maxNodesPerWrite, long maxNodesPerBrowse,
            long maxNodesPerMethodCall, long maxNodesPerTranslateBrowsePathsToNodeIds, long maxNodesPerRegisterNodes,
            long maxMonitoredItemsPerCall) {

        public static final OperationLimits MILO_DEFAULTS = new OperationLimits(10_000, 10_000, 250, 250, 250, 250,
                10_000);

        public OperationLimits {
            for (long limit : new long[] {maxNodesPerRead, maxNodesPerWrite, maxNodesPerBrowse, maxNodesPerMethodCall,
                    maxNodesPerTranslateBrowsePathsToNodeIds, maxNodesPerRegisterNodes, maxMonitoredItemsPerCall}) {
                if (limit < 1 || limit > UInteger.MAX_VALUE) {
                    throw new IllegalArgumentException("an operation limit must be 1.." + UInteger.MAX_VALUE + ": "
                            + limit);
                }
            }
        }

        public OperationLimits withMaxNodesPerRead(long limit) {
            return new OperationLimits(limit, maxNodesPerWrite, maxNodesPerBrowse, maxNodesPerMethodCall,
                    maxNodesPerTranslateBrowsePathsToNodeIds, maxNodesPerRegisterNodes, maxMonitoredItemsPerCall);
        }

        public OperationLimits withMaxNodesPerWrite(long limit) {
            return new OperationLimits(maxNodesPerRead, limit, maxNodesPerBrowse, maxNodesPerMethodCall,
                    maxNodesPerTranslateBrowsePathsToNodeIds, maxNodesPerRegisterNodes, maxMonitoredItemsPerCall);
        }

        public OperationLimits withMaxNodesPerBrowse(long limit) {
            return new OperationLimits(maxNodesPerRead, maxNodesPerWrite, limit, maxNodesPerMethodCall,
                    maxNodesPerTranslateBrowsePathsToNodeIds, maxNodesPerRegisterNodes, maxMonitoredItemsPerCall);
        }

        public OperationLimits withMaxNodesPerMethodCall(long limit) {
            return new OperationLimits(maxNodesPerRead, maxNodesPerWrite, maxNodesPerBrowse, limit,
                    maxNodesPerTranslateBrowsePathsToNodeIds, maxNodesPerRegisterNodes, maxMonitoredItemsPerCall);
        }

        public OperationLimits withMaxNodesPerTranslateBrowsePathsToNodeIds(long limit) {
            return new OperationLimits(maxNodesPerRead, maxNodesPerWrite, maxNodesPerBrowse, maxNodesPerMethodCall,
                    limit, maxNodesPerRegisterNodes, maxMonitoredItemsPerCall);
        }

        public OperationLimits withMaxNodesPerRegisterNodes(long limit) {
            return new OperationLimits(maxNodesPerRead, maxNodesPerWrite, maxNodesPerBrowse, maxNodesPerMethodCall,
                    maxNodesPerTranslateBrowsePathsToNodeIds, limit, maxMonitoredItemsPerCall);
        }

        public OperationLimits withMaxMonitoredItemsPerCall(long limit) {
            return new OperationLimits(maxNodesPerRead, maxNodesPerWrite, maxNodesPerBrowse, maxNodesPerMethodCall,
                    maxNodesPerTranslateBrowsePathsToNodeIds, maxNodesPerRegisterNodes, limit);
        }

        OpcUaServerConfigLimits toMilo() {
            return new OpcUaServerConfigLimits() {
                @Override
                public UInteger getMaxNodesPerRead() {
                    return uint(maxNodesPerRead);
                }

                @Override
                public UInteger getMaxNodesPerWrite() {
                    return uint(maxNodesPerWrite);
                }

                @Override
                public UInteger getMaxNodesPerBrowse() {
                    return uint(maxNodesPerBrowse);
                }

                @Override
                public UInteger getMaxNodesPerMethodCall() {
                    return uint(maxNodesPerMethodCall);
                }

                @Override
                public UInteger getMaxNodesPerTranslateBrowsePathsToNodeIds() {
                    return uint(maxNodesPerTranslateBrowsePathsToNodeIds);
                }

                @Override
                public UInteger getMaxNodesPerRegisterNodes() {
                    return uint(maxNodesPerRegisterNodes);
                }

                @Override
                public UInteger getMaxMonitoredItemsPerCall() {
                    return uint(maxMonitoredItemsPerCall);
                }
            };
        }
    }

    /** Options of a {@link MiloPeerServer}; {@link #start()} binds a free port and starts Milo. */
    public static final class Builder {

        private String applicationUri = TestCertificates.applicationUri(CERTIFICATE_NAME);
        private ApplicationCertificate certificate = TestCertificates.get(CERTIFICATE_NAME);
        private List<X509Certificate> trustedClients = List.of();
        private X509Certificate x509User;
        private int manyVariables = DEFAULT_MANY_VARIABLES;
        private int maxReferencesPerBrowse = DEFAULT_MAX_REFERENCES_PER_BROWSE;
        private OperationLimits limits = OperationLimits.MILO_DEFAULTS;

        private Builder() {
        }

        private Builder(Builder other) {
            applicationUri = other.applicationUri;
            certificate = other.certificate;
            trustedClients = other.trustedClients;
            x509User = other.x509User;
            manyVariables = other.manyVariables;
            maxReferencesPerBrowse = other.maxReferencesPerBrowse;
            limits = other.limits;
        }

        /**
         * Milo's application instance certificate and URI (the URI in its certificate); default
         * {@code TestCertificates.get("milo-server")}.
         */
        public Builder certificate(String applicationUri, ApplicationCertificate certificate) {
            this.applicationUri = Objects.requireNonNull(applicationUri, "applicationUri");
            this.certificate = Objects.requireNonNull(certificate, "certificate");
            return this;
        }

        /** Client application certificates Milo trusts on secured channels; default none. */
        public Builder trustedClients(List<X509Certificate> trustedClients) {
            this.trustedClients = List.copyOf(trustedClients);
            return this;
        }

        /** The only user certificate Milo accepts as an X.509 identity; default none. */
        public Builder x509User(X509Certificate x509User) {
            this.x509User = x509User;
            return this;
        }

        /** How many variables the {@value #MANY} folder organizes; default {@value #DEFAULT_MANY_VARIABLES}. */
        public Builder manyVariables(int manyVariables) {
            if (manyVariables < 0) {
                throw new IllegalArgumentException("manyVariables " + manyVariables);
            }
            this.manyVariables = manyVariables;
            return this;
        }

        /**
         * The most references per node a Browse or BrowseNext returns, whatever the client asks for;
         * 0 leaves it to the client's requestedMaxReferencesPerNode, as Milo does. Default
         * {@value #DEFAULT_MAX_REFERENCES_PER_BROWSE}.
         */
        public Builder maxReferencesPerBrowse(int maxReferencesPerBrowse) {
            if (maxReferencesPerBrowse < 0) {
                throw new IllegalArgumentException("maxReferencesPerBrowse " + maxReferencesPerBrowse);
            }
            this.maxReferencesPerBrowse = maxReferencesPerBrowse;
            return this;
        }

        /** The OperationLimits Milo advertises and enforces; default {@link OperationLimits#MILO_DEFAULTS}. */
        public Builder operationLimits(OperationLimits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /** Chooses a free port, kept for the fixture's life, and starts Milo on it. */
        public MiloPeerServer start() throws Exception {
            // Milo names RSA-OAEP-SHA256 "RSA/ECB/OAEPWithSHA256AndMGF1Padding", which only BouncyCastle's
            // provider knows (the JDK spells it SHA-256); without it Milo drops every Aes256_Sha256_RsaPss
            // OpenSecureChannel with NoSuchAlgorithmException. Added last, so our stack keeps the JDK's providers.
            boolean addedProvider = Security.getProvider(BouncyCastleProvider.PROVIDER_NAME) == null
                    && Security.addProvider(new BouncyCastleProvider()) > 0;
            MiloPeerServer server = new MiloPeerServer(new Builder(this), freePort(), addedProvider);
            try {
                server.start();
                return server;
            } catch (Exception | Error e) {
                server.close();
                throw e;
            }
        }
    }
}
