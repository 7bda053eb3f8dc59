package dev.opcua.spring.boot.autoconfigure.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.diagnostics.StartupFailures;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** Each wrong {@code opcua.client.connections.<name>.*} value fails start-up with a report that names it. */
class OpcUaClientPropertyFailureAnalysisTest {

    private static final String PLANT = "opcua.client.connections.plant.";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class))
            .withPropertyValues(PLANT + "connect-on-start=false");

    @TempDir
    Path tempDir;

    /** A value the client's mapper or the stack refuses: the report names the connection. */
    private void assertFailure(Consumer<FailureAnalysis> analysis, String... properties) {
        assertReport(result -> {
            assertThat(result.getDescription()).startsWith("The OPC UA client connection 'plant' could not be configured");
            analysis.accept(result);
        }, properties);
    }

    /** A value that breaks a constraint of the properties, refused when they are bound. */
    private void assertReport(Consumer<FailureAnalysis> analysis, String... properties) {
        contextRunner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis result = StartupFailures.analyze(context.getStartupFailure());
            assertThat(result).as("analysis of %s", context.getStartupFailure()).isNotNull();
            analysis.accept(result);
        });
    }

    @Test
    void a_missing_endpoint_url_is_named() {
        assertReport(analysis -> assertThat(analysis.getDescription())
                .contains("Property: " + PLANT + "endpoint-url").contains("Value: (not set)")
                .contains("must not be blank"),
                PLANT + "username=operator", PLANT + "password=x");
    }

    @Test
    void an_endpoint_url_that_is_not_opc_tcp_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: " + PLANT + "endpoint-url").contains("Value: \"http://plc:4840/\""),
                PLANT + "endpoint-url=http://plc:4840/");
    }

    @Test
    void an_unknown_security_policy_lists_the_valid_ones() {
        assertFailure(analysis -> {
            assertThat(analysis.getDescription()).contains("Property: " + PLANT + "security-policy")
                    .contains("Value: \"Basic999\"");
            assertThat(analysis.getAction()).contains("Basic256Sha256", "Aes256_Sha256_RsaPss");
        }, PLANT + "endpoint-url=opc.tcp://plc:4840/", PLANT + "security-policy=Basic999");
    }

    @Test
    void an_unknown_mode_lists_the_valid_ones() {
        assertFailure(analysis -> {
            assertThat(analysis.getDescription()).contains("Property: " + PLANT + "security-mode");
            assertThat(analysis.getAction()).contains("None, Sign, SignAndEncrypt");
        }, PLANT + "endpoint-url=opc.tcp://plc:4840/", PLANT + "security-mode=Encrypt");
    }

    @Test
    void policy_none_with_mode_sign_is_refused_by_the_clients_rule() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: " + PLANT + "security-mode").contains("None goes only with None"),
                PLANT + "endpoint-url=opc.tcp://plc:4840/", PLANT + "security-policy=None",
                PLANT + "security-mode=Sign");
    }

    @Test
    void a_user_name_without_password_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription()).contains("Property: " + PLANT + "password")
                .contains("username 'operator' is set without a password"),
                PLANT + "endpoint-url=opc.tcp://plc:4840/", PLANT + "username=operator");
    }

    @Test
    void a_user_name_and_a_user_certificate_are_refused_together() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: " + PLANT + "user-certificate").contains("one identity"),
                PLANT + "endpoint-url=opc.tcp://plc:4840/", PLANT + "username=operator", PLANT + "password=x",
                PLANT + "user-certificate.pem-certificate=" + tempDir.resolve("user.pem"));
    }

    @Test
    void a_certificate_file_that_does_not_exist_is_named() {
        Path missing = tempDir.resolve("missing.pem");
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: " + PLANT + "certificate.pem-certificate").contains("does not exist"),
                PLANT + "endpoint-url=opc.tcp://plc:4840/", PLANT + "certificate.pem-certificate=" + missing,
                PLANT + "certificate.pem-private-key=" + tempDir.resolve("missing.key"));
    }

    @Test
    void a_max_reconnect_delay_below_the_initial_one_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: " + PLANT + "reconnect.max-delay").contains("Value: PT1S")
                .contains("must be at least the initial delay (PT10S)"),
                PLANT + "endpoint-url=opc.tcp://plc:4840/", PLANT + "reconnect.initial-delay=10s",
                PLANT + "reconnect.max-delay=1s");
    }

    @Test
    void an_unknown_behaviour_while_reconnecting_lists_the_valid_ones() {
        assertFailure(analysis -> {
            assertThat(analysis.getDescription()).contains("Property: " + PLANT + "reconnect.while-reconnecting");
            assertThat(analysis.getAction()).contains("wait", "fail-fast");
        }, PLANT + "endpoint-url=opc.tcp://plc:4840/", PLANT + "reconnect.while-reconnecting=queue");
    }

    @Test
    void a_zero_request_timeout_is_refused() {
        assertReport(analysis -> assertThat(analysis.getDescription())
                .contains("Property: " + PLANT + "request-timeout").contains("must be a positive duration"),
                PLANT + "endpoint-url=opc.tcp://plc:4840/", PLANT + "request-timeout=0s");
    }

    @Test
    void a_buffer_size_below_the_minimum_is_refused() {
        assertReport(analysis -> assertThat(analysis.getDescription())
                .contains("Property: " + PLANT + "transport.max-buffer-size").contains("must be a size of 8192"),
                PLANT + "endpoint-url=opc.tcp://plc:4840/", PLANT + "transport.max-buffer-size=1KB");
    }
}
