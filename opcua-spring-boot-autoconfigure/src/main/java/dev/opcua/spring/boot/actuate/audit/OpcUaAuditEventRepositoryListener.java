package dev.opcua.spring.boot.actuate.audit;

import dev.opcua.stack.server.audit.AuditAction;
import dev.opcua.stack.server.audit.AuditContext;
import dev.opcua.stack.server.audit.AuditListener;
import dev.opcua.stack.server.audit.AuditRecord;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.boot.actuate.audit.AuditEvent;
import org.springframework.boot.actuate.audit.AuditEventRepository;

/**
 * Hands each audit record of the OPC UA server to an {@link AuditEventRepository} as an {@link AuditEvent}:
 * the principal is the user ({@code anonymous} for the anonymous user), or for secure channels, sessions
 * being created and refused certificates the client's ApplicationUri (else its address); the type is the
 * record's {@link AuditRecord#typeName()}, such as {@code OPCUA_ACTIVATE_SESSION_FAILURE}; the data hold
 * the client's address and ApplicationUri, the session, the node, the status and the message.
 */
public final class OpcUaAuditEventRepositoryListener implements AuditListener {

    private final AuditEventRepository repository;

    public OpcUaAuditEventRepositoryListener(AuditEventRepository repository) {
        this.repository = Objects.requireNonNull(repository, "repository");
    }

    @Override
    public void onAudit(AuditRecord record) {
        Map<String, Object> data = new LinkedHashMap<>();
        put(data, "clientAddress", record.clientAddress());
        put(data, "applicationUri", record.clientApplicationUri());
        put(data, "sessionId", record.sessionId() == null ? null : record.sessionId().toString());
        put(data, "nodeId", record.sourceNode().toString());
        put(data, "status", record.status().name() == null ? Integer.toHexString(record.status().value())
                : record.status().name());
        put(data, "message", record.message());
        put(data, "auditEntryId", record.clientAuditEntryId());
        repository.add(new AuditEvent(record.actionTime().toInstant(), principal(record), record.typeName(), data));
    }

    /** The user, "anonymous", or for actions without a user the client application. */
    static String principal(AuditRecord record) {
        AuditAction action = record.action();
        if (action == AuditAction.OPEN_SECURE_CHANNEL || action == AuditAction.CREATE_SESSION
                || action == AuditAction.CERTIFICATE) {
            if (record.clientApplicationUri() != null) {
                return record.clientApplicationUri();
            }
            return record.clientAddress() != null ? record.clientAddress() : record.clientUserId();
        }
        return AuditContext.ANONYMOUS.equals(record.clientUserId()) ? "anonymous" : record.clientUserId();
    }

    private static void put(Map<String, Object> data, String key, Object value) {
        if (value != null) {
            data.put(key, value);
        }
    }
}
