package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.ubyte;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.services.AddNodesItemBuilder;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.audit.AuditAction;
import dev.opcua.stack.server.audit.AuditRecord;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.roles.RoleMapper;
import dev.opcua.stack.server.roles.WellKnownRole;
import dev.opcua.stack.server.services.nodemanagement.NodeManagementSettings;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.subscriptions.events.ModelChanges;
import dev.opcua.stack.server.testing.MiloClients;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.Identifiers;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExpandedNodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.FilterOperator;
import org.eclipse.milo.opcua.stack.core.types.enumerated.NodeClass;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.AddNodesItem;
import org.eclipse.milo.opcua.stack.core.types.structured.AddNodesResult;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.ContentFilterElement;
import org.eclipse.milo.opcua.stack.core.types.structured.DeleteNodesItem;
import org.eclipse.milo.opcua.stack.core.types.structured.EventFilter;
import org.eclipse.milo.opcua.stack.core.types.structured.LiteralOperand;
import org.eclipse.milo.opcua.stack.core.types.structured.ModelChangeStructureDataType;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.SimpleAttributeOperand;
import org.eclipse.milo.opcua.stack.core.types.structured.VariableAttributes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The NodeManagement services (Part 4, 5.7) end to end: Eclipse Milo 1.1.2's client logged in as
 * {@code engineer} (ConfigureAdmin) adds a variable, reads it, sees the GeneralModelChangeEvent and
 * deletes it; {@code operator} (Operator) and the anonymous user get BadUserAccessDenied for every item;
 * each request is audited; namespace 0 stays as it is. Then our own client does the same through its four methods and
 * {@link AddNodesItemBuilder}, and finds what it added again after the server restarted over its persist
 * directory.
 */
class NodeManagementInteropIT {

    private static final String NS = "urn:test:nodemgmt:line";
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** specifiedAttributes of the variables Milo adds: DisplayName, Value, DataType, ValueRank, AccessLevel. */
    private static final long VARIABLE_MASK = 64 | 2097152 | 16 | 524288 | 1;

    private static OpcUaServer server;
    private static InMemoryNodeManager line;
    private static ClientResources resources;
    private static final List<AuditRecord> audited = new CopyOnWriteArrayList<>();

    @BeforeAll
    static void start() {
        line = InMemoryNodeManager.builder(NS).folder("Line")
                .variable("Line.Speed", BuiltinType.Double, v -> v.value(
                        dev.opcua.stack.core.types.builtin.Variant.ofDouble(1)))
                .build();
        server = OpcUaServer.builder()
                .applicationUri("urn:test:nodemgmt:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .identities(UserNameIdentityValidator.of(Map.of("engineer", "e-secret", "operator", "o-secret"), true),
                        List.of(DiscoveryServices.ANONYMOUS,
                                new UserTokenPolicy("username", UserTokenType.UserName, null, null, null)))
                .roleMapper(RoleMapper.byUserName(Map.of("engineer", EnumSet.of(WellKnownRole.CONFIGURE_ADMIN),
                        "operator", EnumSet.of(WellKnownRole.OPERATOR))))
                .nodeManager(line)
                .nodeManagement(NodeManagementSettings.enabledForConfigureAdmin())
                .auditing(true)
                .auditListener(audited::add)
                .build()
                .start();
        resources = ClientResources.builder().ioThreads(1).build();
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (resources != null) {
            resources.close();
        }
    }

    private static NodeId lineFolder() {
        return new NodeId(line.namespaceIndex(), "Line");
    }

    private static OpcUaClient connect(IdentityProvider identity) throws Exception {
        return MiloClients.overNone(server.endpointUrl(), identity);
    }

    private static AddNodesItem miloVariable(OpcUaClient milo, String name, double value) {
        int ns = line.namespaceIndex();
        VariableAttributes attributes = new VariableAttributes(uint(VARIABLE_MASK), LocalizedText.english(name), null,
                uint(0), uint(0), new Variant(value), Identifiers.Double, -1, null, ubyte(3), ubyte(3), 0.0, false);
        return new AddNodesItem(lineFolder().expanded(), Identifiers.HasComponent,
                new NodeId(ns, "Line." + name).expanded(), new QualifiedName(ns, name), NodeClass.Variable,
                ExtensionObject.encode(milo.getStaticEncodingContext(), attributes), ExpandedNodeId.NULL_VALUE);
    }

