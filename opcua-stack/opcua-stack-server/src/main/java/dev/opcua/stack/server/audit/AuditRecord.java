package dev.opcua.stack.server.audit;

import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.subscriptions.events.UaEvent;
import java.util.Map;
import java.util.Objects;

/**
 * One audited action (Part 4, 6.5; Part 5, 6.4.3 AuditEventType): who did what, from where, with which
 * outcome, plus the fields of its event type. {@link #toEvent(String)} turns it into the event the
 * Server object's subscribers receive; {@link AuditListener}s get the record itself.
 *
 * @param action what was done
 * @param eventType the AuditEventType subtype of the event (AuditActivateSessionEventType ...)
 * @param success AuditEventType's Status: whether the action was performed
 * @param status the status the service answered (Good on success)
 * @param actionTime ActionTimeStamp: when the server took the action
 * @param clientUserId ClientUserId: the user (a user name, "Anonymous", a certificate subject), or the
 *        "System/..." text the specification gives actions without a user
 * @param clientAuditEntryId ClientAuditEntryId: the auditEntryId of the request header, or null
 * @param clientAddress the client's socket address (host:port), or null when not known
 * @param clientApplicationUri the client's ApplicationUri (from CreateSession or its certificate), or null
 * @param sessionId the session acted in, or null
 * @param sourceNode SourceNode: the Server object, the node written, the object of a method, a condition
 * @param sourceName SourceName as the specification gives it ("Session/ActivateSession" ...)
 * @param message Message: what happened, and why it failed
 * @param fields the event type's own fields by their namespace-0 BrowseName (SecureChannelId ...)
 */
public record AuditRecord(
        AuditAction action,
        NodeId eventType,
        boolean success,
        StatusCode status,
        DateTime actionTime,
        String clientUserId,
        String clientAuditEntryId,
        String clientAddress,
        String clientApplicationUri,
        NodeId sessionId,
        NodeId sourceNode,
        String sourceName,
        String message,
        Map<String, Variant> fields) {

    /** Severity of a performed action: informational. */
    static final int SEVERITY_SUCCESS = 100;
    /** Severity of a refused action: a failed login or a refused certificate is worth an operator's look. */
    static final int SEVERITY_FAILURE = 500;

    public AuditRecord {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(eventType, "eventType");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(actionTime, "actionTime");
        Objects.requireNonNull(clientUserId, "clientUserId");
        Objects.requireNonNull(sourceNode, "sourceNode");
        Objects.requireNonNull(sourceName, "sourceName");
        Objects.requireNonNull(message, "message");
        fields = Map.copyOf(fields);
    }

    /**
     * The event of this record (Part 5, 6.4.3): BaseEventType's fields, AuditEventType's ActionTimeStamp,
     * Status, ServerId, ClientAuditEntryId and ClientUserId, AuditSessionEventType's SessionId where there
     * is a session, AuditSecurityEventType's StatusCodeId for the security types, and the type's own
     * fields.
     *
     * @param serverId ServerId: the server's ApplicationUri
     */
    public UaEvent toEvent(String serverId) {
        UaEvent.Builder event = UaEvent.builder(eventType)
                .sourceNode(sourceNode)
                .sourceName(sourceName)
                .message(message)
                .severity(success ? SEVERITY_SUCCESS : SEVERITY_FAILURE)
                .field("ActionTimeStamp", Variant.of(actionTime))
                .field("Status", Variant.ofBoolean(success))
                .field("ServerId", Variant.ofString(serverId))
                .field("ClientAuditEntryId", Variant.ofString(clientAuditEntryId))
                .field("ClientUserId", Variant.ofString(clientUserId));
        if (sessionId != null) {
            event.field("SessionId", Variant.of(sessionId));
        }
        fields.forEach(event::field);
        return event.build();
    }

    /** The type of the record as audit trails outside OPC UA name it: {@code OPCUA_ACTIVATE_SESSION_FAILURE}. */
    public String typeName() {
        return "OPCUA_" + action.name() + (success ? "_SUCCESS" : "_FAILURE");
    }
}
