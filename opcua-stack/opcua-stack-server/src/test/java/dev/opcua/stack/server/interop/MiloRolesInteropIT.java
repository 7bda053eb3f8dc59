package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.RoleMapper;
import dev.opcua.stack.server.roles.WellKnownRole;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.testing.MiloClients;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UByte;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseResult;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.RolePermissionType;
import org.eclipse.milo.opcua.stack.core.types.structured.WriteValue;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Roles (Part 3, 4.9 and 5.2.9) seen by Eclipse Milo 1.1.2's client logged in as different users:
 * {@code alice} has the Operator role, {@code bob} only AuthenticatedUser, and the anonymous user
 * Anonymous. The namespace default lets everyone browse, read and read role permissions; one variable
 * is writable by operators only, one readable by supervisors only, a method callable by operators
 * only and an object visible to operators only.
 */
class MiloRolesInteropIT {

    private static final String NS = "urn:test:roles:line";
    private static final AtomicInteger starts = new AtomicInteger();

    private static OpcUaServer server;
    private static InMemoryNodeManager line;

    @BeforeAll
    static void start() {
        NodePermissions everyoneReads = NodePermissions.builder()
                .grant(WellKnownRole.ANONYMOUS, Permission.BROWSE, Permission.READ, Permission.READ_ROLE_PERMISSIONS)
                .grant(WellKnownRole.AUTHENTICATED_USER, Permission.BROWSE, Permission.READ,
                        Permission.READ_ROLE_PERMISSIONS)
                .grant(WellKnownRole.OPERATOR, Permission.BROWSE, Permission.READ, Permission.READ_ROLE_PERMISSIONS,
                        Permission.CALL)
                .build();
        line = InMemoryNodeManager.builder(NS)
                .folder("Line")
                .variable("Line.Setpoint", BuiltinType.Double, v -> v
                        .value(dev.opcua.stack.core.types.builtin.Variant.ofDouble(10)).writable()
                        .writeRoles(WellKnownRole.OPERATOR))
                .variable("Line.Recipe", BuiltinType.String, v -> v
                        .value(dev.opcua.stack.core.types.builtin.Variant.ofString("secret"))
                        .readRoles(WellKnownRole.SUPERVISOR))
                .object("Line.Hidden", o -> o.roles(Permission.BROWSE, WellKnownRole.OPERATOR))
                .variable("Line.Log", BuiltinType.Double, v -> v
                        .value(dev.opcua.stack.core.types.builtin.Variant.ofDouble(1)).historizing()
                        .roles(Permission.READ_HISTORY, WellKnownRole.OPERATOR))
                .method("Line.Start", null, null, (context, inputs) -> {
                    starts.incrementAndGet();
                    return new dev.opcua.stack.core.types.builtin.Variant[0];
                }, m -> m.callRoles(WellKnownRole.OPERATOR))
                .build();
        server = OpcUaServer.builder()
                .applicationUri("urn:test:roles:server")
                .bindAddress("127.0.0.1")
                .port(0)
                .hostnames(List.of("localhost"))
                .requests(2, 8, 100)
                .identities(UserNameIdentityValidator.of(Map.of("alice", "a-secret", "bob", "b-secret"), true),
                        List.of(DiscoveryServices.ANONYMOUS,
                                new UserTokenPolicy("username", UserTokenType.UserName, null, null, null)))
                .roleMapper(RoleMapper.byUserName(Map.of("alice", EnumSet.of(WellKnownRole.OPERATOR))))
                .nodeManager(line)
                .defaultPermissions(NS, everyoneReads)
                .history(new dev.opcua.stack.server.history.InMemoryHistoryStore(),
                        dev.opcua.stack.server.services.history.HistorySettings.DEFAULT)
                .build()
                .start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    private static NodeId node(String path) {
        return new NodeId(line.namespaceIndex(), line.nodeId(path).stringId());
    }

    private static OpcUaClient connect(IdentityProvider identity) throws Exception {
        return MiloClients.overNone(server.endpointUrl(), identity);
    }

    private static Object attribute(OpcUaClient client, String path, AttributeId attribute) throws Exception {
        DataValue value = client.read(0, TimestampsToReturn.Neither,
                List.of(new ReadValueId(node(path), attribute.uid(), null, null))).getResults()[0];
        assertThat(value.getStatusCode().isGood()).as("%s of %s: %s", attribute, path, value.getStatusCode())
                .isTrue();
        return value.getValue().getValue();
    }

    private static long write(OpcUaClient client, double value) throws Exception {
        return client.write(List.of(new WriteValue(node("Line.Setpoint"), AttributeId.Value.uid(), null,
                DataValue.valueOnly(new Variant(value))))).getResults()[0].getValue();
    }

    private static long call(OpcUaClient client) throws Exception {
        return client.call(List.of(new CallMethodRequest(node("Line"), node("Line.Start"), new Variant[0])))
                .getResults()[0].getStatusCode().getValue();
    }

    private static List<String> browseLine(OpcUaClient client) throws Exception {
        BrowseResult result = client.browse(List.of(new BrowseDescription(node("Line"), BrowseDirection.Forward,
                NodeId.NULL_VALUE, true, org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint(0),
                org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint(
                        BrowseResultMask.All.getValue())))).get(0);
        return java.util.Arrays.stream(result.getReferences()).map(r -> r.getBrowseName().getName()).toList();
    }

    @Test
    void an_operator_writes_and_calls_and_sees_the_operators_object() throws Exception {
        OpcUaClient alice = connect(new UsernameProvider("alice", "a-secret"));
        try {
            assertThat(attribute(alice, "Line.Setpoint", AttributeId.UserAccessLevel)).isEqualTo(UByte.valueOf(3));
            assertThat(attribute(alice, "Line.Start", AttributeId.UserExecutable)).isEqualTo(true);
            assertThat(write(alice, 12.5)).isEqualTo(StatusCode.GOOD.getValue());
            int before = starts.get();
            assertThat(call(alice)).isEqualTo(StatusCode.GOOD.getValue());
            assertThat(starts.get()).isEqualTo(before + 1);
            assertThat(browseLine(alice)).contains("Setpoint", "Hidden", "Start");
            ExtensionObject[] mine = (ExtensionObject[]) attribute(alice, "Line.Setpoint",
                    AttributeId.UserRolePermissions);
            assertThat(mine).extracting(e -> ((RolePermissionType) e.decode(alice.getStaticEncodingContext()))
                    .getRoleId()).containsExactlyInAnyOrder(
                            new NodeId(0, 15656), new NodeId(0, 15680)); // AuthenticatedUser, Operator
        } finally {
            alice.disconnect();
        }
    }

    @Test
    void an_authenticated_user_without_roles_is_refused_writes_and_calls_and_does_not_see_the_hidden_object()
            throws Exception {
        OpcUaClient bob = connect(new UsernameProvider("bob", "b-secret"));
        try {
            assertRefused(bob);
        } finally {
            bob.disconnect();
        }
    }

    @Test
    void the_anonymous_user_is_refused_the_same() throws Exception {
        OpcUaClient anonymous = connect(new AnonymousProvider());
        try {
            assertRefused(anonymous);
            ExtensionObject[] all = (ExtensionObject[]) attribute(anonymous, "Line.Setpoint",
                    AttributeId.RolePermissions);
            assertThat(all).as("three roles have permissions on the node").hasSize(3);
        } finally {
            anonymous.disconnect();
        }
    }

    @Test
    void a_user_may_not_monitor_a_value_it_may_not_read() throws Exception {
        OpcUaClient bob = connect(new UsernameProvider("bob", "b-secret"));
        OpcUaSubscription subscription = new OpcUaSubscription(bob, 100.0);
        subscription.create();
        try {
            OpcUaMonitoredItem secret = OpcUaMonitoredItem.newDataItem(node("Line.Recipe"));
            OpcUaMonitoredItem open = OpcUaMonitoredItem.newDataItem(node("Line.Setpoint"));
            subscription.addMonitoredItems(List.of(secret, open));
            try {
                subscription.synchronizeMonitoredItems();
            } catch (Exception expected) {
                // Milo reports that one item failed; its create result says why
            }
            assertThat(secret.getCreateResult()).map(StatusCode::getValue).contains(StatusCodes.Bad_UserAccessDenied);
            assertThat(open.getCreateResult()).contains(StatusCode.GOOD);
        } finally {
            subscription.delete();
            bob.disconnect();
        }
    }

    @Test
    void default_permissions_for_a_namespace_no_manager_owns_stop_the_server_naming_it() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> OpcUaServer.builder()
                        .defaultPermissions("urn:test:nobody", NodePermissions.ALL).build())
                .isInstanceOfSatisfying(InvalidSettingException.class, e -> {
                    assertThat(e.setting()).isEqualTo("opcUaServer.defaultPermissions");
                    assertThat(e.value()).isEqualTo("urn:test:nobody");
                }).hasMessageContaining("urn:test:nobody");
    }

    /** HistoryRead of Line.Log (raw, the last hour): the operation's status. */
    private static long historyRead(OpcUaClient client) throws Exception {
        var details = new org.eclipse.milo.opcua.stack.core.types.structured.ReadRawModifiedDetails(false,
                new org.eclipse.milo.opcua.stack.core.types.builtin.DateTime(java.time.Instant.now().minusSeconds(3600)),
                org.eclipse.milo.opcua.stack.core.types.builtin.DateTime.now(),
                org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint(10), false);
        return client.historyRead(details, TimestampsToReturn.Both, false, List.of(
                new org.eclipse.milo.opcua.stack.core.types.structured.HistoryReadValueId(node("Line.Log"), null,
                        org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName.NULL_VALUE, null)))
                .getResults()[0].getStatusCode().getValue();
    }

    @Test
    void history_is_read_only_by_the_roles_with_the_ReadHistory_permission() throws Exception {
        OpcUaClient alice = connect(new UsernameProvider("alice", "a-secret"));
        OpcUaClient bob = connect(new UsernameProvider("bob", "b-secret"));
        try {
            long operator = historyRead(alice);
            assertThat(new StatusCode(operator).isBad()).as("an operator may: status %08X", operator).isFalse();
            assertThat(historyRead(bob)).isEqualTo(StatusCodes.Bad_UserAccessDenied);
        } finally {
            alice.disconnect();
            bob.disconnect();
        }
    }

    private static void assertRefused(OpcUaClient client) throws Exception {
        assertThat(attribute(client, "Line.Setpoint", AttributeId.AccessLevel)).isEqualTo(UByte.valueOf(3));
        assertThat(attribute(client, "Line.Setpoint", AttributeId.UserAccessLevel)).isEqualTo(UByte.valueOf(1));
        assertThat(attribute(client, "Line.Start", AttributeId.UserExecutable)).isEqualTo(false);
        assertThat(attribute(client, "Line.Setpoint", AttributeId.Value)).as("Read is granted").isInstanceOf(Double.class);
        assertThat(write(client, -1)).isEqualTo(StatusCodes.Bad_UserAccessDenied);
        int before = starts.get();
        assertThat(call(client)).isEqualTo(StatusCodes.Bad_UserAccessDenied);
        assertThat(starts.get()).as("the method did not run").isEqualTo(before);
        assertThat(client.readValue(0, TimestampsToReturn.Neither, node("Line.Recipe")).getStatusCode().getValue())
                .isEqualTo(StatusCodes.Bad_UserAccessDenied);
        assertThat(browseLine(client)).contains("Setpoint", "Start").doesNotContain("Hidden");
    }
}
