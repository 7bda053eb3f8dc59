package dev.opcua.spring.boot.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.actuate.audit.OpcUaAuditEventRepositoryListener;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.testing.MiloClients;
import dev.opcua.stack.server.OpcUaServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.audit.AuditEvent;
import org.springframework.boot.actuate.audit.AuditEventRepository;
import org.springframework.boot.actuate.audit.InMemoryAuditEventRepository;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * With {@code opcua.server.auditing=true} and an {@link InMemoryAuditEventRepository} bean, a failed and a
 * successful login of Eclipse Milo 1.1.2's client land in the repository with the user name, as
 * {@code /actuator/auditevents} shows them; without the repository, or without actuator, no listener.
 */
class OpcUaAuditEventsAutoConfigurationIT {

    @TempDir
    static Path pkiDir;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaAuditEventsAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=urn:test:audit:server", "opcua.server.auditing=true",
                    "opcua.server.security.policies=None,Basic256Sha256",
                    "opcua.server.security.pki-dir=" + pkiDir,
                    "opcua.server.identity.users[0].username=operator",
                    "opcua.server.identity.users[0].password={bcrypt}"
                            + OpenBSDBCrypt.generate("2a", "secret".getBytes(StandardCharsets.UTF_8), new byte[16], 4));

    @Test
    void a_failed_and_a_successful_login_are_in_the_audit_event_repository_with_the_user() {
        contextRunner.withBean(InMemoryAuditEventRepository.class).run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            assertThat(server.config().auditing()).isTrue();
            AuditEventRepository repository = context.getBean(AuditEventRepository.class);

            assertThatThrownBy(() -> MiloClients.overNone(server.endpointUrl(),
                    new UsernameProvider("operator", "wrong")));
            MiloClients.overNone(server.endpointUrl(), new UsernameProvider("operator", "secret")).disconnect();

            await().atMost(Duration.ofSeconds(10)).until(() -> repository.find("operator", null, null).size() >= 2);
            List<AuditEvent> logins = repository.find("operator", null, null).stream()
                    .filter(event -> event.getType().startsWith("OPCUA_ACTIVATE_SESSION")).toList();
            assertThat(logins).extracting(AuditEvent::getType)
                    .containsExactly("OPCUA_ACTIVATE_SESSION_FAILURE", "OPCUA_ACTIVATE_SESSION_SUCCESS");
            assertThat(logins.get(0).getData()).containsEntry("status", "BadUserAccessDenied")
                    .containsKeys("clientAddress", "sessionId");
            assertThat(logins.get(1).getData()).containsEntry("status", "Good");
        });
    }

    @Test
    void without_an_audit_event_repository_no_listener_is_made() {
        contextRunner.run(context -> assertThat(context).doesNotHaveBean(OpcUaAuditEventRepositoryListener.class));
    }

    @Test
    void without_actuator_no_listener_is_made() {
        contextRunner.withBean(InMemoryAuditEventRepository.class)
                .withClassLoader(new FilteredClassLoader(AuditEventRepository.class))
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaAuditEventRepositoryListener.class));
    }
}