    private static DataValue read(OpcUaClient milo, NodeId node) throws Exception {
        return milo.read(0, TimestampsToReturn.Neither,
                List.of(new ReadValueId(node, AttributeId.Value.uid(), null, null))).getResults()[0];
    }

    /** A subscription on the Server object that keeps the GeneralModelChangeEvents' Changes. */
    private static OpcUaSubscription modelChanges(OpcUaClient milo, List<ModelChangeStructureDataType> received)
            throws Exception {
        ContentFilter onlyModelChanges = new ContentFilter(new ContentFilterElement[] {new ContentFilterElement(
                FilterOperator.OfType, new ExtensionObject[] {ExtensionObject.encode(milo.getStaticEncodingContext(),
                        new LiteralOperand(new Variant(Identifiers.GeneralModelChangeEventType)))})});
        EventFilter filter = new EventFilter(new SimpleAttributeOperand[] {new SimpleAttributeOperand(
                Identifiers.GeneralModelChangeEventType, new QualifiedName[] {new QualifiedName(0, "Changes")},
                AttributeId.Value.uid(), null)}, onlyModelChanges);
        OpcUaSubscription subscription = new OpcUaSubscription(milo, 50.0);
        subscription.create();
        OpcUaMonitoredItem item = OpcUaMonitoredItem.newEventItem(Identifiers.Server, filter);
        item.setEventValueListener((monitoredItem, values) -> {
            for (ExtensionObject change : (ExtensionObject[]) values[0].getValue()) {
                received.add((ModelChangeStructureDataType) change.decode(milo.getStaticEncodingContext()));
            }
        });
        subscription.addMonitoredItem(item);
        subscription.synchronizeMonitoredItems();
        assertThat(item.getCreateResult()).hasValueSatisfying(status -> assertThat(status.isGood()).isTrue());
        return subscription;
    }

    @Test
    void milo_as_engineer_adds_a_variable_reads_it_sees_the_model_change_and_deletes_it() throws Exception {
        OpcUaClient milo = connect(new UsernameProvider("engineer", "e-secret"));
        try {
            List<ModelChangeStructureDataType> changes = new CopyOnWriteArrayList<>();
            modelChanges(milo, changes);
            NodeId setpoint = new NodeId(line.namespaceIndex(), "Line.Setpoint");

            AddNodesResult[] added = milo.addNodes(List.of(miloVariable(milo, "Setpoint", 42.5))).getResults();

            assertThat(added[0].getStatusCode().isGood()).as("%s", added[0].getStatusCode()).isTrue();
            assertThat(added[0].getAddedNodeId()).isEqualTo(setpoint);
            assertThat(read(milo, setpoint).getValue().getValue()).isEqualTo(42.5);
            await("the NodeAdded change").atMost(WAIT).until(() -> changes.stream().anyMatch(c ->
                    c.getAffected().equals(setpoint) && (c.getVerb().intValue() & ModelChanges.NODE_ADDED) != 0));
            assertThat(changes).anyMatch(c -> c.getAffected().equals(lineFolder())
                    && (c.getVerb().intValue() & ModelChanges.REFERENCE_ADDED) != 0);

            StatusCode[] deleted = milo.deleteNodes(List.of(new DeleteNodesItem(setpoint, true))).getResults();

            assertThat(deleted[0].isGood()).isTrue();
            assertThat(read(milo, setpoint).getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_NodeIdUnknown);
            await("the NodeDeleted change").atMost(WAIT).until(() -> changes.stream().anyMatch(c ->
                    c.getAffected().equals(setpoint) && (c.getVerb().intValue() & ModelChanges.NODE_DELETED) != 0));
        } finally {
            milo.disconnect();
        }
    }

