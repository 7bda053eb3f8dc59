package dev.opcua.spring.boot.autoconfigure.client.annotation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.client.annotation.OpcUaEventSubscription;
import dev.opcua.spring.boot.client.annotation.OpcUaListenerAnnotationBeanPostProcessor;
import dev.opcua.spring.boot.client.annotation.OpcUaSubscription;
import dev.opcua.spring.boot.client.listener.ListenerNotification;
import dev.opcua.spring.boot.client.listener.LoggingOpcUaListenerErrorHandler;
import dev.opcua.spring.boot.client.listener.OpcUaListener;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpoint;
import dev.opcua.spring.boot.client.listener.OpcUaListenerEndpointRegistry;
import dev.opcua.spring.boot.client.listener.OpcUaListenerErrorHandler;
import dev.opcua.spring.boot.client.listener.OpcUaListenerInfo;
import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.DeadbandType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.aop.framework.ProxyFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The auto-configuration of annotated client listeners, without a server (the clients do not connect). */
class OpcUaListenerAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaClientAutoConfiguration.class,
                    OpcUaListenerAutoConfiguration.class))
            .withPropertyValues("opcua.client.connections.plant.endpoint-url=opc.tcp://127.0.0.1:1/",
                    "opcua.client.connections.plant.security-policy=None",
                    "opcua.client.connections.plant.connect-on-start=false", "line=Line1");

    @Test
    void registers_the_annotated_methods_of_beans() {
        runner.withUserConfiguration(Listeners.class).run(context -> {
            assertThat(context).hasSingleBean(OpcUaListenerAnnotationBeanPostProcessor.class)
                    .hasSingleBean(OpcUaListenerEndpointRegistry.class)
                    .hasSingleBean(LoggingOpcUaListenerErrorHandler.class);
            List<OpcUaListenerInfo> listeners = context.getBean(OpcUaListenerEndpointRegistry.class).listeners();
            assertThat(listeners).extracting(OpcUaListenerInfo::id).containsExactlyInAnyOrder("plantListeners.onSpeed",
                    "plantListeners.onAlarm", "plantListeners.onTemperature", "plantListeners.onTemperature#2");
            assertThat(listeners).allSatisfy(l -> {
                assertThat(l.connection()).isEqualTo("plant");
                assertThat(l.created()).isFalse();
                assertThat(l.status()).isEqualTo("BadWaitingForInitialData");
            });
        });
    }

    @Test
    void annotation_attributes_become_the_endpoint() {
        runner.withUserConfiguration(Listeners.class).run(context -> {
            OpcUaListenerEndpointRegistry registry = context.getBean(OpcUaListenerEndpointRegistry.class);
            OpcUaListenerEndpoint speed = registry.getListener("plantListeners.onSpeed").orElseThrow().endpoint();
            assertThat(speed.node()).isEqualTo("nsu=urn:acme;s=Line1.Speed"); // placeholder resolved
            assertThat(speed.samplingInterval()).isEqualTo(Duration.ofMillis(250));
            assertThat(speed.queueSize()).isEqualTo(5);
            assertThat(speed.deadbandType()).isEqualTo(DeadbandType.Absolute);
            assertThat(speed.deadband()).isEqualTo(0.5);
            assertThat(speed.attributeId()).isEqualTo(AttributeIds.Value);

            OpcUaListenerEndpoint alarm = registry.getListener("plantListeners.onAlarm").orElseThrow().endpoint();
            assertThat(alarm.kind()).isEqualTo(OpcUaListenerEndpoint.Kind.EVENT);
            assertThat(alarm.node()).isEqualTo("i=2253");
            assertThat(alarm.fields()).containsExactly("Severity", "Message");
            assertThat(alarm.where().elements()).hasSize(1);
            assertThat(alarm.publishingInterval()).isEqualTo(Duration.ofMillis(200));
        });
    }

    @Test
    void listeners_share_one_container_per_connection_and_publishing_interval() {
        runner.withUserConfiguration(Listeners.class)
                .withPropertyValues("opcua.client.connections.plant.subscriptions.publishing-interval=500ms")
                .run(context -> {
                    List<Duration> intervals = context.getBean(OpcUaListenerEndpointRegistry.class).getContainers()
                            .stream().map(c -> c.publishingInterval()).toList();
                    assertThat(intervals).containsExactlyInAnyOrder(Duration.ofMillis(500), Duration.ofMillis(200));
                });
    }

    @Test
    void invoker_calls_the_method_with_converted_arguments() throws Exception {
        runner.withUserConfiguration(Listeners.class).run(context -> {
            OpcUaListenerEndpointRegistry registry = context.getBean(OpcUaListenerEndpointRegistry.class);
            registry.getListener("plantListeners.onSpeed").orElseThrow().endpoint().invoker()
                    .invoke(new ListenerNotification.DataChange(null, DataValue.of(Variant.ofFloat(1.5f))));
            registry.getListener("plantListeners.onAlarm").orElseThrow().endpoint().invoker()
                    .invoke(new ListenerNotification.Event(null, new Variant[] {Variant.ofUInt16(900),
                            Variant.of(LocalizedText.of("trip"))}));

            assertThat(context.getBean(PlantListeners.class).calls).containsExactly(1.5, 900, "trip");
        });
    }

    @Test
    void methods_behind_a_proxy_are_found_on_the_target_class_and_called_through_the_proxy() {
        runner.withUserConfiguration(ProxiedListeners.class).run(context -> {
            assertThat(context).hasNotFailed();
            OpcUaListener listener = context.getBean(OpcUaListenerEndpointRegistry.class)
                    .getListener("proxied.onSpeed").orElseThrow();
            listener.endpoint().invoker().invoke(new ListenerNotification.DataChange(null,
                    DataValue.of(Variant.ofDouble(4))));

            assertThat(ProxiedListeners.TARGET.calls).containsExactly(4.0);
        });
    }

    @Test
    void the_only_connection_needs_no_name() {
        runner.withUserConfiguration(Unnamed.class).run(context -> assertThat(context
                .getBean(OpcUaListenerEndpointRegistry.class).listeners()).singleElement()
                .satisfies(l -> assertThat(l.connection()).isEqualTo("plant")));
    }

    @Test
    void unknown_connection_fails_start_up_naming_the_method_and_the_connections() {
        runner.withUserConfiguration(UnknownConnection.class).run(context -> {
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("unknownConnection.onValue",
                    "there is no OPC UA client connection named 'line9'", "[plant]");
        });
    }

    @Test
    void unfeedable_parameter_fails_start_up_naming_bean_method_and_parameter() {
        runner.withUserConfiguration(BadParameter.class).run(context -> {
            assertThat(context).hasFailed();
            FailureAnalysis analysis = analyze(context.getStartupFailure());
            assertThat(analysis.getDescription()).contains("bean 'badParameter' method 'onValue(double, Map)'",
                    "parameter 2 'extra' (java.util.Map<java.lang.String, java.lang.Object>) cannot be fed");
            assertThat(analysis.getAction()).contains("@OpcUaSubscription");
        });
    }

    @Test
    void event_parameter_without_a_field_fails_start_up() {
        runner.withUserConfiguration(TooManyEventParameters.class).run(context -> assertThat(
                analyze(context.getStartupFailure()).getDescription()).contains("method 'onEvent(int, String)'",
                        "parameter 2 'message' (java.lang.String) has no field", "selects 1 fields [Severity]"));
    }

    @Test
    void where_clause_syntax_error_fails_start_up_naming_the_method_and_the_position() {
        runner.withUserConfiguration(BadWhere.class).run(context -> assertThat(
                analyze(context.getStartupFailure()).getDescription()).contains("method 'onEvent(int)'",
                        "the where clause has a syntax error", "at position 9", "Severity 500"));
    }

    @Test
    void invalid_attributes_fail_start_up() {
        runner.withUserConfiguration(BadNode.class).run(context -> assertThat(
                analyze(context.getStartupFailure()).getDescription()).contains("method 'onValue(double)'",
                        "node 'nsu=urn:x;q=1' is not a node id"));
        runner.withUserConfiguration(BadDuration.class).run(context -> assertThat(
                analyze(context.getStartupFailure()).getDescription()).contains("samplingInterval 'fast' is not a "
                        + "duration"));
        runner.withUserConfiguration(BadAttribute.class).run(context -> assertThat(
                analyze(context.getStartupFailure()).getDescription()).contains("attribute 'Valeu' is not an "
                        + "attribute name", "DisplayName"));
    }

    @Test
    void user_error_handler_and_registry_win() {
        OpcUaListenerErrorHandler handler = (listener, notification, error) -> { };
        runner.withBean(OpcUaListenerErrorHandler.class, () -> handler).run(context -> assertThat(context)
                .getBean(OpcUaListenerErrorHandler.class).isSameAs(handler));
        runner.withUserConfiguration(OwnRegistry.class).run(context -> assertThat(context)
                .getBean(OpcUaListenerEndpointRegistry.class).isSameAs(OwnRegistry.REGISTRY[0]));
    }

    @Test
    void backs_off_with_the_client() {
        runner.withPropertyValues("opcua.client.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(OpcUaListenerEndpointRegistry.class)
                .doesNotHaveBean(OpcUaListenerAnnotationBeanPostProcessor.class));
    }

    @Test
    void backs_off_without_the_client_on_the_classpath() {
        runner.withClassLoader(new FilteredClassLoader(OpcUaClient.class)).run(context -> assertThat(context)
                .hasNotFailed()
                .doesNotHaveBean(OpcUaListenerEndpointRegistry.class)
                .doesNotHaveBean(OpcUaListenerAnnotationBeanPostProcessor.class));
    }

    @Test
    void the_registry_starts_after_the_clients_and_stops_before() {
        runner.run(context -> assertThat(context.getBean(OpcUaListenerEndpointRegistry.class).getPhase())
                .isGreaterThan(context.getBean(dev.opcua.spring.boot.client.OpcUaClientLifecycle.class).getPhase()));
    }

    private static FailureAnalysis analyze(Throwable failure) {
        assertThat(failure).isNotNull();
        FailureAnalysis analysis = new OpcUaListenerFailureAnalyzer().analyze(failure);
        assertThat(analysis).as("analysis of " + failure).isNotNull();
        return analysis;
    }

    // ---- beans ------------------------------------------------------------------------------------

    static class PlantListeners {

        final List<Object> calls = new ArrayList<>();

        @OpcUaSubscription(connection = "plant", node = "nsu=urn:acme;s=${line}.Speed", samplingInterval = "250ms",
                queueSize = 5, deadbandType = OpcUaSubscription.DeadbandType.ABSOLUTE, deadband = 0.5)
        void onSpeed(double speed, DataValue raw) {
            calls.add(speed);
        }

        @OpcUaEventSubscription(connection = "plant", fields = {"Severity", "Message"}, where = "Severity > 500",
                publishingInterval = "200ms")
        void onAlarm(int severity, String message) {
            calls.add(severity);
            calls.add(message);
        }

        @OpcUaSubscription(node = "ns=2;s=T1")
        @OpcUaSubscription(node = "ns=2;s=T2")
        void onTemperature(Double temperature) {
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Listeners {

        @Bean
        PlantListeners plantListeners() {
            return new PlantListeners();
        }

        @Bean
        static org.springframework.context.support.PropertySourcesPlaceholderConfigurer placeholders() {
            return new org.springframework.context.support.PropertySourcesPlaceholderConfigurer();
        }
    }

    public static class Target {

        final List<Object> calls = new ArrayList<>();

        @OpcUaSubscription(node = "ns=2;s=Speed")
        public void onSpeed(double speed) {
            calls.add(speed);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class ProxiedListeners {

        static final Target TARGET = new Target();

        @Bean
        Object proxied() {
            ProxyFactory factory = new ProxyFactory(TARGET);
            factory.setProxyTargetClass(true);
            return factory.getProxy();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Unnamed {

        @Bean
        Object unnamed() {
            return new Object() {
                @OpcUaSubscription(node = "i=2258")
                void onTime(java.time.Instant time) {
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UnknownConnection {

        @Bean
        Object unknownConnection() {
            return new Object() {
                @OpcUaSubscription(connection = "line9", node = "i=2258")
                void onValue(Variant value) {
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadParameter {

        @Bean
        Object badParameter() {
            return new Object() {
                @OpcUaSubscription(node = "i=2258")
                void onValue(double value, Map<String, Object> extra) {
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TooManyEventParameters {

        @Bean
        Object tooMany() {
            return new Object() {
                @OpcUaEventSubscription(fields = "Severity")
                void onEvent(int severity, String message) {
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadWhere {

        @Bean
        Object badWhere() {
            return new Object() {
                @OpcUaEventSubscription(fields = "Severity", where = "Severity 500")
                void onEvent(int severity) {
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadNode {

        @Bean
        Object badNode() {
            return new Object() {
                @OpcUaSubscription(node = "nsu=urn:x;q=1")
                void onValue(double value) {
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadDuration {

        @Bean
        Object badDuration() {
            return new Object() {
                @OpcUaSubscription(node = "i=2258", samplingInterval = "fast")
                void onValue(double value) {
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class BadAttribute {

        @Bean
        Object badAttribute() {
            return new Object() {
                @OpcUaSubscription(node = "i=2258", attribute = "Valeu")
                void onValue(double value) {
                }
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRegistry {

        static final OpcUaListenerEndpointRegistry[] REGISTRY = new OpcUaListenerEndpointRegistry[1];

        @Bean
        OpcUaListenerEndpointRegistry ownRegistry(dev.opcua.spring.boot.client.OpcUaClients clients) {
            REGISTRY[0] = new OpcUaListenerEndpointRegistry(clients);
            return REGISTRY[0];
        }
    }
}
