package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.server.OpcUaServerCustomizer;
import dev.opcua.spring.boot.server.OpcUaServerLifecycle;
import dev.opcua.spring.boot.server.OpcUaServerStartedEvent;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.requests.RequestPoolSettings;
import dev.opcua.stack.server.roles.NodePermissions;
import dev.opcua.stack.server.roles.Permission;
import dev.opcua.stack.server.roles.WellKnownRole;
import dev.opcua.stack.server.services.OperationLimits;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.IdentityValidator;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.items.MonitoredItemSettings;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

class OpcUaServerAutoConfigurationTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1");

    @TempDir
    Path tempDir;

    /** One PKI directory for the tests that need a certificate but not a particular one: one key pair to make. */
    @TempDir
    static Path sharedPkiDir;

    private static OpcUaServerPropertiesMapper mapper(AssertableApplicationContext context) {
        return new OpcUaServerPropertiesMapper(context.getBean(OpcUaServerProperties.class));
    }

    @Test
    void empty_properties_give_the_stacks_default_server() {
        OpcUaServerProperties properties = new OpcUaServerProperties();
        OpcUaServerPropertiesMapper defaults = new OpcUaServerPropertiesMapper(properties);
        assertThat(properties.getPort()).isEqualTo(4840);
        assertThat(properties.getPath()).isEqualTo("/");
        assertThat(properties.getHostnames()).containsExactly("localhost");
        assertThat(defaults.transportQuotas()).isEqualTo(TransportQuotas.DEFAULT);
        assertThat(defaults.requestPool()).isEqualTo(RequestPoolSettings.DEFAULT);
        assertThat(defaults.sessionSettings()).isEqualTo(SessionSettings.DEFAULT);
        assertThat(defaults.operationLimits()).isEqualTo(OperationLimits.NONE);
        assertThat(properties.getLimits().getMaxBrowseContinuationPoints()).isEqualTo(10);
        assertThat(defaults.subscriptionSettings()).isEqualTo(SubscriptionSettings.DEFAULT);
        assertThat(defaults.monitoredItemSettings()).isEqualTo(MonitoredItemSettings.DEFAULT);
        assertThat(defaults.endpointSecurity(false)).containsExactly(EndpointSecurity.NONE);
        ValidationOptions validation = defaults.validationOptions();
        ValidationOptions stack = ValidationOptions.defaults();
        assertThat(validation.minKeyBits()).isEqualTo(stack.minKeyBits());
        assertThat(validation.rejectSha1Signed()).isEqualTo(stack.rejectSha1Signed());
        assertThat(validation.autoAcceptUntrusted()).isEqualTo(stack.autoAcceptUntrusted());
        assertThat(properties.getSecurity().getCertificate().getKeySize()).isEqualTo(2048);
        assertThat(properties.getShutdownDelay()).isZero();
        assertThat(defaults.applicationCertificate()).isNull();
    }

    @Test
    void the_auto_configured_server_starts_with_the_stacks_defaults() {
        contextRunner.run(context -> {
            assertThat(context).hasSingleBean(OpcUaServer.class).hasSingleBean(OpcUaServerLifecycle.class)
                    .hasSingleBean(IdentityValidator.class).doesNotHaveBean(PkiDirectory.class);
            OpcUaServer server = context.getBean(OpcUaServer.class);
            assertThat(server.isRunning()).isTrue();
            assertThat(server.port()).isPositive();
            assertThat(server.endpointUrl()).isEqualTo("opc.tcp://localhost:" + server.port() + "/");
            assertThat(server.config().sessionSettings()).isEqualTo(SessionSettings.DEFAULT);
            assertThat(server.config().subscriptionSettings()).isEqualTo(SubscriptionSettings.DEFAULT);
            assertThat(server.statistics().requests().queueCapacity()).isEqualTo(RequestPoolSettings.DEFAULT.maxQueued());
            assertThat(server.serverStatus().buildInfo().productUri()).isEqualTo("urn:dev.opcua:stack");
            assertThat(server.applicationCertificate()).isNull();
            assertThat(server.endpoints()).singleElement().satisfies(endpoint -> {
                assertThat(endpoint.securityPolicyUri()).isEqualTo(SecurityPolicy.None.uri());
                assertThat(endpoint.userIdentityTokens()).extracting(UserTokenPolicy::tokenType)
                        .containsExactly(UserTokenType.Anonymous);
            });
        });
    }

    @Test
    void backs_off_without_the_stack_server_on_the_classpath() {
        contextRunner.withClassLoader(new FilteredClassLoader(OpcUaServer.class))
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaServerProperties.class)
                        .doesNotHaveBean(OpcUaServerLifecycle.class));
    }

    @Test
    void backs_off_when_disabled() {
        contextRunner.withPropertyValues("opcua.server.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaServer.class)
                        .doesNotHaveBean(OpcUaServerLifecycle.class).doesNotHaveBean(IdentityValidator.class));
    }

    @Test
    void a_server_bean_of_the_application_wins_and_is_started_by_the_lifecycle() {
        OpcUaServer own = OpcUaServer.builder().applicationUri("urn:test:own").bindAddress("127.0.0.1").port(0).build();
        contextRunner.withBean(OpcUaServer.class, () -> own).run(context -> {
            assertThat(context).hasSingleBean(OpcUaServer.class);
            assertThat(context.getBean(OpcUaServer.class)).isSameAs(own);
            assertThat(own.isRunning()).isTrue();
        });
        assertThat(own.isRunning()).isFalse();
    }

    @Test
    void an_identity_validator_of_the_application_wins_and_is_offered_with_user_names() {
        IdentityValidator own = (token, policy) -> Identity.ANONYMOUS;
        contextRunner.withPropertyValues("opcua.server.security.policies=None,Basic256Sha256",
                        "opcua.server.security.pki-dir=" + sharedPkiDir)
                .withBean(IdentityValidator.class, () -> own).run(context -> {
                    assertThat(context.getBean(IdentityValidator.class)).isSameAs(own);
                    assertThat(tokenTypes(context.getBean(OpcUaServer.class)))
                            .contains(UserTokenType.Anonymous, UserTokenType.UserName);
                });
    }

    @Test
    void ecc_policies_by_name_get_their_curve_certificates_in_the_pki_directory(@TempDir Path pkiDir) {
        contextRunner.withPropertyValues("opcua.server.security.policies=ECC_nistP256,ECC_brainpoolP384r1",
                        "opcua.server.security.modes=SignAndEncrypt", "opcua.server.security.pki-dir=" + pkiDir)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.endpoints()).extracting(EndpointDescription::securityPolicyUri)
                            .containsOnly(SecurityPolicy.ECC_nistP256.uri(), SecurityPolicy.ECC_brainpoolP384r1.uri());
                    assertThat(server.applicationCertificate(CertificateType.ECC_NIST_P256)).isNotNull();
                    assertThat(server.applicationCertificate(CertificateType.ECC_BRAINPOOL_P384R1)).isNotNull();
                    assertThat(pkiDir.resolve("own/certs")).isDirectoryContaining(p -> p.getFileName().toString()
                            .endsWith(".ecc-brainpoolP384r1.der"));
                });
    }

    @Test
    void transport_properties_reach_the_quotas() {
        contextRunner.withPropertyValues("opcua.server.transport.operation-timeout=30s",
                "opcua.server.transport.max-message-size=4MB", "opcua.server.transport.max-buffer-size=32KB",
                "opcua.server.transport.max-chunk-count=200", "opcua.server.transport.max-string-length=1000",
                "opcua.server.transport.max-byte-string-length=2MB", "opcua.server.transport.max-array-length=5000",
                "opcua.server.transport.max-encoding-nesting-levels=50", "opcua.server.transport.channel-lifetime=1m",
                "opcua.server.transport.security-token-lifetime=30m", "opcua.server.transport.hello-timeout=5s",
                "opcua.server.transport.io-threads=2", "opcua.server.transport.reads-per-turn=4",
                "opcua.server.limits.max-channels=50",
                "opcua.server.transport.message-receive-timeout=7s",
                "opcua.server.transport.write-buffer-high-water-mark=512KB",
                "opcua.server.transport.write-stall-timeout=9s",
                "opcua.server.transport.write-buffer-limit=8MB").run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(mapper(context).transportQuotas()).isEqualTo(TransportQuotas.builder()
                            .operationTimeout(Duration.ofSeconds(30)).maxMessageSize(4 << 20).maxBufferSize(32 << 10)
                            .maxChunkCount(200).maxStringLength(1000).maxByteStringLength(2 << 20)
                            .maxArrayLength(5000).maxEncodingNestingLevels(50).channelLifetime(Duration.ofMinutes(1))
                            .securityTokenLifetime(Duration.ofMinutes(30)).helloTimeout(Duration.ofSeconds(5))
                            .maxConnections(50).messageReceiveTimeout(Duration.ofSeconds(7))
                            .writeBufferHighWaterMark(512 << 10).writeStallTimeout(Duration.ofSeconds(9))
                            .writeBufferLimit(8 << 20).build());
                    assertThat(context.getBean(OpcUaServer.class).isRunning()).isTrue();
                });
    }

    @Test
    void request_properties_reach_the_request_pool() {
        contextRunner.withPropertyValues("opcua.server.requests.max-queued=7", "opcua.server.requests.min-threads=1",
                "opcua.server.requests.max-threads=3", "opcua.server.requests.max-priority-queued=4",
                "opcua.server.requests.max-request-age=30s", "opcua.server.requests.worker-keep-alive=5s",
                "opcua.server.requests.inline-when-idle=false", "opcua.server.requests.max-running-per-session=2",
                "opcua.server.requests.max-per-read=64")
                .run(context -> {
                    assertThat(mapper(context).requestPool()).isEqualTo(new RequestPoolSettings(1, 3, 7, 4,
                            Duration.ofSeconds(5), Duration.ofSeconds(30), false,
                            RequestPoolSettings.DEFAULT.shutdownTimeout(), false, 2, 64));
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.statistics().requests().queueCapacity()).isEqualTo(7);
                    assertThat(server.statistics().requests().priorityQueueCapacity()).isEqualTo(4);
                    assertThat(server.statistics().virtualThreadWorkers()).isFalse();
                });
    }

    @Test
    void limit_properties_reach_the_sessions_and_operation_limits() {
        contextRunner.withPropertyValues("opcua.server.limits.max-sessions=3",
                "opcua.server.limits.min-session-timeout=5s", "opcua.server.limits.max-session-timeout=2m",
                "opcua.server.limits.max-failed-authentication-attempts=2",
                "opcua.server.limits.failed-authentication-lockout=10s",
                "opcua.server.limits.max-browse-continuation-points=4",
                "opcua.server.limits.max-browse-path-elements=9",
                "opcua.server.limits.operation.max-nodes-per-read=11",
                "opcua.server.limits.operation.max-nodes-per-write=12",
                "opcua.server.limits.operation.max-nodes-per-browse=13",
                "opcua.server.limits.operation.max-nodes-per-method-call=14",
                "opcua.server.limits.operation.max-nodes-per-translate-browse-paths=15",
                "opcua.server.limits.operation.max-nodes-per-register-nodes=16",
                "opcua.server.limits.operation.max-monitored-items-per-call=17").run(context -> {
                    SessionSettings expected = new SessionSettings(3, Duration.ofSeconds(5), Duration.ofMinutes(2), 2,
                            Duration.ofSeconds(10));
                    assertThat(context.getBean(OpcUaServer.class).config().sessionSettings()).isEqualTo(expected);
                    assertThat(mapper(context).operationLimits())
                            .isEqualTo(new OperationLimits(11, 12, 13, 14, 15, 16, 17));
                    assertThat(context.getBean(OpcUaServer.class).config().maxBrowseContinuationPoints()).isEqualTo(4);
                    assertThat(context.getBean(OpcUaServer.class).config().maxBrowsePathElements())
                            .isEqualTo(9);
                });
    }

    @Test
    void subscription_properties_reach_the_subscriptions_and_monitored_items() {
        contextRunner.withPropertyValues("opcua.server.subscriptions.min-publishing-interval=50ms",
                "opcua.server.subscriptions.max-publishing-interval=10m",
                "opcua.server.subscriptions.min-keep-alive-count=2",
                "opcua.server.subscriptions.max-keep-alive-count=100",
                "opcua.server.subscriptions.max-lifetime-count=300",
                "opcua.server.subscriptions.max-subscriptions=9",
                "opcua.server.subscriptions.max-subscriptions-per-session=3",
                "opcua.server.subscriptions.max-monitored-items=1000",
                "opcua.server.subscriptions.max-monitored-items-per-subscription=100",
                "opcua.server.subscriptions.max-publish-requests-per-session=5",
                "opcua.server.subscriptions.max-notifications-per-publish=50",
                "opcua.server.subscriptions.max-retransmission-queue-size=0",
                "opcua.server.subscriptions.max-notification-queue-size=20",
                "opcua.server.subscriptions.min-event-queue-size=10",
                "opcua.server.subscriptions.default-event-queue-size=20",
                "opcua.server.subscriptions.max-event-queue-size=30",
                "opcua.server.subscriptions.min-sampling-interval=5ms",
                "opcua.server.subscriptions.max-sampling-interval=1m").run(context -> {
                    SubscriptionSettings expected = SubscriptionSettings.builder()
                            .minPublishingInterval(Duration.ofMillis(50)).maxPublishingInterval(Duration.ofMinutes(10))
                            .minKeepAliveCount(2).maxKeepAliveCount(100).maxLifetimeCount(300).maxSubscriptions(9)
                            .maxSubscriptionsPerSession(3).maxMonitoredItems(1000).maxMonitoredItemsPerSubscription(100)
                            .maxPublishRequestsPerSession(5).maxNotificationsPerPublish(50).maxRetransmissionQueueSize(0)
                            .build();
                    assertThat(context.getBean(OpcUaServer.class).config().subscriptionSettings()).isEqualTo(expected);
                    assertThat(mapper(context).monitoredItemSettings())
                            .isEqualTo(new MonitoredItemSettings(5, 60_000, 20, 10, 20, 30));
                });
    }

    @Test
    void security_properties_give_endpoints_and_a_certificate_from_the_pki_directory() {
        contextRunner.withPropertyValues("opcua.server.security.policies=None,Basic256Sha256,Aes256_Sha256_RsaPss",
                "opcua.server.security.modes=SignAndEncrypt", "opcua.server.security.pki-dir=" + tempDir,
                "opcua.server.security.certificate.validity=2y", "opcua.server.security.auto-accept-untrusted=true",
                "opcua.server.security.min-key-size=3072", "opcua.server.security.reject-sha1-signed=false")
                .run(context -> {
                    assertThat(context).hasSingleBean(PkiDirectory.class);
                    assertThat(context.getBean(PkiDirectory.class).root()).isEqualTo(tempDir.toAbsolutePath());
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.endpoints()).extracting(EndpointDescription::securityPolicyUri,
                            EndpointDescription::securityMode).containsExactlyInAnyOrder(
                                    org.assertj.core.groups.Tuple.tuple(SecurityPolicy.None.uri(), MessageSecurityMode.None),
                                    org.assertj.core.groups.Tuple.tuple(SecurityPolicy.Basic256Sha256.uri(),
                                            MessageSecurityMode.SignAndEncrypt),
                                    org.assertj.core.groups.Tuple.tuple(SecurityPolicy.Aes256_Sha256_RsaPss.uri(),
                                            MessageSecurityMode.SignAndEncrypt));
                    X509Certificate certificate = server.applicationCertificate().certificate();
                    assertThat(((RSAPublicKey) certificate.getPublicKey()).getModulus().bitLength()).isEqualTo(2048);
                    long days = Duration.between(certificate.getNotBefore().toInstant(),
                            certificate.getNotAfter().toInstant()).toDays();
                    assertThat(days).isBetween(729L, 732L);
                    assertThat(tempDir.resolve("own/certs")).isNotEmptyDirectory();
                    ValidationOptions validation = mapper(context).validationOptions();
                    assertThat(validation.autoAcceptUntrusted()).isTrue();
                    assertThat(validation.minKeyBits()).isEqualTo(3072);
                    assertThat(validation.rejectSha1Signed()).isFalse();
                });
    }

    @Test
    void push_management_properties_reach_the_server_and_default_to_on_with_one_megabyte() {
        contextRunner.withPropertyValues("opcua.server.security.pki-dir=" + sharedPkiDir).run(context -> {
            assertThat(context.getBean(OpcUaServer.class).config().pushManagement()).isTrue();
            assertThat(context.getBean(OpcUaServer.class).config().maxTrustListSize()).isEqualTo(1 << 20);
        });
        contextRunner.withPropertyValues("opcua.server.security.pki-dir=" + sharedPkiDir,
                "opcua.server.security.push-management.enabled=false",
                "opcua.server.security.push-management.max-trust-list-size=64KB").run(context -> {
                    assertThat(context.getBean(OpcUaServer.class).config().pushManagement()).isFalse();
                    assertThat(context.getBean(OpcUaServer.class).config().maxTrustListSize()).isEqualTo(64 * 1024);
                });
    }

    @Test
    void node_management_is_off_by_default_and_its_properties_reach_the_server() {
        contextRunner.run(context -> {
            assertThat(context.getBean(OpcUaServer.class).config().nodeManagement().enabled()).isFalse();
            assertThat(context.getBean(OpcUaServer.class).config().operationLimits().maxNodesPerNodeManagement())
                    .isZero();
        });
        contextRunner.withPropertyValues("opcua.server.node-management.enabled=true",
                "opcua.server.node-management.roles=configure-admin,Engineer",
                "opcua.server.limits.operation.max-nodes-per-node-management=50").run(context -> {
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    assertThat(server.config().nodeManagement().enabled()).isTrue();
                    assertThat(server.config().nodeManagement().roles())
                            .containsExactlyInAnyOrder(WellKnownRole.CONFIGURE_ADMIN, WellKnownRole.ENGINEER);
                    assertThat(server.config().nodeManagement().namespaces()).isEmpty();
                    assertThat(server.config().operationLimits().maxNodesPerNodeManagement()).isEqualTo(50);
                    assertThat(server.config().nodeManagement().persistDirectory()).isNull();
                });
    }

    @Test
    void node_management_persist_dir_is_created_and_reaches_the_server(@TempDir Path directory) {
        Path nodes = directory.resolve("data/nodes");
        contextRunner.withPropertyValues("opcua.server.node-management.enabled=true",
                "opcua.server.node-management.persist-dir=" + nodes).run(context -> {
                    assertThat(context.getBean(OpcUaServer.class).config().nodeManagement().persistDirectory())
                            .isEqualTo(nodes);
                    assertThat(nodes).isDirectory();
                });
    }

    @Test
    void a_pki_directory_without_policies_offers_the_recommended_policies_without_none() {
        contextRunner.withPropertyValues("opcua.server.security.pki-dir=" + sharedPkiDir).run(context -> {
            assertThat(context.getBean(OpcUaServer.class).endpoints()).extracting(EndpointDescription::securityPolicyUri)
                    .containsOnly(SecurityPolicy.Basic256Sha256.uri(), SecurityPolicy.Aes128_Sha256_RsaOaep.uri(),
                            SecurityPolicy.Aes256_Sha256_RsaPss.uri())
                    .hasSize(6);
        });
    }

    @Test
    void identity_properties_give_a_validator_of_users_and_their_token_policies() {
        contextRunner.withPropertyValues("opcua.server.security.policies=None",
                "opcua.server.security.pki-dir=" + sharedPkiDir, "opcua.server.identity.anonymous=false",
                "opcua.server.identity.users[0].username=operator", "opcua.server.identity.users[0].password=secret",
                "opcua.server.identity.users[0].roles=operator,observer",
                "opcua.server.identity.users[1].username=admin",
                "opcua.server.identity.users[1].password={sha256}"
                        + java.util.HexFormat.of().formatHex(OpcUaPasswordVerifier.sha256(bytes("s3cret")))).run(context -> {
                    OpcUaServerProperties.User operator = context.getBean(OpcUaServerProperties.class).getIdentity()
                            .getUsers().get(0);
                    assertThat(operator.getRoles()).containsExactly("operator", "observer");
                    IdentityValidator validator = context.getBean(IdentityValidator.class);
                    assertThat(validator.validate(userName("operator", "secret"), null))
                            .isEqualTo(Identity.user("operator"));
                    assertThat(validator.validate(userName("admin", "s3cret"), null)).isEqualTo(Identity.user("admin"));
                    assertThat(tokenTypes(context.getBean(OpcUaServer.class)))
                            .containsExactly(UserTokenType.UserName);
                });
    }

    @Test
    void x509_identities_need_and_use_the_pki_directory() {
        contextRunner.withPropertyValues("opcua.server.security.policies=Basic256Sha256",
                "opcua.server.security.pki-dir=" + sharedPkiDir, "opcua.server.identity.x509=true").run(context -> {
                    assertThat(tokenTypes(context.getBean(OpcUaServer.class)))
                            .contains(UserTokenType.Anonymous, UserTokenType.Certificate);
                });
    }

    @Test
    void access_properties_give_the_default_permissions_of_their_namespace() {
        InMemoryNodeManager press = InMemoryNodeManager.builder("urn:test:access:press")
                .variable("Setpoint", BuiltinType.Double, v -> v.value(Variant.ofDouble(5)))
                .build();
        contextRunner.withBean(InMemoryNodeManager.class, () -> press)
                .withPropertyValues("opcua.server.access.namespaces[0].uri=urn:test:access:press",
                        "opcua.server.access.namespaces[0].permissions.anonymous=browse,read",
                        "opcua.server.access.namespaces[0].permissions.operator=browse,read,write,call")
                .run(context -> {
                    OpcUaServerProperties.NamespaceAccess access = context.getBean(OpcUaServerProperties.class)
                            .getAccess().getNamespaces().get(0);
                    assertThat(access.getUri()).isEqualTo("urn:test:access:press");
                    assertThat(access.getPermissions()).containsOnlyKeys("anonymous", "operator");
                    NodePermissions permissions = context.getBean(OpcUaServer.class).config().defaultPermissions()
                            .get("urn:test:access:press");
                    long anonymous = WellKnownRole.mask(List.of(WellKnownRole.ANONYMOUS));
                    long operator = WellKnownRole.mask(List.of(WellKnownRole.OPERATOR));
                    assertThat(permissions.allows(anonymous, Permission.READ)).isTrue();
                    assertThat(permissions.allows(anonymous, Permission.WRITE)).isFalse();
                    assertThat(permissions.allows(operator, Permission.WRITE)).isTrue();
                    assertThat(permissions.allows(operator, Permission.CALL)).isTrue();
                    assertThat(permissions.permissionsOf(WellKnownRole.ENGINEER)).as("a role not listed").isZero();
                });
    }

    @Test
    void customizers_are_applied_in_order_after_the_properties() {
        List<String> applied = new CopyOnWriteArrayList<>();
        contextRunner.withPropertyValues("opcua.server.application-uri=urn:test:properties")
                .withBean("second", OpcUaServerCustomizer.class, () -> new Second(applied))
                .withBean("first", OpcUaServerCustomizer.class, () -> new First(applied))
                .run(context -> {
                    assertThat(applied).containsExactly("first", "second");
                    assertThat(context.getBean(OpcUaServer.class).namespaces().indexOf("urn:test:second")).isEqualTo(1);
                });
    }

    @Order(1)
    record First(List<String> applied) implements OpcUaServerCustomizer {
        @Override
        public void customize(OpcUaServer.Builder builder) {
            applied.add("first");
            builder.applicationUri("urn:test:first");
        }
    }

    @Order(2)
    record Second(List<String> applied) implements OpcUaServerCustomizer {
        @Override
        public void customize(OpcUaServer.Builder builder) {
            applied.add("second");
            builder.applicationUri("urn:test:second");
        }
    }

    @Test
    void node_manager_beans_are_registered_in_their_order() {
        contextRunner.withUserConfiguration(NodeManagers.class).run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            int line1 = server.namespaces().indexOf("urn:test:line1");
            int line2 = server.namespaces().indexOf("urn:test:line2");
            assertThat(line1).isPositive();
            assertThat(line2).isGreaterThan(line1);
            InMemoryNodeManager manager = context.getBean("line1", InMemoryNodeManager.class);
            assertThat(manager.nodeId("Speed").namespaceIndex()).isEqualTo(line1);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class NodeManagers {

        @Bean
        @Order(2)
        InMemoryNodeManager line2() {
            return InMemoryNodeManager.builder("urn:test:line2").folder("Line2").build();
        }

        @Bean
        @Order(1)
        InMemoryNodeManager line1() {
            return InMemoryNodeManager.builder("urn:test:line1")
                    .variable("Speed", BuiltinType.Double, v -> v.value(Variant.ofDouble(1.5))).build();
        }
    }

    @Test
    void the_lifecycle_starts_the_server_publishes_its_port_and_stops_it_with_the_context() {
        List<OpcUaServerStartedEvent> events = new CopyOnWriteArrayList<>();
        OpcUaServer[] started = new OpcUaServer[1];
        contextRunner.withBean(ApplicationListener.class,
                () -> (ApplicationListener<OpcUaServerStartedEvent>) events::add).run(context -> {
                    OpcUaServer server = context.getBean(OpcUaServer.class);
                    started[0] = server;
                    assertThat(context.getBean(OpcUaServerLifecycle.class).isRunning()).isTrue();
                    assertThat(events).singleElement().satisfies(event -> {
                        assertThat(event.getServer()).isSameAs(server);
                        assertThat(event.getPort()).isEqualTo(server.port()).isPositive();
                        assertThat(event.getEndpointUrl()).isEqualTo(server.endpointUrl());
                    });
                });
        assertThat(started[0].isRunning()).isFalse();
    }

    @Test
    void port_zero_binds_a_free_port_published_as_local_opcua_server_port_with_the_endpoint_urls() {
        contextRunner.withPropertyValues("opcua.server.hostnames=localhost,127.0.0.1").run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            assertThat(server.port()).isPositive();
            assertThat(context.getEnvironment().getProperty("local.opcua.server.port", Integer.class))
                    .isEqualTo(server.port());
            assertThat(context.getEnvironment().getProperty("local.opcua.server.endpoint-url"))
                    .isEqualTo("opc.tcp://localhost:" + server.port() + "/");
        });
    }

    @Test
    void the_started_event_lists_one_endpoint_url_per_host_name_on_the_bound_port() {
        List<OpcUaServerStartedEvent> events = new CopyOnWriteArrayList<>();
        contextRunner.withPropertyValues("opcua.server.hostnames=localhost,127.0.0.1")
                .withBean(ApplicationListener.class, () -> (ApplicationListener<OpcUaServerStartedEvent>) events::add)
                .run(context -> {
                    int port = context.getBean(OpcUaServer.class).port();
                    assertThat(events).singleElement().extracting(OpcUaServerStartedEvent::getEndpointUrls)
                            .isEqualTo(List.of("opc.tcp://localhost:" + port + "/", "opc.tcp://127.0.0.1:" + port + "/"));
                });
    }

    @Test
    void a_server_that_never_started_publishes_no_local_port() {
        contextRunner.withPropertyValues("opcua.server.enabled=false").run(context ->
                assertThat(context.getEnvironment().containsProperty("local.opcua.server.port")).isFalse());
    }

    @Test
    void a_shutdown_delay_announces_the_shutdown_and_closes_the_server_when_the_context_closes() {
        OpcUaServer[] started = new OpcUaServer[1];
        contextRunner.withPropertyValues("opcua.server.shutdown-delay=1s").run(context -> {
            started[0] = context.getBean(OpcUaServer.class);
            assertThat(started[0].isRunning()).isTrue();
        });
        assertThat(started[0].isRunning()).isFalse();
        assertThat(started[0].serverStatus().state())
                .isEqualTo(dev.opcua.stack.core.types.enumerated.ServerState.Shutdown);
    }

    private static List<UserTokenType> tokenTypes(OpcUaServer server) {
        List<UserTokenType> types = new ArrayList<>();
        for (EndpointDescription endpoint : server.endpoints()) {
            Arrays.stream(endpoint.userIdentityTokens()).map(UserTokenPolicy::tokenType)
                    .filter(type -> !types.contains(type)).forEach(types::add);
        }
        return types;
    }

    private static UserNameIdentityToken userName(String user, String password) {
        return new UserNameIdentityToken("username", user, ByteString.wrap(bytes(password)), null);
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