    @Test
    void milo_as_operator_or_anonymous_gets_bad_user_access_denied_for_every_item() throws Exception {
        for (IdentityProvider identity : List.of(new UsernameProvider("operator", "o-secret"), new AnonymousProvider())) {
            OpcUaClient milo = connect(identity);
            try {
                AddNodesResult[] added = milo.addNodes(List.of(miloVariable(milo, "A", 1), miloVariable(milo, "B", 2)))
                        .getResults();
                StatusCode[] deleted = milo.deleteNodes(List.of(new DeleteNodesItem(
                        new NodeId(line.namespaceIndex(), "Line.Speed"), true))).getResults();

                assertThat(added).extracting(r -> r.getStatusCode().getValue())
                        .containsExactly(StatusCodes.Bad_UserAccessDenied, StatusCodes.Bad_UserAccessDenied);
                assertThat(deleted[0].getValue()).isEqualTo(StatusCodes.Bad_UserAccessDenied);
                await("the refused AddNodes audited").atMost(WAIT).until(() -> audited.stream().anyMatch(r ->
                        r.action() == AuditAction.ADD_NODES && !r.success()
                                && r.status().value() == dev.opcua.stack.core.ids.StatusCodes.BadUserAccessDenied));
                assertThat(read(milo, new NodeId(line.namespaceIndex(), "Line.Speed")).getStatusCode().isGood())
                        .isTrue();
            } finally {
                milo.disconnect();
            }
        }
    }

    @Test
    void milo_as_engineer_cannot_delete_namespace_0_nodes_and_bad_items_fail_alone() throws Exception {
        OpcUaClient milo = connect(new UsernameProvider("engineer", "e-secret"));
        try {
            StatusCode[] deleted = milo.deleteNodes(List.of(new DeleteNodesItem(Identifiers.ObjectsFolder, true),
                    new DeleteNodesItem(Identifiers.Server, true))).getResults();
            AddNodesItem clash = miloVariable(milo, "Speed", 3); // Line.Speed exists
            AddNodesResult[] added = milo.addNodes(List.of(clash, miloVariable(milo, "Other", 4))).getResults();

            assertThat(deleted).extracting(StatusCode::getValue)
                    .containsExactly(StatusCodes.Bad_UserAccessDenied, StatusCodes.Bad_UserAccessDenied);
            assertThat(read(milo, Identifiers.Server_ServerStatus_State).getStatusCode().isGood()).isTrue();
            assertThat(added[0].getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_NodeIdExists);
            assertThat(added[1].getStatusCode().isGood()).isTrue();
            milo.deleteNodes(List.of(new DeleteNodesItem(added[1].getAddedNodeId(), true)));
        } finally {
            milo.disconnect();
        }
    }

