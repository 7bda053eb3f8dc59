package dev.opcua.spring.boot.autoconfigure.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.spring.boot.server.OpcUaServerCustomizer;
import dev.opcua.spring.boot.server.annotation.OpcUaAnnotatedNodeManager;
import dev.opcua.spring.boot.server.annotation.OpcUaAnnotatedNodeManagers;
import dev.opcua.spring.boot.server.annotation.OpcUaAnnotationException;
import dev.opcua.spring.boot.server.annotation.OpcUaNamespace;
import dev.opcua.spring.boot.server.annotation.UaAccess;
import dev.opcua.spring.boot.server.annotation.UaVariable;
import dev.opcua.spring.boot.server.annotation.UaValueChangedEvent;
import dev.opcua.stack.server.OpcUaServer;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link OpcUaAnnotationAutoConfiguration}: annotated beans become node managers of the server
 * through a customizer, value-change events are routed once the context is refreshed, and the
 * configuration backs off with the server. The server bean is declared here the way the server's
 * auto-configuration declares it (built, not started, with every customizer applied).
 */
class OpcUaAnnotationAutoConfigurationTest {

    private static final String NS = "urn:test:autoconfigure:tank";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaAnnotationAutoConfiguration.class))
            .withUserConfiguration(ServerConfiguration.class);

    @Configuration(proxyBeanMethods = false)
    static class ServerConfiguration {
        @Bean
        OpcUaServer opcUaServer(ObjectProvider<OpcUaServerCustomizer> customizers) {
            OpcUaServer.Builder builder = OpcUaServer.builder()
                    .applicationUri("urn:test:autoconfigure:server")
                    .bindAddress("127.0.0.1")
                    .port(0);
            customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
            return builder.build();
        }
    }

    @OpcUaNamespace(NS)
    static class Tank {
        private final ApplicationEventPublisher events;

        @UaVariable(access = UaAccess.READ_WRITE, signalsChanges = true)
        volatile double level = 12.5;

        Tank(ApplicationEventPublisher events) {
            this.events = events;
            // a signal while the context is being built is dropped, not routed into half-made beans
            events.publishEvent(new UaValueChangedEvent(this, "level"));
        }

        void fill(double amount) {
            level += amount;
            events.publishEvent(new UaValueChangedEvent(this, "level"));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TankConfiguration {
        @Bean
        Tank tank(ApplicationEventPublisher events) {
            return new Tank(events);
        }
    }

    @OpcUaNamespace(NS)
    static class BrokenTank {
        @UaVariable
        Map<String, Double> levels;
    }

    @Test
    void annotated_beans_become_node_managers_of_the_server() {
        contextRunner.withUserConfiguration(TankConfiguration.class).run(context -> {
            assertThat(context).hasSingleBean(OpcUaAnnotatedNodeManagers.class)
                    .hasSingleBean(OpcUaServerCustomizer.class)
                    .hasSingleBean(OpcUaValueChangeListener.class);
            List<OpcUaAnnotatedNodeManager> managers = context.getBean(OpcUaAnnotatedNodeManagers.class)
                    .nodeManagers();
            assertThat(managers).extracting(OpcUaAnnotatedNodeManager::namespaceUri).containsExactly(NS);
            OpcUaServer server = context.getBean(OpcUaServer.class);
            assertThat(server.namespaces().indexOf(NS)).isPositive();
            assertThat(server.nodeManagers().managerOf(
                    dev.opcua.stack.core.types.builtin.NodeId.string(server.namespaces().indexOf(NS), "Tank.Level")))
                    .isSameAs(managers.get(0));
        });
    }

    @Test
    void value_change_events_are_routed_once_the_context_is_refreshed() {
        contextRunner.withUserConfiguration(TankConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            Tank tank = context.getBean(Tank.class);
            tank.fill(1.0); // routed: nothing monitors the level yet, so nothing to hand over
            assertThatThrownBy(() -> context.publishEvent(new UaValueChangedEvent(tank, "volume")))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("value change of 'volume' of " + Tank.class.getName()
                            + ": it has no @UaVariable of that name; its variables are [level]");
        });
    }

    @Test
    void without_annotated_beans_the_customizer_adds_nothing() {
        contextRunner.run(context -> {
            assertThat(context.getBean(OpcUaAnnotatedNodeManagers.class).nodeManagers()).isEmpty();
            assertThat(context.getBean(OpcUaServer.class).namespaces().indexOf(NS)).isNegative();
        });
    }

    @Test
    void a_wrong_annotated_bean_fails_start_up_naming_the_bean_and_the_member() {
        contextRunner.withBean("brokenTank", BrokenTank.class).run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().isInstanceOf(OpcUaAnnotationException.class)
                    .hasMessageStartingWith("bean 'brokenTank' (" + BrokenTank.class.getName() + ") member levels: "
                            + "type java.util.Map<java.lang.String, java.lang.Double> is not supported");
        });
    }

    @Test
    void a_users_node_managers_bean_wins() {
        OpcUaAnnotatedNodeManagers own = OpcUaAnnotatedNodeManagers.of(Map.of());
        contextRunner.withUserConfiguration(TankConfiguration.class)
                .withBean(OpcUaAnnotatedNodeManagers.class, () -> own)
                .run(context -> {
                    assertThat(context).getBean(OpcUaAnnotatedNodeManagers.class).isSameAs(own);
                    assertThat(context.getBean(OpcUaServer.class).namespaces().indexOf(NS)).isNegative();
                });
    }

    @Test
    void backs_off_when_the_server_is_disabled() {
        contextRunner.withUserConfiguration(TankConfiguration.class)
                .withPropertyValues("opcua.server.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaAnnotatedNodeManagers.class)
                        .doesNotHaveBean(OpcUaServerCustomizer.class)
                        .doesNotHaveBean(OpcUaValueChangeListener.class));
    }

    @Test
    void backs_off_without_the_stack_on_the_class_path() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(OpcUaAnnotationAutoConfiguration.class))
                .withClassLoader(new FilteredClassLoader(OpcUaServer.class))
                .run(context -> assertThat(context).doesNotHaveBean(OpcUaAnnotatedNodeManagers.class)
                        .doesNotHaveBean(OpcUaServerCustomizer.class));
    }
}
