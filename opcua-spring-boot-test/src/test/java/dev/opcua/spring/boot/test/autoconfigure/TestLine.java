package dev.opcua.spring.boot.test.autoconfigure;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.nodes.InMemoryNodeManager;
import dev.opcua.stack.server.roles.WellKnownRole;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.context.annotation.Bean;

/**
 * The application under test in this module's tests: a server with a line whose Speed only operators may write,
 * and the user {@code operator} / {@code line1-operator}.
 */
@SpringBootConfiguration(proxyBeanMethods = false)
@EnableAutoConfiguration
class TestLine {

    static final String NAMESPACE = "urn:dev.opcua:test:line";
    static final String SPEED = "nsu=" + NAMESPACE + ";s=Line.Speed";
    static final String[] OPERATOR = {"opcua.server.identity.users[0].username=operator",
        "opcua.server.identity.users[0].password=line1-operator", "opcua.server.identity.users[0].roles=Operator"};

    @Bean
    InMemoryNodeManager line() {
        return nodes();
    }

    static InMemoryNodeManager nodes() {
        return InMemoryNodeManager.builder(NAMESPACE)
                .object("Line")
                .variable("Line.Speed", BuiltinType.Double,
                        v -> v.value(Variant.ofDouble(240.0)).writable().writeRoles(WellKnownRole.OPERATOR))
                .build();
    }
}
