package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.diagnostics.InvalidOpcUaPropertyFailureAnalyzer;
import dev.opcua.spring.boot.autoconfigure.diagnostics.OpcUaPropertyConstraintFailureAnalyzer;
import dev.opcua.spring.boot.autoconfigure.diagnostics.StartupFailures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.support.SpringFactoriesLoader;

class InvalidOpcUaServerPropertyFailureAnalysisTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1");

    @TempDir
    Path tempDir;

    private void assertFailure(Consumer<FailureAnalysis> analysis, String... properties) {
        contextRunner.withPropertyValues(properties).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis result = StartupFailures.analyze(context.getStartupFailure());
            assertThat(result).as("analysis of %s", context.getStartupFailure()).isNotNull();
            analysis.accept(result);
        });
    }

    @Test
    void is_registered_as_a_failure_analyzer() {
        // other analyzers need constructor arguments Spring Boot provides; only ours matters here
        assertThat(SpringFactoriesLoader.forDefaultResourceLocation(getClass().getClassLoader())
                .load(FailureAnalyzer.class, SpringFactoriesLoader.FailureHandler.handleMessage((message, e) -> { })))
                .hasAtLeastOneElementOfType(InvalidOpcUaPropertyFailureAnalyzer.class)
                .hasAtLeastOneElementOfType(OpcUaPropertyConstraintFailureAnalyzer.class);
    }

    @Test
    void an_unknown_policy_name_lists_the_valid_ones() {
        assertFailure(analysis -> {
            assertThat(analysis.getDescription()).contains("Property: opcua.server.security.policies[1]")
                    .contains("Value: \"Basic999\"").contains("not a security policy");
            assertThat(analysis.getAction()).contains("None", "Basic128Rsa15", "Basic256", "Basic256Sha256",
                    "Aes128_Sha256_RsaOaep", "Aes256_Sha256_RsaPss");
        }, "opcua.server.security.policies=None,Basic999");
    }

    @Test
    void an_unknown_mode_lists_the_valid_ones() {
        assertFailure(analysis -> {
            assertThat(analysis.getDescription()).contains("Property: opcua.server.security.modes[0]")
                    .contains("Value: \"Encrypt\"");
            assertThat(analysis.getAction()).contains("Sign, SignAndEncrypt");
        }, "opcua.server.security.modes=Encrypt");
    }

    @Test
    void max_threads_below_min_threads_is_refused_by_the_stack_under_the_key() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.requests.max-threads").contains("Value: 2")
                .contains("must be at least minThreads (5)"),
                "opcua.server.requests.min-threads=5", "opcua.server.requests.max-threads=2");
    }

    @Test
    void a_negative_running_bound_per_session_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.requests.max-running-per-session").contains("Value: -1")
                .contains("must be greater than or equal to 0"),
                "opcua.server.requests.max-running-per-session=-1");
    }

    @Test
    void a_negative_bound_per_read_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.requests.max-per-read").contains("Value: -5")
                .contains("must be greater than or equal to 0"),
                "opcua.server.requests.max-per-read=-5");
    }

    @Test
    void a_negative_size_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.transport.max-message-size").contains("Value: -1B")
                .contains("must be a size of 1 to 2147483647 bytes"),
                "opcua.server.transport.max-message-size=-1B");
    }

    @Test
    void zero_reads_per_turn_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.transport.reads-per-turn").contains("Value: 0")
                .contains("must be greater than 0"),
                "opcua.server.transport.reads-per-turn=0");
    }

    @Test
    void a_zero_write_buffer_high_water_mark_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.transport.write-buffer-high-water-mark").contains("Value: 0B")
                .contains("must be a size of 1 to"),
                "opcua.server.transport.write-buffer-high-water-mark=0B");
    }

    @Test
    void a_write_buffer_limit_below_the_high_water_mark_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.transport.write-buffer-limit").contains("Value: 1048576B")
                .contains("must be at least writeBufferHighWaterMark (4194304 bytes)"),
                "opcua.server.transport.write-buffer-limit=1MB");
    }

    @Test
    void a_zero_message_receive_timeout_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.transport.message-receive-timeout"),
                "opcua.server.transport.message-receive-timeout=0s");
    }

    @Test
    void a_buffer_below_the_uasc_minimum_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.transport.max-buffer-size").contains("Value: 4096B")
                .contains("must be a size of 8192 (the smallest chunk of UA secure conversation"),
                "opcua.server.transport.max-buffer-size=4KB");
    }

    @Test
    void a_port_out_of_range_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.port").contains("Value: 70000")
                .contains("must be less than or equal to 65535"),
                "opcua.server.port=70000");
    }

    @Test
    void a_pem_file_that_does_not_exist_is_named() {
        Path missing = tempDir.resolve("missing.pem");
        assertFailure(analysis -> {
            assertThat(analysis.getDescription())
                    .contains("Property: opcua.server.security.certificate.pem-certificate")
                    .contains(missing.toString()).contains("does not exist");
            assertThat(analysis.getAction()).contains("readable file");
        }, "opcua.server.security.certificate.pem-certificate=" + missing,
                "opcua.server.security.certificate.pem-private-key=" + missing);
    }

    @Test
    void secured_policies_without_a_pki_directory_are_refused() {
        assertFailure(analysis -> {
            assertThat(analysis.getDescription()).contains("Property: opcua.server.security.policies")
                    .contains("need a PKI directory");
            assertThat(analysis.getAction()).contains("opcua.server.security.pki-dir");
        }, "opcua.server.security.policies=Basic256Sha256");
    }

    @Test
    void users_without_a_certificate_to_encrypt_their_passwords_are_refused() {
        assertFailure(analysis -> {
            assertThat(analysis.getDescription()).contains("Property: opcua.server.identity.users")
                    .contains("operator");
            assertThat(analysis.getAction()).contains("opcua.server.security.pki-dir");
        }, "opcua.server.identity.users[0].username=operator", "opcua.server.identity.users[0].password=secret");
    }

    @Test
    void an_unknown_password_encoding_is_refused_without_showing_the_password() {
        assertFailure(analysis -> {
            assertThat(analysis.getDescription()).contains("Property: opcua.server.identity.users[0].password")
                    .contains("{md5}").doesNotContain("5f4dcc3b");
            assertThat(analysis.getAction()).contains("{bcrypt}", "{sha256}", "{noop}");
        }, "opcua.server.security.pki-dir=" + tempDir, "opcua.server.identity.users[0].username=operator",
                "opcua.server.identity.users[0].password={md5}5f4dcc3b5aa765d61d8327deb882cf99");
    }

    @Test
    void no_way_to_log_in_is_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.identity.anonymous").contains("no one could open a session"),
                "opcua.server.identity.anonymous=false");
    }

    @Test
    void session_timeouts_in_the_wrong_order_are_refused() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.limits.max-session-timeout").contains("Value: PT5S")
                .contains("must be at least minSessionTimeout (PT10S)"),
                "opcua.server.limits.max-session-timeout=5s");
    }

    @Test
    void a_rule_only_the_stack_checks_is_reported_with_the_key_it_concerns() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.subscriptions.max-lifetime-count").contains("Value: 10")
                .contains("it must be at least three times maxKeepAliveCount (10000)"),
                "opcua.server.subscriptions.max-lifetime-count=10");
    }

    @Test
    void a_key_size_the_certificate_builder_does_not_make_is_refused_by_the_stack_under_the_key() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.security.certificate.key-size").contains("Value: 3000")
                .contains("must be 2048, 3072, 4096 ... 8192 bits"),
                "opcua.server.security.certificate.key-size=3000");
    }

    @Test
    void default_permissions_of_a_namespace_no_node_manager_owns_are_refused_under_their_key() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.access.namespaces").contains("Value: \"urn:test:nobody\"")
                .contains("must name a namespace a node manager owns"),
                "opcua.server.access.namespaces[0].uri=urn:test:nobody",
                "opcua.server.access.namespaces[0].permissions.observer=browse");
    }

    @Test
    void a_node_management_role_that_is_no_well_known_role_is_refused_under_its_key() {
        assertFailure(analysis -> {
            assertThat(analysis.getDescription()).contains("Property: opcua.server.node-management.roles[0]")
                    .contains("Value: \"wizard\"").contains("not a well-known role");
            assertThat(analysis.getAction()).contains("ConfigureAdmin");
        },
                "opcua.server.node-management.enabled=true", "opcua.server.node-management.roles=wizard");
    }

    @Test
    void node_management_enabled_without_roles_is_refused_under_its_key() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.node-management.roles").contains("at least one well-known role"),
                "opcua.server.node-management.enabled=true", "opcua.server.node-management.roles=");
    }

    @Test
    void a_node_management_namespace_no_accepting_manager_owns_is_refused_under_its_key() {
        assertFailure(analysis -> assertThat(analysis.getDescription())
                .contains("Property: opcua.server.node-management.namespaces").contains("urn:test:nobody")
                .contains("must name a namespace whose node manager accepts changes"),
                "opcua.server.node-management.enabled=true", "opcua.server.node-management.namespaces=urn:test:nobody");
    }

    @Test
    void a_node_management_persist_dir_that_is_a_file_is_refused_under_its_key() throws Exception {
        Path file = Files.writeString(tempDir.resolve("nodes"), "not a directory");
        assertFailure(analysis -> {
            assertThat(analysis.getDescription()).contains("Property: opcua.server.node-management.persist-dir")
                    .contains("cannot be created");
            assertThat(analysis.getAction()).contains("a writable directory");
        }, "opcua.server.node-management.enabled=true", "opcua.server.node-management.persist-dir=" + file);
    }
}