    @Test
    void our_client_adds_reads_and_deletes_with_the_node_management_methods() throws Exception {
        try (dev.opcua.stack.client.OpcUaClient client = engineer(server)) {
            int ns = line.namespaceIndex();
            dev.opcua.stack.core.types.builtin.NodeId folder = dev.opcua.stack.core.types.builtin.NodeId.string(ns, "Line");

            List<dev.opcua.stack.core.types.structured.AddNodesResult> added = client.blocking().addNodes(List.of(
                    AddNodesItemBuilder.variable(folder, dev.opcua.stack.core.types.builtin.QualifiedName.of(ns, "Count"))
                            .value(7).description("bottles counted").build(),
                    AddNodesItemBuilder.object(folder, dev.opcua.stack.core.types.builtin.QualifiedName.of(ns, "Filler"))
                            .build()));

            assertThat(added).allSatisfy(r -> assertThat(r.statusCode().isGood()).isTrue());
            dev.opcua.stack.core.types.builtin.NodeId count = added.get(0).addedNodeId();
            assertThat(count).isEqualTo(dev.opcua.stack.core.types.builtin.NodeId.string(ns, "Line.Count"));
            assertThat(client.blocking().readValue(count).value().value()).isEqualTo(7);
            assertThat(client.blocking().writeValue(count, 8).isGood()).isTrue();
            assertThat(client.blocking().browse(folder)).anyMatch(r -> r.browseName().name().equals("Filler"));

            List<dev.opcua.stack.core.types.builtin.StatusCode> deleted = client.blocking().deleteNodes(List.of(
                    new dev.opcua.stack.core.types.structured.DeleteNodesItem(count, true),
                    new dev.opcua.stack.core.types.structured.DeleteNodesItem(added.get(1).addedNodeId(), true)));

            assertThat(deleted).allSatisfy(s -> assertThat(s.isGood()).isTrue());
            assertThat(client.blocking().browse(folder)).noneMatch(r -> r.browseName().name().equals("Filler"));
            await("the AuditAddNodesEvent").atMost(WAIT).untilAsserted(() -> assertThat(audited).anySatisfy(record -> {
                assertThat(record.action()).isEqualTo(AuditAction.ADD_NODES);
                assertThat(record.sourceName()).isEqualTo("NodeManagement/AddNodes");
                assertThat(record.success()).isTrue();
                assertThat(record.clientUserId()).isEqualTo("engineer");
                assertThat((Object[]) record.fields().get("NodesToAdd").value()).hasSize(2);
            }));
            await("the AuditDeleteNodesEvent").atMost(WAIT).until(() -> audited.stream()
                    .anyMatch(r -> r.action() == AuditAction.DELETE_NODES && r.success()));
        }
    }

    @Test
    void nodes_added_with_a_persist_directory_are_there_again_after_a_restart(@TempDir Path directory) throws Exception {
        NodeManagementSettings persisted = NodeManagementSettings.enabledForConfigureAdmin()
                .withPersistDirectory(directory);
        dev.opcua.stack.core.types.builtin.NodeId count;
        OpcUaServer first = persistingServer(persisted);
        try (dev.opcua.stack.client.OpcUaClient client = engineer(first)) {
            int ns = first.namespaces().indexOf(NS + ":persisted");
            count = client.blocking().addNodes(List.of(AddNodesItemBuilder.variable(
                    dev.opcua.stack.core.types.builtin.NodeId.string(ns, "Cell"),
                    dev.opcua.stack.core.types.builtin.QualifiedName.of(ns, "Count")).value(7).build()))
                    .get(0).addedNodeId();
        } finally {
            first.close();
        }

        OpcUaServer second = persistingServer(persisted);
        try (dev.opcua.stack.client.OpcUaClient client = engineer(second)) {
            assertThat(client.blocking().readValue(count).value().value()).isEqualTo(7);
            assertThat(client.blocking().browse(dev.opcua.stack.core.types.builtin.NodeId.string(
                    count.namespaceIndex(), "Cell"))).anyMatch(r -> r.browseName().name().equals("Count"));
        } finally {
            second.close();
        }
    }

    private static OpcUaServer persistingServer(NodeManagementSettings settings) {
        return OpcUaServer.builder()
                .applicationUri("urn:test:nodemgmt:persisted")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .identities(UserNameIdentityValidator.of(Map.of("engineer", "e-secret"), true),
                        List.of(new UserTokenPolicy("username", UserTokenType.UserName, null, null, null)))
                .roleMapper(RoleMapper.byUserName(Map.of("engineer", EnumSet.of(WellKnownRole.CONFIGURE_ADMIN))))
                .nodeManager(InMemoryNodeManager.builder(NS + ":persisted").folder("Cell").build())
                .nodeManagement(settings)
                .build()
                .start();
    }

    private static dev.opcua.stack.client.OpcUaClient engineer(OpcUaServer target) throws Exception {
        dev.opcua.stack.client.OpcUaClient client = dev.opcua.stack.client.OpcUaClient.create(
                OpcUaClientConfig.builder(target.endpointUrl()).applicationUri("urn:test:nodemgmt:client")
                        .resources(resources).requestTimeout(Duration.ofSeconds(5))
                        .identity(ClientIdentity.userName("engineer", "e-secret")).build());
        client.connect().get(10, TimeUnit.SECONDS);
        return client;
    }
}
