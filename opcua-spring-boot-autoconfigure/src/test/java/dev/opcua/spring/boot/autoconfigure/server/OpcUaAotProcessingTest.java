package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.client.OpcUaClientProperties;
import dev.opcua.spring.boot.autoconfigure.client.annotation.OpcUaListenerAutoConfiguration;
import dev.opcua.spring.boot.autoconfigure.server.annotation.OpcUaAnnotationAutoConfiguration;
import dev.opcua.spring.boot.client.annotation.OpcUaSubscription;
import dev.opcua.spring.boot.server.annotation.OpcUaNamespace;
import dev.opcua.spring.boot.server.annotation.UaAccess;
import dev.opcua.spring.boot.server.annotation.UaVariable;
import dev.opcua.stack.core.ids.AttributeIds;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.GeneratedFiles;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.javapoet.ClassName;

/**
 * Spring AOT processing of an application with an OPC UA server, an annotated namespace bean, a client
 * connection and an annotated listener, as {@code process-aot} runs it: it generates the bean definitions
 * (the client beans that {@code opcua.client.connections} declares among them) and collects every hint
 * the starter contributes.
 */
class OpcUaAotProcessingTest {

    @OpcUaNamespace("urn:test:aot")
    static class Line {
        @UaVariable(access = UaAccess.READ_WRITE) double speed;
    }

    static class Watcher {
        final List<Double> speeds = new ArrayList<>();

        @OpcUaSubscription(connection = "plant", node = "nsu=urn:test:aot;s=Line.Speed")
        void onSpeed(double speed) {
            speeds.add(speed);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({ OpcUaServerAutoConfiguration.class, OpcUaAnnotationAutoConfiguration.class,
            OpcUaClientAutoConfiguration.class, OpcUaListenerAutoConfiguration.class })
    static class Application {
        @Bean
        Line line() {
            return new Line();
        }

        @Bean
        Watcher watcher() {
            return new Watcher();
        }
    }

    @Test
    void generates_the_bean_definitions_and_collects_the_hints_of_server_client_annotations_and_properties() {
        InMemoryGeneratedFiles files = new InMemoryGeneratedFiles();
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get(Application.class)), files);
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext()) {
            TestPropertyValues.of("opcua.server.port=0",
                    "opcua.client.connections.plant.endpoint-url=opc.tcp://127.0.0.1:1/",
                    "opcua.client.connections.plant.connect-on-start=false").applyTo(context);
            context.register(Application.class);
            new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
        }
        generation.writeGeneratedContent();
        RuntimeHints hints = generation.getRuntimeHints();

        assertThat(files.getGeneratedFiles(GeneratedFiles.Kind.SOURCE).values())
                .anySatisfy(source -> assertThat(source.toString()).contains("plantOpcUaClient"));
        assertThat(RuntimeHintsPredicates.resource().forResource(OpcUaServerRuntimeHints.NAMESPACE0_RESOURCE))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(Line.class, "speed")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Watcher.class, "onSpeed")).accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onFieldAccess(AttributeIds.class, "Value")).accepts(hints);
        // the properties are bound through their setters: Spring Boot registers them for @EnableConfigurationProperties
        assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(OpcUaServerProperties.class, "setPort"))
                .accepts(hints);
        assertThat(RuntimeHintsPredicates.reflection().onType(OpcUaClientProperties.Connection.class)).accepts(hints);
    }
}
