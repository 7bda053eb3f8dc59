package dev.opcua.spring.boot.autoconfigure.observation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.spring.boot.actuate.testing.TestServers;
import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.client.OpcUaClientRequestObservers;
import dev.opcua.spring.boot.observation.DefaultOpcUaClientRequestObservationConvention;
import dev.opcua.spring.boot.observation.ObservationRequestObservers;
import dev.opcua.spring.boot.observation.OpcUaClientRequestObservationConvention;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.client.services.RequestObserver;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class OpcUaClientObservationAutoConfigurationTest {

    private static InMemoryNodeManager plant;
    private static OpcUaServer server;

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class,
                    OpcUaClientObservationAutoConfiguration.class))
            .withPropertyValues("opcua.client.connections.test.endpoint-url=opc.tcp://127.0.0.1:4840/",
                    "opcua.client.connections.test.connect-on-start=false");

    @BeforeAll
    static void startServer() {
        plant = TestServers.plant();
        server = TestServers.started(plant, b -> { });
    }

    @AfterAll
    static void stopServer() {
        server.close();
    }

    /** The runner with a client that connects to the test server before the context is ready. */
    private ApplicationContextRunner connected() {
        return contextRunner.withPropertyValues(
                "opcua.client.connections.test.endpoint-url=" + server.endpointUrl(),
                "opcua.client.connections.test.connect-on-start=true",
                "opcua.client.connections.test.fail-fast=true");
    }

    @Test
    void every_request_of_the_auto_configured_client_is_observed_by_the_application_registry() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        connected().withBean(ObservationRegistry.class, () -> registry).run(context -> {
            assertThat(context).hasSingleBean(ObservationRequestObservers.class)
                    .hasSingleBean(OpcUaClientRequestObservationConvention.class);
            OpcUaClient client = context.getBean(OpcUaClient.class);
            client.readValue(plant.nodeId("Speed")).get(10, TimeUnit.SECONDS);

            TestObservationRegistryAssert.assertThat(registry)
                    .hasAnObservation(observation -> observation.hasNameEqualTo("opcua.client.requests")
                            .hasContextualNameEqualTo("opcua Read")
                            .hasLowCardinalityKeyValue("connection", "test")
                            .hasLowCardinalityKeyValue("service", "Read")
                            .hasLowCardinalityKeyValue("status", "Good")
                            .hasLowCardinalityKeyValue("outcome", "SUCCESS"));
        });
    }

    @Test
    void a_service_fault_is_observed_with_its_status_and_error() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        connected().withBean(ObservationRegistry.class, () -> registry).run(context -> {
            OpcUaClient client = context.getBean(OpcUaClient.class);
            // a negative maxAge is refused for the whole request (Part 4, 5.10.2.2)
            assertThat(client.read(-1, TimestampsToReturn.Both,
                    List.of(new ReadValueId(NodeId.ns0(2259), AttributeIds.Value, null, QualifiedName.NULL))))
                    .failsWithin(10, TimeUnit.SECONDS);

            // the observation stops after the caller's future has failed: retry the assertion, bounded
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                    .untilAsserted(() -> TestObservationRegistryAssert.assertThat(registry)
                            .hasAnObservation(observation -> observation.hasContextualNameEqualTo("opcua Read")
                                    .hasLowCardinalityKeyValue("status", "BadMaxAgeInvalid")
                                    .hasLowCardinalityKeyValue("outcome", "FAILURE")
                                    .assertThatError().isNotNull()));
        });
    }

    @Test
    void with_a_no_op_registry_the_clients_get_no_observer_at_all() {
        contextRunner.withBean(ObservationRegistry.class, () -> ObservationRegistry.NOOP).run(context -> {
            assertThat(context.getBean(ObservationRequestObservers.class).create("test"))
                    .isSameAs(RequestObserver.NONE);
            assertThat(context.getBean(OpcUaClient.class).config().requestObserver()).isSameAs(RequestObserver.NONE);
        });
    }

    @Test
    void an_application_convention_replaces_the_default_one() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        OpcUaClientRequestObservationConvention plantConvention = new DefaultOpcUaClientRequestObservationConvention() {
            @Override
            public String getName() {
                return "plant.opcua.client.calls";
            }
        };
        connected().withBean(ObservationRegistry.class, () -> registry)
                .withBean(OpcUaClientRequestObservationConvention.class, () -> plantConvention)
                .run(context -> {
                    assertThat(context.getBean(OpcUaClientRequestObservationConvention.class))
                            .isSameAs(plantConvention);
                    TestObservationRegistryAssert.assertThat(registry)
                            .hasObservationWithNameEqualTo("plant.opcua.client.calls");
                });
    }

    @Test
    void application_request_observers_are_used_beside_the_observation_ones() {
        List<String> seen = new CopyOnWriteArrayList<>();
        OpcUaClientRequestObservers own = connection -> service -> {
            seen.add(connection + ":" + service);
            return null;
        };
        connected().withBean(ObservationRegistry.class, TestObservationRegistry::create)
                .withBean(OpcUaClientRequestObservers.class, () -> own)
                .run(context -> {
                    assertThat(context).hasSingleBean(ObservationRequestObservers.class);
                    // the NamespaceArray and OperationLimits are read once the session is active
                    assertThat(seen).contains("test:Read");
                });
    }

    @Test
    void an_application_observation_request_observers_bean_replaces_the_auto_configured_one() {
        ObservationRequestObservers own = new ObservationRequestObservers(ObservationRegistry.NOOP);
        contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
                .withBean("ownObservers", ObservationRequestObservers.class, () -> own)
                .run(context -> assertThat(context).hasSingleBean(ObservationRequestObservers.class)
                        .hasBean("ownObservers"));
    }

    @Test
    void backs_off_without_an_observation_registry() {
        contextRunner.run(context -> assertThat(context).hasSingleBean(OpcUaClient.class)
                .doesNotHaveBean(ObservationRequestObservers.class));
    }

    @Test
    void backs_off_without_micrometer_observation_on_the_classpath() {
        contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
                .withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
                .run(context -> assertThat(context).doesNotHaveBean(ObservationRequestObservers.class));
    }

    @Test
    void backs_off_when_the_clients_are_disabled() {
        contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
                .withPropertyValues("opcua.client.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(ObservationRequestObservers.class)
                        .doesNotHaveBean(OpcUaClient.class));
    }
}
