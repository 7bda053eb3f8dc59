package dev.opcua.stack.client;

import dev.opcua.stack.client.connection.ConnectionManager;
import dev.opcua.stack.client.redundancy.FailoverListener;
import dev.opcua.stack.client.redundancy.RedundancyManager;
import dev.opcua.stack.client.redundancy.RedundancyStatus;
import dev.opcua.stack.client.services.AttributeServices;
import dev.opcua.stack.client.services.MethodServices;
import dev.opcua.stack.client.services.NamespaceTable;
import dev.opcua.stack.client.services.NodeManagementServices;
import dev.opcua.stack.client.services.OperationLimits;
import dev.opcua.stack.client.services.ServiceInvoker;
import dev.opcua.stack.client.services.VariableTypes;
import dev.opcua.stack.client.services.VariantConversion;
import dev.opcua.stack.client.services.ViewServices;
import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.ClientSubscriptions;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaResponseMessage;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.BrowseDirection;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.AddNodesItem;
import dev.opcua.stack.core.types.structured.AddNodesResult;
import dev.opcua.stack.core.types.structured.AddReferencesItem;
import dev.opcua.stack.core.types.structured.BrowseDescription;
import dev.opcua.stack.core.types.structured.BrowsePath;
import dev.opcua.stack.core.types.structured.BrowsePathResult;
import dev.opcua.stack.core.types.structured.BrowseResult;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.DeleteNodesItem;
import dev.opcua.stack.core.types.structured.DeleteReferencesItem;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.WriteValue;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An OPC UA client: the one object an application holds to talk to one server. It chooses the
 * endpoint from GetEndpoints, opens a secure channel and a session, reads the server's NamespaceArray
 * and OperationLimits, keeps the connection alive and re-establishes it when it is lost (see
 * {@link ConnectionManager}), and offers the services of Part 4 as {@link CompletableFuture}s, with
 * blocking conveniences in {@link #blocking()}.
 *
 * <pre>{@code
 * OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder("opc.tcp://plc:4840/")
 *         .identity(ClientIdentity.userName("operator", secret)).pkiDir(Path.of("pki")).build());
 * client.connect().get();
 * DataValue speed = client.readValue(client.nodeId("nsu=urn:acme:line1;s=Line1.Speed")).get();
 * }</pre>
 *
 * <p>Requests larger than the server's OperationLimits are split and their results joined in order.
 * Thread-safe; futures complete on the client's callback executor, never on an I/O thread.
 */
