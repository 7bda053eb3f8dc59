package dev.opcua.spring.boot.autoconfigure.server.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.server.annotation.OpcUaNamespace;
import dev.opcua.spring.boot.server.annotation.UaAccess;
import dev.opcua.spring.boot.server.annotation.UaMethod;
import dev.opcua.spring.boot.server.annotation.UaValueChangedEvent;
import dev.opcua.spring.boot.server.annotation.UaVariable;
import dev.opcua.spring.boot.testing.MiloClients;
import dev.opcua.stack.server.OpcUaServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaMonitoredItem;
import org.eclipse.milo.opcua.sdk.client.subscriptions.OpcUaSubscription;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.Variant;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.CallMethodResult;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The auto-configured server on port 0 with an annotated bean and nothing else: Eclipse Milo 1.1.2's
 * client reads it, calls its method, and its subscription sees the value the bean signals with an
 * application event.
 */
class OpcUaAnnotationMiloEndToEndIT {

    private static final String NS = "urn:test:e2e:mixer";

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(OpcUaServerAutoConfiguration.class,
                    OpcUaAnnotationAutoConfiguration.class))
            .withUserConfiguration(MixerConfiguration.class)
            .withPropertyValues("opcua.server.port=0", "opcua.server.bind-address=127.0.0.1",
                    "opcua.server.application-uri=urn:test:e2e:annotations");

    @OpcUaNamespace(NS)
    static class Mixer {
        private final ApplicationEventPublisher events;

        @UaVariable(access = UaAccess.READ_WRITE, signalsChanges = true)
        volatile double rpm = 120;

        Mixer(ApplicationEventPublisher events) {
            this.events = events;
        }

        @UaMethod
        public double boost(double factor) {
            rpm = rpm * factor;
            events.publishEvent(new UaValueChangedEvent(this, "rpm"));
            return rpm;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MixerConfiguration {
        @Bean
        Mixer mixer(ApplicationEventPublisher events) {
            return new Mixer(events);
        }
    }

    @Test
    void milo_reads_calls_and_sees_a_signalled_change_of_an_annotated_bean() {
        contextRunner.run(context -> {
            OpcUaServer server = context.getBean(OpcUaServer.class);
            assertThat(server.isRunning()).isTrue();
            int ns = server.namespaces().indexOf(NS);
            OpcUaClient client = MiloClients.anonymousOverNone(server.endpointUrl());
            try {
                DataValue rpm = client.readValue(0, TimestampsToReturn.Both, new NodeId(ns, "Mixer.Rpm"));
                assertThat(rpm.getValue().getValue()).isEqualTo(120.0);

                List<Object> values = new CopyOnWriteArrayList<>();
                OpcUaSubscription subscription = new OpcUaSubscription(client, 100.0);
                subscription.create();
                OpcUaMonitoredItem item = OpcUaMonitoredItem.newDataItem(new NodeId(ns, "Mixer.Rpm"));
                item.setSamplingInterval(0.0);
                item.setQueueSize(uint(10));
                item.setDataValueListener((i, value) -> values.add(value.getValue().getValue()));
                subscription.addMonitoredItem(item);
                subscription.synchronizeMonitoredItems();
                assertThat(item.getRevisedSamplingInterval()).contains(0.0);

                CallMethodResult boost = client.call(List.of(new CallMethodRequest(new NodeId(ns, "Mixer"),
                        new NodeId(ns, "Mixer.Boost"), new Variant[] {new Variant(2.0)}))).getResults()[0];
                assertThat(boost.getOutputArguments()).extracting(Variant::getValue).containsExactly(240.0);
                await("the signalled value reaches the subscription").atMost(Duration.ofSeconds(10))
                        .pollInterval(Duration.ofMillis(10)).untilAsserted(() -> assertThat(values).contains(240.0));
            } finally {
                client.disconnect();
            }
        });
    }
}
