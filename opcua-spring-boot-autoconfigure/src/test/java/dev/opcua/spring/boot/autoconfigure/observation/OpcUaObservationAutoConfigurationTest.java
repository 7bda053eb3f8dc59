package dev.opcua.spring.boot.autoconfigure.observation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.actuate.testing.TestClient;
import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.observation.DefaultOpcUaServiceObservationConvention;
import dev.opcua.spring.boot.observation.ObservationServiceObserver;
import dev.opcua.spring.boot.observation.OpcUaServiceObservationConvention;
import dev.opcua.spring.boot.server.OpcUaServerCustomizer;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.services.ServiceObserver;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistryAssert;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class OpcUaObservationAutoConfigurationTest {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaObservationAutoConfiguration.class))
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.hostnames=127.0.0.1");

    /** Opens a session and reads the server's ServerStatus_State (i=2259) once. */
    private static void readOnce(OpcUaServer server) throws Exception {
        try (TestClient client = TestClient.connect(server)) {
            client.read(NodeId.ns0(2259));
        }
    }

    @Test
    void every_service_call_of_the_auto_configured_server_is_observed_by_the_application_registry() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        contextRunner.withBean(ObservationRegistry.class, () -> registry).run(context -> {
            assertThat(context).hasSingleBean(ObservationServiceObserver.class)
                    .hasSingleBean(OpcUaServiceObservationConvention.class)
                    .hasSingleBean(OpcUaServerCustomizer.class);
            readOnce(context.getBean(OpcUaServer.class));

            TestObservationRegistryAssert.assertThat(registry)
                    .hasAnObservation(observation -> observation.hasNameEqualTo("opcua.server.requests")
                            .hasContextualNameEqualTo("opcua Read")
                            .hasLowCardinalityKeyValue("status", "Good"));
        });
    }

    @Test
    void with_spring_boot_metrics_the_calls_become_the_opcua_server_requests_timer() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class,
                        MetricsAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class,
                        CompositeMeterRegistryAutoConfiguration.class, OpcUaServerAutoConfiguration.class,
                        OpcUaObservationAutoConfiguration.class))
                .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                        "opcua.server.hostnames=127.0.0.1")
                .run(context -> {
                    readOnce(context.getBean(OpcUaServer.class));

                    Timer reads = context.getBean(MeterRegistry.class).get("opcua.server.requests")
                            .tags("service", "Read", "status", "Good").timer();
                    assertThat(reads.count()).isEqualTo(1);
                });
    }

    @Test
    void an_application_convention_replaces_the_default_one() {
        TestObservationRegistry registry = TestObservationRegistry.create();
        OpcUaServiceObservationConvention plant = new DefaultOpcUaServiceObservationConvention() {
            @Override
            public String getName() {
                return "plant.opcua.calls";
            }
        };
        contextRunner.withBean(ObservationRegistry.class, () -> registry)
                .withBean(OpcUaServiceObservationConvention.class, () -> plant)
                .run(context -> {
                    assertThat(context.getBean(OpcUaServiceObservationConvention.class)).isSameAs(plant);
                    readOnce(context.getBean(OpcUaServer.class));
                    TestObservationRegistryAssert.assertThat(registry).hasObservationWithNameEqualTo(
                            "plant.opcua.calls");
                });
    }

    @Test
    void an_application_service_observer_replaces_the_observation_one_and_reaches_the_server() {
        List<String> seen = new CopyOnWriteArrayList<>();
        ServiceObserver own = (service, channel) -> {
            seen.add(service);
            return null;
        };
        contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
                .withBean(ServiceObserver.class, () -> own)
                .run(context -> {
                    assertThat(context).doesNotHaveBean(ObservationServiceObserver.class);
                    readOnce(context.getBean(OpcUaServer.class));
                    assertThat(seen).contains("CreateSession", "Read");
                });
    }

    @Test
    void backs_off_without_an_observation_registry() {
        contextRunner.run(context -> assertThat(context).hasSingleBean(OpcUaServer.class)
                .doesNotHaveBean(ObservationServiceObserver.class)
                .doesNotHaveBean(OpcUaServerCustomizer.class));
    }

    @Test
    void backs_off_when_the_server_is_disabled() {
        contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
                .withPropertyValues("opcua.server.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaServer.class)
                        .doesNotHaveBean(OpcUaServiceObservationConvention.class)
                        .doesNotHaveBean(ServiceObserver.class)
                        .doesNotHaveBean(OpcUaServerCustomizer.class));
    }

    @Test
    void backs_off_without_micrometer_observation_on_the_classpath() {
        contextRunner.withBean(ObservationRegistry.class, TestObservationRegistry::create)
                .withClassLoader(new FilteredClassLoader(ObservationRegistry.class))
                .run(context -> assertThat(context).doesNotHaveBean(ObservationServiceObserver.class));
    }
}