public final class OpcUaClient implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(OpcUaClient.class);
    /** Every reference type below HierarchicalReferences, forward, all node classes, all result fields. */
    private static final int ALL_RESULT_FIELDS = 0x3F;
    // Handed to List.toArray, which then allocates the one array of the right size: a new empty array
    // per call is one more allocation whenever escape analysis does not remove it.
    private static final ReadValueId[] NO_READ_VALUE_IDS = {};
    private static final WriteValue[] NO_WRITE_VALUES = {};

    private final OpcUaClientConfig config;
    private final ConnectionManager connection;
    private final ServiceInvoker services;
    private final NamespaceTable namespaces = new NamespaceTable();
    private volatile OperationLimits operationLimits = OperationLimits.NONE;
    private final AttributeServices attributes;
    private final ViewServices views;
    private final MethodServices methods;
    private final NodeManagementServices nodeManagement;
    private final VariableTypes variableTypes;
    private final BlockingClient blocking;
    private final ClientSubscriptions subscriptions;
    private final RedundancyManager redundancy;

    private OpcUaClient(OpcUaClientConfig config) {
        this.config = config;
        this.connection = new ConnectionManager(config);
        this.services = connection.requests();
        this.attributes = new AttributeServices(services, this::operationLimits);
        this.views = new ViewServices(services, this::operationLimits);
        this.methods = new MethodServices(services, this::operationLimits);
        this.nodeManagement = new NodeManagementServices(services, this::operationLimits);
        this.variableTypes = new VariableTypes(attributes, views);
        this.blocking = new BlockingClient(this);
        this.subscriptions = new ClientSubscriptions(services, config.subscriptionSettings(),
                config.listenerExecutor(), config.resources().timer());
        subscriptions.setServerMaxItemsPerCall(() -> operationLimits.maxMonitoredItemsPerCall());
        subscriptions.setOnServerSilent(() -> connection.connectionLost(new UaException(StatusCodes.BadTimeout,
                "no Publish response within a subscription's keep-alive period: the server is silent")));
        // a Publish answered over the session is the keep-alive's sign of life: no Read while they arrive
        connection.keepAliveEvidence(subscriptions::lastPublishAnsweredNanos);
        subscriptions.setOnSessionInvalid(status -> connection.connectionLost(new UaException(status,
                "the server no longer knows the session (Publish answered " + status + ")")));
        connection.hooks(new ConnectionManager.Hooks() {
            @Override
            public CompletableFuture<Void> onSessionReady(boolean newSession, boolean firstConnect) {
                CompletableFuture<Void> ready = sessionReady(newSession);
                if (firstConnect) {
                    subscriptions.reopen(); // after a disconnect, which closed them
                    return ready;
                }
                // the subscriptions use the namespace table and limits read just before
                // after a failover the subscriptions' ids mean nothing to the new server: re-created there, or in
                // Hot mode the backup's mirrors taken over (Part 4, 6.6.2.4.5, Table 111)
                // consumed either way: a HotAndMirrored failover that kept its session is no switch for the hooks
                boolean switched = connection.takeServerSwitched();
                boolean otherServer = newSession && switched;
                return ready.handle((ok, failure) -> null).thenCompose(ignored -> otherServer
                        ? subscriptions.recreateAll()
                        : newSession ? subscriptions.sessionReplaced() : subscriptions.sessionReactivated(switched));
            }

            @Override
            public void onConnectionLost() {
                subscriptions.connectionLost();
            }
        });
        this.redundancy = config.redundancy() == null ? null : new RedundancyManager(this, connection, subscriptions);
    }

    /** A client with this configuration; nothing is connected until {@link #connect()}. */
    public static OpcUaClient create(OpcUaClientConfig config) {
        return new OpcUaClient(Objects.requireNonNull(config, "config"));
    }

    /** A client of {@code endpointUrl} with every default: anonymous, the most secure endpoint it can use. */
    public static OpcUaClient create(String endpointUrl) {
        return create(OpcUaClientConfig.builder(endpointUrl).build());
    }

    /** Namespace table and limits again: a restarted server may have changed both. */
    private CompletableFuture<Void> sessionReady(boolean newSession) {
        if (newSession) {
            variableTypes.clear();
        }
        CompletableFuture<Void> table = namespaces.refresh(services);
        CompletableFuture<Void> limits = OperationLimits.read(services).handle((l, failure) -> {
            if (failure != null) {
                log.info("the OperationLimits of {} could not be read ({}); requests are not split",
                        config.endpointUrl(), failure.toString());
                operationLimits = OperationLimits.NONE;
            } else {
                operationLimits = l;
            }
            return null;
        });
        return CompletableFuture.allOf(table, limits);
    }

    // ---- connection ------------------------------------------------------------------------------

    /**
     * Connects: GetEndpoints, endpoint selection, secure channel, CreateSession and ActivateSession,
     * then the NamespaceArray and OperationLimits. Completes with this client once CONNECTED; fails with
     * a {@link UaException} naming why (the state is DISCONNECTED again). Calling it while connected or
     * connecting returns the same outcome.
     */
    public CompletableFuture<OpcUaClient> connect() {
        if (redundancy != null && state() == ClientState.DISCONNECTED) {
            // the server with the highest ServiceLevel first
            return redundancy.beforeConnect().thenCompose(ok -> connection.connect()).thenApply(ok -> this);
        }
        return connection.connect().thenApply(ok -> this);
    }

    /**
     * Deletes the subscriptions (DeleteSubscriptions, best effort), closes the session and the channel;
     * completes once the socket is closed. The subscriptions' record is emptied: a later
     * {@link #connect()} starts without subscriptions.
     */
    public CompletableFuture<Void> disconnect() {
        if (redundancy != null) {
            redundancy.stop();
        }
        CompletableFuture<Void> deleted = subscriptions.close();
        if (connection.state() == ClientState.CONNECTED) {
            return deleted.thenCompose(ok -> connection.disconnect());
        }
        return connection.disconnect(); // DeleteSubscriptions, if it waits for a reconnect, fails with it
    }

    /**
     * {@link #disconnect()}, waiting for it up to the request timeout.
     *
     * @throws IllegalStateException on one of the client's I/O threads (in a future's continuation), where it would
     *         wait for itself: call {@link #disconnect()} there
     */
    @Override
    public void close() {
        ClientResources.checkMayBlock("OpcUaClient.close()");
        try {
            disconnect().get(config.requestTimeout().toMillis() * 2, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            log.debug("disconnect of {} did not finish cleanly: {}", config.endpointUrl(), e.toString());
        }
    }

    /**
     * Replaces the client's application instance certificate (a renewed one): the channels opened from
     * now on present it, the connection open now goes on with the one it was opened with.
     *
     * @throws IllegalArgumentException when it does not carry this client's ApplicationUri (Part 4, 6.1.3)
     */
    public void replaceCertificate(ApplicationCertificate certificate) {
        try {
            PkiCertificateValidator.checkApplicationUri(certificate.certificate(), config.applicationUri());
        } catch (UaException e) {
            throw new IllegalArgumentException("the new client certificate " + certificate + " does not fit this"
                    + " client: " + e.getMessage(), e);
        }
        connection.replaceCertificate(certificate);
        log.info("OPC UA client of {}: certificate replaced by {} (used from the next connect)", config.endpointUrl(),
                certificate);
    }

    /**
     * The client's application instance certificate that the next connection presents (given, loaded or
     * created in the PKI directory, or replaced since); null when the client has none (None only).
     */
    public ApplicationCertificate certificate() {
        return connection.certificate();
    }

    public ClientState state() {
        return connection.state();
    }

    public void addStateListener(ClientStateListener listener) {
        connection.addStateListener(listener);
    }

    public void removeStateListener(ClientStateListener listener) {
        connection.removeStateListener(listener);
    }

    /** Why the client last lost its connection or failed to connect; null when it never did. */
    public Throwable lastError() {
        return connection.lastError();
    }

    /**
     * When {@link #lastError()} happened; null when it never did. An error stays the last one after the
     * connection is back, so this says whether it is news or history.
     */
    public Instant lastErrorAt() {
        return connection.lastErrorAt();
    }

    /** How many times a lost connection was re-established. */
    public long reconnects() {
        return connection.reconnects();
    }

    public OpcUaClientConfig config() {
        return config;
    }

    // ---- redundancy -------------------------------------------------------------------------------

    /**
     * The endpoint URL of the server the connection goes to: the configured one, or with
     * {@link OpcUaClientConfig#redundancy()} the server of the redundant set the client connected to
     * last (Part 4, 6.6.2.4).
     */
    public String activeServer() {
        return connection.connectedUrl();
    }

    /** The redundant set, its ServiceLevels and the failovers so far; null without redundancy. */
    public RedundancyStatus redundancy() {
        return redundancy == null ? null : redundancy.status();
    }

    /**
     * Told of each failover to another server of the redundant set (after the client is CONNECTED
     * there, its subscriptions re-created); never without redundancy.
     */
    public void addFailoverListener(FailoverListener listener) {
        if (redundancy != null) {
            redundancy.addFailoverListener(listener);
        }
    }

    public void removeFailoverListener(FailoverListener listener) {
        if (redundancy != null) {
            redundancy.removeFailoverListener(listener);
        }
    }

    /** The endpoint chosen at the first connect; null before. */
    public EndpointDescription endpoint() {
        return connection.endpoint();
    }

    /** The session requests go to now; null while not connected. */
    public ClientSession session() {
        return connection.session();
    }

    /** The server's namespaces as last read. */
    public NamespaceTable namespaces() {
        return namespaces;
    }

    /** The server's OperationLimits as read at the last (re)connect; {@link OperationLimits#NONE} before. */
    public OperationLimits operationLimits() {
        return operationLimits;
    }

    /**
     * A node id from text, {@code nsu=} URIs resolved through the server's NamespaceArray
     * ({@code nsu=urn:acme:line1;s=Speed}, {@code ns=2;i=5}, {@code i=2253}).
     */
    public NodeId nodeId(String text) {
        return namespaces.parse(text);
    }

    /** Blocking forms of the common services. */
    public BlockingClient blocking() {
        return blocking;
    }

    // ---- subscriptions ----------------------------------------------------------------------------

    /**
     * The client's subscriptions (Part 4, 5.13): create them here; the client keeps its own record of
     * them and their items, keeps Publish requests outstanding, fills sequence-number gaps with
     * Republish, and restores them after a reconnect (Republish on the same session,
     * TransferSubscriptions to a new one, else re-creation).
     */
    public ClientSubscriptions subscriptions() {
        return subscriptions;
    }

    /** CreateSubscription with these parameters; see {@link ClientSubscriptions#create}. */
    public CompletableFuture<ClientSubscription> createSubscription(SubscriptionParameters parameters) {
        return subscriptions.create(parameters);
    }

    // ---- generic ----------------------------------------------------------------------------------

    /**
     * Sends any service request of the session: {@code build} makes it around the header it is given
     * (authentication token, request handle, timeoutHint). A ServiceFault fails the future with its status.
     */
    public <T extends UaResponseMessage> CompletableFuture<T> request(
            Function<RequestHeader, ? extends UaRequestMessage> build, Class<T> responseType) {
        return services.send(build, responseType);
    }

    // ---- attributes -------------------------------------------------------------------------------

    /** Read (Part 4, 5.10.2) with maxAge 0 and both timestamps; one DataValue per item, in order, unmodifiable. */
    public CompletableFuture<List<DataValue>> read(List<ReadValueId> nodesToRead) {
        return read(0, TimestampsToReturn.Both, nodesToRead);
    }

    /** Read (Part 4, 5.10.2); one DataValue per item, in order, in an unmodifiable list. */
    public CompletableFuture<List<DataValue>> read(double maxAge, TimestampsToReturn timestamps,
            List<ReadValueId> nodesToRead) {
        return attributes.read(maxAge, timestamps, nodesToRead.toArray(NO_READ_VALUE_IDS));
    }

    /** The Value attribute of one node, with both timestamps. */
    public CompletableFuture<DataValue> readValue(NodeId nodeId) {
        return attributes.readOne(new ReadValueId(nodeId, AttributeIds.Value, null, QualifiedName.NULL));
    }

    /** The Value attributes of several nodes, in order. */
    public CompletableFuture<List<DataValue>> readValues(List<NodeId> nodeIds) {
        ReadValueId[] ids = new ReadValueId[nodeIds.size()];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = new ReadValueId(nodeIds.get(i), AttributeIds.Value, null, QualifiedName.NULL);
        }
        return attributes.read(0, TimestampsToReturn.Both, ids);
    }

    /** Write (Part 4, 5.10.4); one StatusCode per item, in order. */
    public CompletableFuture<List<StatusCode>> write(List<WriteValue> nodesToWrite) {
        return attributes.write(nodesToWrite.toArray(NO_WRITE_VALUES)).thenApply(Arrays::asList);
    }

    /**
     * Writes a Java value to a variable's Value, converted to the variable's DataType and ValueRank
     * (read once per variable): a value that does not fit fails with BadTypeMismatch before anything
     * is written (see {@link VariantConversion}); a {@link Variant} is written as it is.
     *
     * @return the Write's result for the node (Good, BadNotWritable, BadUserAccessDenied ...)
     */
    public CompletableFuture<StatusCode> writeValue(NodeId nodeId, Object value) {
        CompletableFuture<Variant> converted = value instanceof Variant v ? CompletableFuture.completedFuture(v)
                : variableTypes.of(nodeId).thenApply(t -> VariantConversion.convert(value, t.type(), t.valueRank(),
                        nodeId.toString()));
        return converted.thenCompose(variant -> attributes.write(new WriteValue[] {new WriteValue(nodeId,
                AttributeIds.Value, null, DataValue.of(variant))})).thenApply(results -> results[0]);
    }

    /**
     * The built-in type and ValueRank a variable's Value holds (its DataType resolved to a built-in one), as
     * {@link #writeValue} converts to; read once per variable and session.
     */
    public CompletableFuture<VariableTypes.VariableType> variableType(NodeId variable) {
        return variableTypes.of(variable);
    }

    /** The built-in type a DataType is encoded as: itself, or its nearest built-in supertype (Part 3, 5.8.2). */
    public CompletableFuture<BuiltinType> builtinTypeOf(NodeId dataType) {
        return variableTypes.builtinTypeOf(dataType);
    }

    // ---- view -------------------------------------------------------------------------------------

    /** The hierarchical references of a node, forward, with all result fields, every page followed. */
    public CompletableFuture<List<ReferenceDescription>> browse(NodeId nodeId) {
        return browse(hierarchical(nodeId)).thenApply(r -> {
            if (r.statusCode().isBad()) {
                throw new UaException(r.statusCode(), "Browse of " + nodeId + " failed");
            }
            return r.references() == null ? List.of() : Arrays.asList(r.references());
        });
    }

    /** Browse (Part 4, 5.9.2) of one node with BrowseNext followed to the end. */
    public CompletableFuture<BrowseResult> browse(BrowseDescription node) {
        return views.browse(new BrowseDescription[] {node}, 0).thenApply(r -> r[0]);
    }

    /** Browse of several nodes with BrowseNext followed to the end; one result per node, in order. */
    public CompletableFuture<List<BrowseResult>> browse(List<BrowseDescription> nodes, long maxReferencesPerNode) {
        return views.browse(nodes.toArray(new BrowseDescription[0]), maxReferencesPerNode).thenApply(Arrays::asList);
    }

    /**
     * Browses a huge folder page by page: {@code page} is called with each page's references, and
     * the next page is asked for only after it returns.
     *
     * @param maxReferencesPerPage requestedMaxReferencesPerNode (0: the server decides)
     */
    public CompletableFuture<Void> browseEach(BrowseDescription node, long maxReferencesPerPage,
            Consumer<List<ReferenceDescription>> page) {
        return views.browseEach(node, maxReferencesPerPage, refs -> page.accept(Arrays.asList(refs)));
    }

    /** The description {@link #browse(NodeId)} uses: forward hierarchical references with subtypes. */
    public static BrowseDescription hierarchical(NodeId nodeId) {
        return new BrowseDescription(nodeId, BrowseDirection.Forward, NodeId.ns0(NodeIds.HierarchicalReferences),
                true, 0, ALL_RESULT_FIELDS);
    }

    /** TranslateBrowsePathsToNodeIds (Part 4, 5.9.4); one result per path, in order. */
    public CompletableFuture<List<BrowsePathResult>> translateBrowsePaths(List<BrowsePath> paths) {
        return views.translate(paths.toArray(new BrowsePath[0])).thenApply(Arrays::asList);
    }

    /** RegisterNodes (Part 4, 5.9.5): ids to use for repeated access, in order. */
    public CompletableFuture<List<NodeId>> registerNodes(List<NodeId> nodes) {
        return views.register(nodes.toArray(new NodeId[0])).thenApply(Arrays::asList);
    }

    /** UnregisterNodes (Part 4, 5.9.6). */
    public CompletableFuture<Void> unregisterNodes(List<NodeId> nodes) {
        return views.unregister(nodes.toArray(new NodeId[0]));
    }

    // ---- methods ----------------------------------------------------------------------------------

    /** Call (Part 4, 5.11.2); one result per method, in order. */
    public CompletableFuture<List<CallMethodResult>> call(List<CallMethodRequest> methodsToCall) {
        return methods.call(methodsToCall.toArray(new CallMethodRequest[0])).thenApply(Arrays::asList);
    }

    /**
     * Calls one method with Java arguments (each converted with {@link Variant#of}, or passed as it is
     * when already a Variant).
     *
     * @return the output arguments; fails with the method's status when it is Bad, or with the first
     *         Bad input argument result
     */
    public CompletableFuture<Variant[]> call(NodeId objectId, NodeId methodId, Object... inputs) {
        Variant[] args = new Variant[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            args[i] = inputs[i] instanceof Variant v ? v : Variant.of(inputs[i]);
        }
        return methods.call(new CallMethodRequest[] {new CallMethodRequest(objectId, methodId, args)})
                .thenApply(results -> {
                    CallMethodResult r = results[0];
                    if (r.statusCode().isBad()) {
                        StatusCode[] in = r.inputArgumentResults();
                        for (int i = 0; in != null && i < in.length; i++) {
                            if (in[i] != null && in[i].isBad()) {
                                throw new UaException(in[i], "method " + methodId + " on " + objectId
                                        + " refused input argument " + i + " (" + r.statusCode() + ")");
                            }
                        }
                        throw new UaException(r.statusCode(), "method " + methodId + " on " + objectId + " failed");
                    }
                    return r.outputArguments() == null ? new Variant[0] : r.outputArguments();
                });
    }

    // ---- node management --------------------------------------------------------------------------

    /**
     * AddNodes (Part 4, 5.7.2): one result per item, in order, each with its status and the NodeId the server
     * gave the node; {@link dev.opcua.stack.client.services.AddNodesItemBuilder} builds the items of Objects and
     * Variables. Split by the server's MaxNodesPerNodeManagement, the parts sent one after the other.
     */
    public CompletableFuture<List<AddNodesResult>> addNodes(List<AddNodesItem> nodesToAdd) {
        return nodeManagement.addNodes(nodesToAdd.toArray(new AddNodesItem[0])).thenApply(Arrays::asList);
    }

    /** AddReferences (Part 4, 5.7.3); one StatusCode per item, in order. */
    public CompletableFuture<List<StatusCode>> addReferences(List<AddReferencesItem> referencesToAdd) {
        return nodeManagement.addReferences(referencesToAdd.toArray(new AddReferencesItem[0])).thenApply(Arrays::asList);
    }

    /** DeleteNodes (Part 4, 5.7.4); one StatusCode per item, in order. */
    public CompletableFuture<List<StatusCode>> deleteNodes(List<DeleteNodesItem> nodesToDelete) {
        return nodeManagement.deleteNodes(nodesToDelete.toArray(new DeleteNodesItem[0])).thenApply(Arrays::asList);
    }

    /** DeleteReferences (Part 4, 5.7.5); one StatusCode per item, in order. */
    public CompletableFuture<List<StatusCode>> deleteReferences(List<DeleteReferencesItem> referencesToDelete) {
        return nodeManagement.deleteReferences(referencesToDelete.toArray(new DeleteReferencesItem[0]))
                .thenApply(Arrays::asList);
    }

    @Override
    public String toString() {
        return "OpcUaClient[" + config.endpointUrl() + ", " + state() + "]";
    }
}
