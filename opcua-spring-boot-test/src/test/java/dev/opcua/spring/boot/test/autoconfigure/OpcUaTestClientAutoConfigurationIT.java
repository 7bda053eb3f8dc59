package dev.opcua.spring.boot.test.autoconfigure;

import static dev.opcua.spring.boot.test.assertj.OpcUaAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import dev.opcua.spring.boot.test.client.OpcUaTestClient;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * The test client with {@code ApplicationContextRunner} ({@link OpcUaTestContextRunners}): the auto-configuration
 * connects it to the server once the
 * server has started, as the test asks (anonymous, a user, SignAndEncrypt with a test PKI), and closes it with the
 * context; {@link OpcUaTestClient#builder} connects one by hand.
 */
class OpcUaTestClientAutoConfigurationIT {

    private final ApplicationContextRunner runner = OpcUaTestContextRunners
            .withServerAndTestClient(new ApplicationContextRunner())
            .withBean("line", InMemoryNodeManager.class, TestLine::nodes);

    /** One PKI directory for the server of the tests with a user (passwords need a server certificate): one key pair. */
    @TempDir
    static Path sharedServerPki;

    @TempDir
    Path pkiDir;

    /** The runner with the user operator, whose password the server decrypts with its certificate. */
    private ApplicationContextRunner withOperator() {
        return runner.withPropertyValues(TestLine.OPERATOR).withPropertyValues(
                "opcua.server.security.pki-dir=" + sharedServerPki,
                "opcua.server.security.policies=None,Basic256Sha256");
    }

    @Test
    void an_anonymous_test_client_reads_the_server_on_its_bound_port_and_may_not_write_for_operators() {
        runner.run(context -> {
            OpcUaTestClient testClient = context.getBean(OpcUaTestClient.class);
            int port = context.getEnvironment().getProperty("local.opcua.server.port", Integer.class);
            assertThat(testClient.endpointUrl()).isEqualTo("opc.tcp://localhost:" + port + "/");
            assertThat(testClient.client().session()).isNotNull();
            assertThat(testClient.readValue(TestLine.SPEED)).isGood().hasValue(240.0);
            assertThat(testClient.writeValue(TestLine.SPEED, 250.0)).is(StatusCodes.BadUserAccessDenied);
            assertThat(testClient.browse("nsu=" + TestLine.NAMESPACE + ";s=Line")).isGood().containsBrowseNames("Speed");
        });
    }

    @Test
    void a_configured_user_writes_what_the_role_allows() {
        withOperator().withPropertyValues("opcua.test.client.username=operator", "opcua.test.client.password=line1-operator")
                .run(context -> {
                    OpcUaTestClient testClient = context.getBean(OpcUaTestClient.class);
                    assertThat(testClient.writeValue(TestLine.SPEED, 250.0)).isGood();
                    assertThat(testClient.readValue(TestLine.SPEED)).hasValue(250.0);
                });
    }

    @Test
    void sign_and_encrypt_gives_the_server_a_temporary_pki_and_trusts_the_certificates_both_ways() {
        Path[] serverPki = new Path[1];
        OpcUaTestClient[] closed = new OpcUaTestClient[1];
        runner.withPropertyValues("opcua.test.client.security-mode=sign-and-encrypt").run(context -> {
            assertThat(context).hasSingleBean(PkiDirectory.class);
            serverPki[0] = context.getBean(PkiDirectory.class).root();
            OpcUaTestClient testClient = context.getBean(OpcUaTestClient.class);
            closed[0] = testClient;
            assertThat(testClient.client().endpoint().securityMode()).isEqualTo(MessageSecurityMode.SignAndEncrypt);
            assertThat(testClient.client().endpoint().securityPolicyUri()).isEqualTo(SecurityPolicy.Basic256Sha256.uri());
            assertThat(testClient.readValue(TestLine.SPEED)).isGood();
        });
        assertThat(closed[0].isRunning()).isFalse();
        assertThat(serverPki[0]).doesNotExist();
    }

    @Test
    void a_pki_directory_of_the_application_gets_the_test_certificate_only_while_the_test_client_runs() {
        runner.withPropertyValues("opcua.server.security.pki-dir=" + pkiDir,
                "opcua.test.client.security-mode=SignAndEncrypt",
                "opcua.test.client.security-policy=Aes256_Sha256_RsaPss").run(context -> {
                    assertThat(context.getBean(PkiDirectory.class).root()).isEqualTo(pkiDir);
                    OpcUaTestClient testClient = context.getBean(OpcUaTestClient.class);
                    assertThat(testClient.client().endpoint().securityPolicyUri())
                            .isEqualTo(SecurityPolicy.Aes256_Sha256_RsaPss.uri());
                    assertThat(certificatesIn(pkiDir.resolve("trusted/certs"))).isEqualTo(1);
                    testClient.stop();
                    assertThat(certificatesIn(pkiDir.resolve("trusted/certs"))).isZero();
                });
    }

    @Test
    void a_secured_test_client_of_a_server_without_that_endpoint_fails_the_start_naming_what_it_offers() {
        runner.withPropertyValues("opcua.server.security.pki-dir=" + pkiDir, "opcua.server.security.policies=None",
                "opcua.test.client.security-mode=Sign").run(context -> assertThat(context).hasFailed()
                        .getFailure().rootCause().hasMessageContaining(
                                "asks for Basic256Sha256/Sign, but the server offers only None/None"));
    }

    @Test
    void a_policy_without_a_mode_fails_the_start_naming_the_properties() {
        runner.withPropertyValues("opcua.test.client.security-policy=Basic256Sha256").run(context ->
                assertThat(context).hasFailed().getFailure().rootCause().hasMessageContaining(
                        "security policy Basic256Sha256 with mode None")
                        .hasMessageContaining("opcua.test.client.security-policy=Basic256Sha256"));
    }

    @Test
    void a_wrong_password_fails_the_start_naming_the_user_and_the_endpoint() {
        withOperator().withPropertyValues("opcua.test.client.username=operator", "opcua.test.client.password=wrong")
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasStackTraceContaining("the OPC UA test client could not connect to opc.tcp://localhost:")
                        .hasStackTraceContaining("as user 'operator'")
                        .hasStackTraceContaining("BadUserAccessDenied"));
    }

    @Test
    void the_test_client_backs_off_when_disabled_or_without_a_server() {
        runner.withPropertyValues("opcua.test.client.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaTestClient.class));
        runner.withPropertyValues("opcua.server.enabled=false")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(OpcUaTestClient.class));
    }

    @Test
    void a_test_client_built_by_hand_connects_to_the_running_server_and_is_closed_by_the_test() {
        withOperator().withPropertyValues("opcua.test.client.enabled=false").run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            OpcUaTestClient closed;
            try (OpcUaTestClient operator = OpcUaTestClient.builder(server).user("operator", "line1-operator")
                    .connect()) {
                assertThat(operator.writeValue(TestLine.SPEED, 260.0)).isGood();
                closed = operator;
            }
            assertThat(closed.isRunning()).isFalse();
            assertThatIllegalStateException().isThrownBy(closed::client).withMessageContaining("is not connected");
        });
    }

    @Test
    void a_secured_test_client_of_a_server_without_a_pki_directory_says_what_to_configure() {
        runner.withPropertyValues("opcua.test.client.enabled=false").run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            assertThatIllegalStateException().isThrownBy(() -> OpcUaTestClient.builder(server)
                    .security(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt).connect())
                    .withMessageContaining("the OPC UA server has no PKI directory");
        });
    }

    private static long certificatesIn(Path dir) throws Exception {
        try (var files = Files.list(dir)) {
            return files.count();
        }
    }
}
