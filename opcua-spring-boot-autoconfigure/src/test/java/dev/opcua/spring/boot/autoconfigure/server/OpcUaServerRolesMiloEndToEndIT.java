package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.server.annotation.OpcUaAnnotationAutoConfiguration;
import dev.opcua.spring.boot.server.annotation.OpcUaNamespace;
import dev.opcua.spring.boot.server.annotation.UaAccess;
import dev.opcua.spring.boot.server.annotation.UaMethod;
import dev.opcua.spring.boot.server.annotation.UaVariable;
import dev.opcua.spring.boot.testing.MiloClients;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.session.Identity;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.StatusCode;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UByte;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodResult;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.WriteValue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Roles from {@code opcua.server.identity.users[].roles}, namespace defaults from
 * {@code opcua.server.access.namespaces} and role attributes of {@code @UaVariable} / {@code @UaMethod},
 * enforced for Eclipse Milo 1.1.2's client logged in as an operator, as a user without roles and
 * anonymously; a {@code @UaMethod} receives the caller's {@link Identity}.
 */
class OpcUaServerRolesMiloEndToEndIT {

    private static final String NS = "urn:test:roles:press";

    @TempDir
    static Path pkiDir;

    private static String bcrypt(String password) {
        return "{bcrypt}" + OpenBSDBCrypt.generate("2a", password.getBytes(StandardCharsets.UTF_8), new byte[16], 4);
    }

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaAnnotationAutoConfiguration.class))
            .withUserConfiguration(PressConfiguration.class)
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=urn:test:roles:server",
                    "opcua.server.security.policies=None,Basic256Sha256",
                    "opcua.server.security.pki-dir=" + pkiDir,
                    "opcua.server.identity.users[0].username=operator",
                    "opcua.server.identity.users[0].password=" + bcrypt("secret"),
                    "opcua.server.identity.users[0].roles=operator",
                    "opcua.server.identity.users[1].username=viewer",
                    "opcua.server.identity.users[1].password=" + bcrypt("secret"),
                    "opcua.server.access.namespaces[0].uri=" + NS,
                    "opcua.server.access.namespaces[0].permissions.anonymous=browse,read,call",
                    "opcua.server.access.namespaces[0].permissions.authenticated-user=browse,read,call",
                    "opcua.server.access.namespaces[0].permissions.operator=browse,read,write,call");

    @OpcUaNamespace(value = NS, name = "Press")
    static class Press {

        @UaVariable(access = UaAccess.READ_WRITE, writeRoles = "Operator")
        volatile double setpoint = 5;

        /** Writable by the namespace default: the operator only. */
        @UaVariable(access = UaAccess.READ_WRITE)
        volatile double speed = 1;

        final List<String> starters = new CopyOnWriteArrayList<>();

        @UaMethod(callRoles = {"Operator", "Supervisor"})
        public void start(Identity caller) {
            starters.add(caller.userName());
        }

        @UaMethod
        public String whoAmI(Identity caller) {
            return caller.isAnonymous() ? "anonymous" : caller.userName();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PressConfiguration {

        @Bean
        Press press() {
            return new Press();
        }
    }

    @Test
    void an_operator_writes_and_calls_and_the_method_sees_who_called() {
        contextRunner.run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            Press press = context.getBean(Press.class);
            OpcUaClient client = MiloClients.overNone(server.endpointUrl(), new UsernameProvider("operator", "secret"));
            try {
                int ns = server.namespaces().indexOf(NS);
                assertThat(userAccessLevel(client, ns, "Press.Setpoint")).isEqualTo(UByte.valueOf(3));
                assertThat(write(client, ns, "Press.Setpoint", 7.5)).isEqualTo(StatusCode.GOOD.getValue());
                assertThat(write(client, ns, "Press.Speed", 2.0)).isEqualTo(StatusCode.GOOD.getValue());
                assertThat(press.setpoint).isEqualTo(7.5);
                assertThat(call(client, ns, "Press.Start").getStatusCode().isGood()).isTrue();
                assertThat(press.starters).containsExactly("operator");
                assertThat(call(client, ns, "Press.WhoAmI").getOutputArguments()[0].getValue()).isEqualTo("operator");
            } finally {
                client.disconnect();
            }
        });
    }

    @Test
    void a_user_without_roles_and_the_anonymous_user_are_refused_writes_and_the_operators_method() {
        contextRunner.run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            Press press = context.getBean(Press.class);
            int ns = server.namespaces().indexOf(NS);
            for (IdentityProvider identity : List.of(new UsernameProvider("viewer", "secret"),
                    new AnonymousProvider())) {
                OpcUaClient client = MiloClients.overNone(server.endpointUrl(), identity);
                try {
                    String name = identity instanceof AnonymousProvider ? "anonymous" : "viewer";
                    assertThat(userAccessLevel(client, ns, "Press.Setpoint")).as(name).isEqualTo(UByte.valueOf(1));
                    assertThat(write(client, ns, "Press.Setpoint", 9)).as(name)
                            .isEqualTo(StatusCodes.Bad_UserAccessDenied);
                    assertThat(write(client, ns, "Press.Speed", 9)).as(name)
                            .isEqualTo(StatusCodes.Bad_UserAccessDenied);
                    assertThat(call(client, ns, "Press.Start").getStatusCode().getValue()).as(name)
                            .isEqualTo(StatusCodes.Bad_UserAccessDenied);
                    assertThat(call(client, ns, "Press.WhoAmI").getOutputArguments()[0].getValue()).isEqualTo(name);
                } finally {
                    client.disconnect();
                }
            }
            assertThat(press.setpoint).isEqualTo(5);
            assertThat(press.starters).isEmpty();
        });
    }

    @Test
    void an_unknown_role_name_stops_the_start_naming_the_property() {
        contextRunner.withPropertyValues("opcua.server.identity.users[1].roles=boss").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(InvalidOpcUaServerPropertyException.class)
                    .hasMessageContaining("opcua.server.identity.users[1].roles[0]").hasMessageContaining("boss");
        });
    }

    @Test
    void default_permissions_for_a_namespace_no_node_manager_serves_stop_the_start_naming_it() {
        contextRunner.withPropertyValues("opcua.server.access.namespaces[1].uri=urn:test:nobody").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("urn:test:nobody");
            assertThat(context.getStartupFailure()).hasStackTraceContaining("opcua.server.access.namespaces");
        });
    }

    private static Object userAccessLevel(OpcUaClient client, int ns, String path) throws Exception {
        DataValue value = client.read(0, TimestampsToReturn.Neither, List.of(new ReadValueId(new NodeId(ns, path),
                AttributeId.UserAccessLevel.uid(), null, null))).getResults()[0];
        return value.getValue().getValue();
    }

    private static long write(OpcUaClient client, int ns, String path, double value) throws Exception {
        return client.write(List.of(new WriteValue(new NodeId(ns, path), AttributeId.Value.uid(), null,
                DataValue.valueOnly(new Variant(value))))).getResults()[0].getValue();
    }

    private static CallMethodResult call(OpcUaClient client, int ns, String path) throws Exception {
        return client.call(List.of(new CallMethodRequest(new NodeId(ns, "Press"), new NodeId(ns, path),
                new Variant[0]))).getResults()[0];
    }
}
