package dev.opcua.stack.server.audit;

/**
 * Marks a node manager whose methods raise audit events of their own, subtypes of
 * AuditUpdateMethodEventType (Part 5, 6.4.27 asks for such subtypes; Part 9, 5.10 defines the condition
 * methods'): the Call service then raises no plain AuditUpdateMethodEvent for them, so that one call is
 * audited once.
 */
public interface AuditsOwnMethods {
}
