package dev.opcua.spring.boot.autoconfigure.actuate;

import dev.opcua.spring.boot.actuate.audit.OpcUaAuditEventRepositoryListener;
import dev.opcua.stack.server.OpcUaServer;
import org.springframework.boot.actuate.audit.AuditEventRepository;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Hands the OPC UA server's audit records (with {@code opcua.server.auditing=true}) to the application's
 * {@link AuditEventRepository}, so that {@code /actuator/auditevents} shows logins, failed logins and writes.
 * Runs before the server's auto-configuration, which gives every such listener bean to the server.
 */
@AutoConfiguration(beforeName = "dev.opcua.spring.boot.autoconfigure.server.OpcUaServerAutoConfiguration")
@ConditionalOnClass({ AuditEventRepository.class, OpcUaServer.class })
@ConditionalOnBean(AuditEventRepository.class)
public final class OpcUaAuditEventsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    OpcUaAuditEventRepositoryListener opcUaAuditEventRepositoryListener(AuditEventRepository repository) {
        return new OpcUaAuditEventRepositoryListener(repository);
    }
}
