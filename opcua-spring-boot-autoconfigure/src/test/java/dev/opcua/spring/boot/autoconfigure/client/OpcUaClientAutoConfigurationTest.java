package dev.opcua.spring.boot.autoconfigure.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.client.OpcUaClientCustomizer;
import dev.opcua.spring.boot.client.OpcUaClientLifecycle;
import dev.opcua.spring.boot.client.OpcUaClients;
import dev.opcua.spring.boot.client.OpcUaConnection;
import dev.opcua.stack.client.ClientState;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.OpcUaClientConfig;
import dev.opcua.stack.client.OpcUaClientConfig.WhileReconnecting;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.CertificateLoader;
import dev.opcua.stack.server.OpcUaServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class OpcUaClientAutoConfigurationTest {

    private static final String PLANT = "opcua.client.connections.plant.";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class));

    /** A connection that is not connected on start, so that a test of its configuration needs no server. */
    private ApplicationContextRunner plant(String... properties) {
        return contextRunner.withPropertyValues(PLANT + "endpoint-url=opc.tcp://localhost:4840/",
                PLANT + "connect-on-start=false").withPropertyValues(properties);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void without_connections_there_is_no_client_but_the_registry_and_lifecycle_exist() {
        contextRunner.run(context -> {
            assertThat(context).doesNotHaveBean(OpcUaClient.class);
            assertThat(context.getBean(OpcUaClients.class).names()).isEmpty();
            assertThat(context).hasSingleBean(OpcUaClientLifecycle.class);
        });
    }

    @Test
    void one_connection_is_one_client_bean_named_after_it_and_injectable_by_type() {
        plant().run(context -> {
            assertThat(context).hasSingleBean(OpcUaClient.class);
            assertThat(context).hasBean("plantOpcUaClient");
            OpcUaClient client = context.getBean(OpcUaClient.class);
            assertThat(client.config().endpointUrl()).isEqualTo("opc.tcp://localhost:4840/");
            assertThat(context.getBean(OpcUaClients.class).resolve("")).isSameAs(client);
            assertThat(client.state()).isEqualTo(ClientState.DISCONNECTED);
        });
    }

    @Test
    void the_defaults_are_the_clients_own() {
        plant().run(context -> {
            OpcUaClientConfig config = context.getBean(OpcUaClient.class).config();
            OpcUaClientConfig defaults = OpcUaClientConfig.builder("opc.tcp://localhost:4840/").build();
            assertThat(config.securityPolicy()).isNull();
            assertThat(config.securityMode()).isNull();
            assertThat(config.allowedSecurityPolicies()).isEqualTo(defaults.allowedSecurityPolicies());
            assertThat(config.identity()).isEqualTo(ClientIdentity.anonymous());
            assertThat(config.requestTimeout()).isEqualTo(defaults.requestTimeout());
            assertThat(config.sessionTimeout()).isEqualTo(defaults.sessionTimeout());
            assertThat(config.keepAliveInterval()).isEqualTo(defaults.keepAliveInterval());
            assertThat(config.keepAliveFailuresAllowed()).isEqualTo(defaults.keepAliveFailuresAllowed());
            assertThat(config.reconnectInitialDelay()).isEqualTo(defaults.reconnectInitialDelay());
            assertThat(config.reconnectMaxDelay()).isEqualTo(defaults.reconnectMaxDelay());
            assertThat(config.whileReconnecting()).isEqualTo(WhileReconnecting.WAIT);
            assertThat(config.maxWaitingRequests()).isEqualTo(defaults.maxWaitingRequests());
            assertThat(config.quotas()).isEqualTo(defaults.quotas());
            assertThat(config.subscriptionSettings().toString()).isEqualTo(defaults.subscriptionSettings().toString());
            assertThat(config.keepTryingToConnect()).as("not fail-fast: keeps trying while the server is down").isTrue();
            assertThat(config.sessionName()).isEqualTo("dev.opcua client plant");
        });
    }

    @Test
    void every_property_group_is_bound() {
        plant(PLANT + "security-policy=Basic256Sha256", PLANT + "security-mode=signandencrypt",
                PLANT + "allowed-security-policies=None,Basic256Sha256",
                PLANT + "username=operator", PLANT + "password=secret",
                PLANT + "application-name=Line 1 MES", PLANT + "application-uri=urn:acme:mes",
                PLANT + "product-uri=urn:acme:product", PLANT + "session-name=mes-session",
                PLANT + "accept-any-server-certificate=true",
                PLANT + "request-timeout=3s", PLANT + "session-timeout=5m",
                PLANT + "keep-alive.interval=2s", PLANT + "keep-alive.failures-allowed=3",
                PLANT + "reconnect.initial-delay=200ms", PLANT + "reconnect.max-delay=12s",
                PLANT + "reconnect.while-reconnecting=fail-fast", PLANT + "reconnect.max-waiting-requests=7",
                PLANT + "fail-fast=true",
                PLANT + "transport.max-message-size=4MB", PLANT + "transport.max-buffer-size=32KB",
                PLANT + "transport.max-chunk-count=64", PLANT + "transport.max-string-length=1000",
                PLANT + "transport.max-byte-string-length=2MB", PLANT + "transport.max-array-length=5000",
                PLANT + "transport.max-encoding-nesting-levels=50", PLANT + "transport.security-token-lifetime=10m",
                PLANT + "subscriptions.max-publish-requests=3", PLANT + "subscriptions.max-queued-notifications=99",
                PLANT + "subscriptions.max-items-per-request=250").run(context -> {
                    OpcUaClientConfig config = context.getBean(OpcUaClient.class).config();
                    assertThat(config.securityPolicy()).isEqualTo(SecurityPolicy.Basic256Sha256);
                    assertThat(config.securityMode()).isEqualTo(MessageSecurityMode.SignAndEncrypt);
                    assertThat(config.allowedSecurityPolicies())
                            .containsExactlyInAnyOrder(SecurityPolicy.None, SecurityPolicy.Basic256Sha256);
                    assertThat(config.identity()).isEqualTo(ClientIdentity.userName("operator", "secret"));
                    assertThat(config.applicationName()).isEqualTo("Line 1 MES");
                    assertThat(config.applicationUri()).isEqualTo("urn:acme:mes");
                    assertThat(config.productUri()).isEqualTo("urn:acme:product");
                    assertThat(config.sessionName()).isEqualTo("mes-session");
                    assertThat(config.acceptAnyServerCertificate()).isTrue();
                    assertThat(config.requestTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(config.sessionTimeout()).isEqualTo(Duration.ofMinutes(5));
                    assertThat(config.keepAliveInterval()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(config.keepAliveFailuresAllowed()).isEqualTo(3);
                    assertThat(config.reconnectInitialDelay()).isEqualTo(Duration.ofMillis(200));
                    assertThat(config.reconnectMaxDelay()).isEqualTo(Duration.ofSeconds(12));
                    assertThat(config.whileReconnecting()).isEqualTo(WhileReconnecting.FAIL_FAST);
                    assertThat(config.maxWaitingRequests()).isEqualTo(7);
                    assertThat(config.keepTryingToConnect()).isFalse();
                    TransportQuotas quotas = config.quotas();
                    assertThat(quotas.operationTimeout()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(quotas.maxMessageSize()).isEqualTo(4 * 1024 * 1024);
                    assertThat(quotas.maxBufferSize()).isEqualTo(32 * 1024);
                    assertThat(quotas.maxChunkCount()).isEqualTo(64);
                    assertThat(quotas.maxStringLength()).isEqualTo(1000);
                    assertThat(quotas.maxByteStringLength()).isEqualTo(2 * 1024 * 1024);
                    assertThat(quotas.maxArrayLength()).isEqualTo(5000);
                    assertThat(quotas.maxEncodingNestingLevels()).isEqualTo(50);
                    assertThat(quotas.securityTokenLifetime()).isEqualTo(Duration.ofMinutes(10));
                    assertThat(config.subscriptionSettings().maxPublishRequests()).isEqualTo(3);
                    assertThat(config.subscriptionSettings().maxQueuedNotifications()).isEqualTo(99);
                    assertThat(config.subscriptionSettings().maxItemsPerRequest()).isEqualTo(250);
                    assertThat(config.subscriptionSettings().requestTimeout()).isEqualTo(Duration.ofSeconds(3));
                });
    }

    @Test
    void a_user_certificate_from_pem_files_and_a_client_certificate_from_a_key_store_are_loaded(@TempDir Path dir) throws Exception {
        ApplicationCertificate user = CertificateBuilder.forApplication("operator").build();
        CertificateLoader.save(user, dir.resolve("user.pem"), dir.resolve("user.key"));
        ApplicationCertificate own = CertificateBuilder.forApplication("mes").applicationUri("urn:acme:mes").build();
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("mes", own.privateKey(), "secret".toCharArray(), new Certificate[] {own.certificate()});
        try (OutputStream out = Files.newOutputStream(dir.resolve("mes.p12"))) {
            store.store(out, "secret".toCharArray());
        }
        plant(PLANT + "user-certificate.pem-certificate=" + dir.resolve("user.pem"),
                PLANT + "user-certificate.pem-private-key=" + dir.resolve("user.key"),
                PLANT + "certificate.keystore=" + dir.resolve("mes.p12"), PLANT + "certificate.keystore-password=secret",
                PLANT + "certificate.alias=mes", PLANT + "application-uri=urn:acme:mes").run(context -> {
                    OpcUaClientConfig config = context.getBean(OpcUaClient.class).config();
                    assertThat(config.identity()).isEqualTo(ClientIdentity.x509(user));
                    assertThat(config.certificate().certificate()).isEqualTo(own.certificate());
                });
    }

    @Test
    void a_secure_connection_as_a_user_reaches_the_server_of_the_same_application(@TempDir Path dir) throws IOException {
        int port = freePort();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                        OpcUaClientAutoConfiguration.class))
                .withPropertyValues("opcua.server.port=" + port, "opcua.server.bind-address=127.0.0.1",
                        "opcua.server.security.pki-dir=" + dir.resolve("server-pki"),
                        "opcua.server.security.auto-accept-untrusted=true",
                        "opcua.server.identity.users[0].username=operator",
                        "opcua.server.identity.users[0].password=line1-operator",
                        PLANT + "endpoint-url=opc.tcp://127.0.0.1:" + port + "/",
                        PLANT + "security-policy=Basic256Sha256", PLANT + "security-mode=SignAndEncrypt",
                        PLANT + "username=operator", PLANT + "password=line1-operator",
                        PLANT + "pki-dir=" + dir.resolve("client-pki"), PLANT + "accept-any-server-certificate=true",
                        PLANT + "fail-fast=true")
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    OpcUaClient client = context.getBean(OpcUaClient.class);
                    assertThat(client.state()).isEqualTo(ClientState.CONNECTED);
                    assertThat(client.endpoint().securityMode()).isEqualTo(MessageSecurityMode.SignAndEncrypt);
                    assertThat(client.endpoint().securityPolicyUri()).isEqualTo(SecurityPolicy.Basic256Sha256.uri());
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.statistics().sessions()).singleElement()
                            .satisfies(session -> assertThat(session.identity().userName()).isEqualTo("operator"));
                });
    }

    @Test
    void two_connections_are_two_clients_selected_by_their_qualifier() {
        contextRunner.withPropertyValues(
                "opcua.client.connections.line1.endpoint-url=opc.tcp://line1:4840/",
                "opcua.client.connections.line1.connect-on-start=false",
                "opcua.client.connections.line2.endpoint-url=opc.tcp://line2:4841/",
                "opcua.client.connections.line2.connect-on-start=false")
                .withUserConfiguration(TwoLines.class).run(context -> {
                    assertThat(context.getBeansOfType(OpcUaClient.class)).containsOnlyKeys("line1OpcUaClient",
                            "line2OpcUaClient");
                    TwoLines lines = context.getBean(TwoLines.class);
                    assertThat(lines.line1.config().endpointUrl()).isEqualTo("opc.tcp://line1:4840/");
                    assertThat(lines.line2.config().endpointUrl()).isEqualTo("opc.tcp://line2:4841/");
                    assertThat(context.getBean(OpcUaClients.class).names()).containsExactly("line1", "line2");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoLines {
        final OpcUaClient line1;
        final OpcUaClient line2;

        TwoLines(@OpcUaConnection("line1") OpcUaClient line1, @OpcUaConnection("line2") OpcUaClient line2) {
            this.line1 = line1;
            this.line2 = line2;
        }
    }

    @Test
    void customizers_change_the_configuration_of_each_connection_by_name() {
        plant().withBean(OpcUaClientCustomizer.class, () -> (connection, builder) -> builder
                .sessionName("customized " + connection)).run(context -> assertThat(context.getBean(OpcUaClient.class)
                        .config().sessionName()).isEqualTo("customized plant"));
    }

    @Test
    void an_applications_own_client_bean_of_the_connections_name_wins() {
        OpcUaClient own = OpcUaClient.create("opc.tcp://own:4840/");
        plant().withBean("plantOpcUaClient", OpcUaClient.class, () -> own).run(context -> {
            assertThat(context).hasSingleBean(OpcUaClient.class);
            assertThat(context.getBean(OpcUaClient.class)).isSameAs(own);
            assertThat(context.getBean(OpcUaClients.class).resolve("plant")).isSameAs(own);
        });
    }

    @Test
    void backs_off_without_the_client_on_the_classpath() {
        plant().withClassLoader(new FilteredClassLoader(OpcUaClient.class))
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaClients.class)
                        .doesNotHaveBean("plantOpcUaClient"));
    }

    @Test
    void backs_off_when_disabled() {
        plant("opcua.client.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(OpcUaClients.class).doesNotHaveBean(OpcUaClient.class));
    }

    @Test
    void the_client_connects_on_start_and_disconnects_when_the_context_closes() throws IOException {
        int port = freePort();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                        OpcUaClientAutoConfiguration.class))
                .withPropertyValues("opcua.server.port=" + port, "opcua.server.bind-address=127.0.0.1",
                        PLANT + "endpoint-url=opc.tcp://127.0.0.1:" + port + "/")
                .run(context -> {
                    OpcUaClient client = context.getBean(OpcUaClient.class);
                    DataValue state = client.readValue(NodeId.ns0(NodeIds.Server_ServerStatus_State))
                            .get(10, TimeUnit.SECONDS);
                    assertThat(state.value().value()).isEqualTo(0);
                    assertThat(client.state()).isEqualTo(ClientState.CONNECTED);
                    context.close();
                    assertThat(client.state()).isEqualTo(ClientState.DISCONNECTED);
                });
    }

    @Test
    void a_server_that_is_down_does_not_hold_up_start_up_and_the_client_keeps_trying() throws IOException {
        int port = freePort();
        plant(PLANT + "endpoint-url=opc.tcp://127.0.0.1:" + port + "/", PLANT + "connect-on-start=true",
                PLANT + "reconnect.initial-delay=50ms", PLANT + "reconnect.max-delay=100ms").run(context -> {
                    assertThat(context).hasNotFailed();
                    OpcUaClient client = context.getBean(OpcUaClient.class);
                    assertThat(client.state()).isIn(ClientState.CONNECTING, ClientState.RECONNECTING);
                });
    }

    @Test
    void a_fail_fast_connection_to_a_server_that_is_down_fails_start_up_naming_the_connection() throws IOException {
        int port = freePort();
        plant(PLANT + "endpoint-url=opc.tcp://127.0.0.1:" + port + "/", PLANT + "connect-on-start=true",
                PLANT + "fail-fast=true", PLANT + "request-timeout=2s").run(context -> {
                    assertThat(context).hasFailed();
                    FailureAnalysis analysis = new OpcUaClientConnectFailureAnalyzer()
                            .analyze(context.getStartupFailure());
                    assertThat(analysis).as("analysis of %s", context.getStartupFailure()).isNotNull();
                    assertThat(analysis.getDescription()).contains("connection 'plant' could not connect to opc.tcp://127.0.0.1:"
                            + port + "/").contains("fail-fast is true");
                    assertThat(analysis.getAction()).contains("opcua.client.connections.plant.fail-fast=false");
                });
    }
}
