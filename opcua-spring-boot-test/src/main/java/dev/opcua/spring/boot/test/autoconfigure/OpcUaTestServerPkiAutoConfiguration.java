package dev.opcua.spring.boot.test.autoconfigure;

import dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration;
import dev.opcua.spring.boot.test.client.TemporaryPkiDirectory;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.server.OpcUaServer;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * A PKI directory for the application's server in a temporary directory, when the test client asks for a secured
 * channel and the application configures none ({@code opcua.server.security.pki-dir} unset): the server creates its
 * certificate there and keeps the trust list the test client's certificate is added to. Deleted with the context.
 * Without {@code opcua.server.security.policies}, a server with a PKI offers the secure policies only.
 */
@AutoConfiguration(before = OpcUaServerAutoConfiguration.class)
@ConditionalOnClass(OpcUaServer.class)
@Conditional(OpcUaTestServerPkiAutoConfiguration.OnSecuredTestClientWithoutServerPki.class)
public final class OpcUaTestServerPkiAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    PkiDirectory opcUaTestServerPkiDirectory(TemporaryPkiDirectory opcUaTestServerPkiRoot) {
        return new PkiDirectory(opcUaTestServerPkiRoot.path());
    }

    @Bean
    TemporaryPkiDirectory opcUaTestServerPkiRoot() {
        return TemporaryPkiDirectory.create("opcua-test-server-pki-");
    }

    /**
     * Matches when {@code opcua.test.client.security-mode} is Sign or SignAndEncrypt and
     * {@code opcua.server.security.pki-dir} is not set.
     */
    static final class OnSecuredTestClientWithoutServerPki extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            Binder binder = Binder.get(context.getEnvironment());
            MessageSecurityMode mode = binder.bind("opcua.test.client.security-mode", MessageSecurityMode.class)
                    .orElse(MessageSecurityMode.None);
            if (mode == MessageSecurityMode.None) {
                return ConditionOutcome.noMatch("the test client's security mode is None");
            }
            if (context.getEnvironment().containsProperty("opcua.server.security.pki-dir")) {
                return ConditionOutcome.noMatch("the server has a PKI directory (opcua.server.security.pki-dir)");
            }
            return ConditionOutcome.match("the test client's security mode is " + mode + " and the server has no PKI");
        }
    }
}
