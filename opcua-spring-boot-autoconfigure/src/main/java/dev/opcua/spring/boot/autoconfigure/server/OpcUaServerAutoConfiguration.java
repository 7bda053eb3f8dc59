package dev.opcua.spring.boot.autoconfigure.server;

import dev.opcua.stack.server.audit.AuditListener;
import dev.opcua.spring.boot.autoconfigure.ssl.SslBundleCertificates;
import dev.opcua.spring.boot.server.OpcUaServerCustomizer;
import dev.opcua.spring.boot.server.OpcUaServerLifecycle;
import dev.opcua.spring.boot.server.OpcUaServerPortInfoListener;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.server.OpcUaServer;
import dev.opcua.stack.server.nodes.NodeManager;
import dev.opcua.stack.server.redundancy.ServiceLevelContributor;
import dev.opcua.stack.server.roles.RoleMapper;
import dev.opcua.stack.server.session.IdentityValidator;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ImportRuntimeHints;

/**
 * Auto-configuration of an OPC UA server from {@code opcua.server.*}: one {@link OpcUaServer} bean,
 * built but not started, with every {@link NodeManager}, {@link AuditListener} and {@link ServiceLevelContributor}
 * bean registered and every {@link OpcUaServerCustomizer} bean applied (all in order), and the {@link OpcUaServerLifecycle} that
 * starts it with the application context. Every bean backs off when the application defines its own, but for
 * the {@link OpcUaServerPortInfoListener} that publishes {@code local.opcua.server.port} once the server has bound.
 */
@AutoConfiguration
@ConditionalOnClass(OpcUaServer.class)
@ConditionalOnBooleanProperty(name = "opcua.server.enabled", matchIfMissing = true)
@EnableConfigurationProperties(OpcUaServerProperties.class)
@ImportRuntimeHints(OpcUaServerRuntimeHints.class)
public final class OpcUaServerAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty("opcua.server.security.pki-dir")
    PkiDirectory opcUaPkiDirectory(OpcUaServerProperties properties) {
        return new PkiDirectory(properties.getSecurity().getPkiDir());
    }

    @Bean
    @ConditionalOnMissingBean
    IdentityValidator opcUaIdentityValidator(OpcUaServerProperties properties) {
        return OpcUaServerIdentities.validator(properties.getIdentity());
    }

    @Bean
    @ConditionalOnMissingBean
    RoleMapper opcUaRoleMapper(OpcUaServerProperties properties) {
        return new OpcUaServerPropertiesMapper(properties).roleMapper();
    }

    @Bean
    @ConditionalOnMissingBean
    OpcUaServer opcUaServer(OpcUaServerProperties properties, ObjectProvider<PkiDirectory> pki,
            ObjectProvider<IdentityValidator> identityValidator, ObjectProvider<RoleMapper> roleMapper,
            ObjectProvider<NodeManager> nodeManagers,
            ObjectProvider<OpcUaServerCustomizer> customizers, ObjectProvider<SslBundles> sslBundles,
            ObjectProvider<AuditListener> auditListeners,
            ObjectProvider<ServiceLevelContributor> serviceLevelContributors) {
        OpcUaServer.Builder builder = OpcUaServer.builder();
        SslBundles bundles = sslBundles.getIfAvailable();
        OpcUaServerPropertiesMapper mapper = new OpcUaServerPropertiesMapper(properties, bundles);
        mapper.applyTo(builder, pki.getIfUnique());
        IdentityValidator validator = identityValidator.getIfUnique(IdentityValidator::anonymousOnly);
        builder.identityTypes(validator, OpcUaServerIdentities.tokenTypes(properties.getIdentity(), validator));
        builder.roleMapper(roleMapper.getIfUnique(RoleMapper::wellKnown));
        nodeManagers.orderedStream().forEach(builder::nodeManager);
        auditListeners.orderedStream().forEach(builder::auditListener);
        serviceLevelContributors.orderedStream().forEach(builder::serviceLevelContributor);
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        OpcUaServer server = mapper.build(builder);
        String bundle = properties.getSecurity().getCertificate().getBundle();
        if (bundle != null && bundles != null) {
            SslBundleCertificates.onReload(bundles, bundle, "the OPC UA server", server::replaceApplicationCertificate);
        }
        return server;
    }

    @Bean
    @ConditionalOnMissingBean
    OpcUaServerLifecycle opcUaServerLifecycle(OpcUaServer server, OpcUaServerProperties properties,
            ApplicationEventPublisher eventPublisher) {
        java.time.Duration downtime = properties.getExpectedDowntime();
        if (downtime != null && (downtime.isNegative() || downtime.isZero())) {
            throw new InvalidOpcUaServerPropertyException("opcua.server.expected-downtime", downtime,
                    "it is not a positive duration", "a positive duration such as 30s, or unset for not known");
        }
        return new OpcUaServerLifecycle(server, properties.getShutdownDelay(), properties.getExpectedDowntime(),
                eventPublisher);
    }

    @Bean
    OpcUaServerPortInfoListener opcUaServerPortInfoListener(ApplicationContext context) {
        return new OpcUaServerPortInfoListener(context);
    }
}
