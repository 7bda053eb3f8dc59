package dev.opcua.stack.server.audit;

/**
 * Sees every audit record the server raised, after its event went to the Server object's subscribers:
 * an application's own audit trail (the Spring Boot starter's AuditEventRepository adapter is one).
 *
 * <p>Called on the audit thread ({@code opcua-audit}), one record after the other in the order they were
 * raised; a listener that blocks delays the next records, and one that throws is counted and skipped.
 */
@FunctionalInterface
public interface AuditListener {

    void onAudit(AuditRecord record);
}
