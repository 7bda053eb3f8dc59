package dev.opcua.stack.server.roles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.PermissionType;
import dev.opcua.stack.core.types.structured.RolePermissionType;
import dev.opcua.stack.server.session.Identity;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Permission tables, role masks and the user attributes derived from them (Part 3, 4.9, 5.2.9, 8.55). */
class NodePermissionsTest {

    private static final long OPERATOR = WellKnownRole.OPERATOR.mask();
    private static final long OBSERVER = WellKnownRole.OBSERVER.mask();

    private final NodePermissions table = NodePermissions.of(Map.of(
            WellKnownRole.OBSERVER, Set.of(Permission.BROWSE, Permission.READ),
            WellKnownRole.OPERATOR, Set.of(Permission.BROWSE, Permission.READ, Permission.WRITE, Permission.CALL)));

    @Test
    void a_role_mask_is_allowed_what_any_of_its_roles_is_allowed() {
        assertThat(table.allows(OBSERVER, Permission.READ)).isTrue();
        assertThat(table.allows(OBSERVER, Permission.WRITE)).isFalse();
        assertThat(table.allows(OBSERVER | OPERATOR, Permission.WRITE)).isTrue();
        assertThat(table.allows(WellKnownRole.ANONYMOUS.mask(), Permission.BROWSE)).isFalse();
        assertThat(table.allows(0, Permission.BROWSE)).as("no roles, no permissions").isFalse();
        assertThat(table.permissionsOf(OBSERVER | OPERATOR))
                .isEqualTo(PermissionType.Browse | PermissionType.Read | PermissionType.Write | PermissionType.Call);
        assertThat(NodePermissions.ALL.isUnrestricted()).isTrue();
        assertThat(table.isUnrestricted()).isFalse();
    }

    @Test
    void with_only_gives_exactly_the_named_roles_one_permission_and_keeps_the_rest() {
        NodePermissions writable = NodePermissions.ALL.withOnly(Permission.WRITE, List.of(WellKnownRole.ENGINEER));
        assertThat(writable.allows(WellKnownRole.ENGINEER.mask(), Permission.WRITE)).isTrue();
        assertThat(writable.allows(OPERATOR, Permission.WRITE)).isFalse();
        assertThat(writable.allows(OPERATOR, Permission.READ)).isTrue();
        assertThat(table.withOnly(Permission.CALL, List.of()).allows(OPERATOR, Permission.CALL)).isFalse();
    }

    @Test
    void role_permissions_list_the_roles_with_any_permission_and_user_role_permissions_those_of_the_user() {
        RolePermissionType[] all = table.toRolePermissions();
        assertThat(all).extracting(RolePermissionType::roleId).containsExactly(
                WellKnownRole.OBSERVER.nodeId(), WellKnownRole.OPERATOR.nodeId());
        assertThat(table.toRolePermissions(OBSERVER)).singleElement()
                .satisfies(e -> assertThat(e.permissions()).isEqualTo(PermissionType.Browse | PermissionType.Read));
    }

    @Test
    void user_access_level_keeps_only_what_the_permissions_allow() {
        short readWriteHistory = 0x0F;
        assertThat(UserAccess.accessLevel(readWriteHistory, Permission.READ.bit())).isEqualTo((short) 0x01);
        assertThat(UserAccess.accessLevel(readWriteHistory, Permission.WRITE.bit() | Permission.READ_HISTORY.bit()))
                .isEqualTo((short) 0x06);
        assertThat(UserAccess.accessLevel((short) 0x01, Permission.ALL)).as("never more than the node allows")
                .isEqualTo((short) 0x01);
    }

    @Test
    void names_of_roles_and_permissions_parse_leniently_and_a_wrong_one_names_the_choices() {
        assertThat(WellKnownRole.parse("configure-admin")).isEqualTo(WellKnownRole.CONFIGURE_ADMIN);
        assertThat(WellKnownRole.parse("Operator")).isEqualTo(WellKnownRole.OPERATOR);
        assertThat(WellKnownRole.parse("AUTHENTICATED_USER")).isEqualTo(WellKnownRole.AUTHENTICATED_USER);
        assertThat(Permission.parse("read-role-permissions")).isEqualTo(Permission.READ_ROLE_PERMISSIONS);
        assertThatThrownBy(() -> WellKnownRole.parse("boss")).hasMessageContaining("'boss'")
                .hasMessageContaining("SecurityAdmin");
        assertThatThrownBy(() -> Permission.parse("fly")).hasMessageContaining("ReceiveEvents");
        assertThat(WellKnownRole.of(NodeId.ns0(15680))).isEqualTo(WellKnownRole.OPERATOR);
    }

    @Test
    void anonymous_users_get_anonymous_and_every_other_user_authenticated_user_and_their_configured_roles() {
        RoleMapper mapper = RoleMapper.byUserName(Map.of("alice", EnumSet.of(WellKnownRole.OPERATOR)));
        assertThat(mapper.rolesOf(Identity.ANONYMOUS)).containsExactly(WellKnownRole.ANONYMOUS);
        assertThat(mapper.rolesOf(Identity.user("alice")))
                .containsExactlyInAnyOrder(WellKnownRole.AUTHENTICATED_USER, WellKnownRole.OPERATOR);
        assertThat(mapper.rolesOf(Identity.user("bob"))).containsExactly(WellKnownRole.AUTHENTICATED_USER);
        assertThat(mapper.rolesOf(Identity.certificate("alice", "00ff")))
                .as("the user-name roles are not a certificate user's").containsExactly(WellKnownRole.AUTHENTICATED_USER);
        assertThat(mapper.mask(Identity.user("alice"))).isEqualTo(
                WellKnownRole.AUTHENTICATED_USER.mask() | WellKnownRole.OPERATOR.mask());
    }
}
