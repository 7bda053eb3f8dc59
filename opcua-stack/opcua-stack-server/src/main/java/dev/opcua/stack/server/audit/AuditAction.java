package dev.opcua.stack.server.audit;

/**
 * What an audit record documents: one service call (or one operation of it) of Part 4 that the
 * specification asks an auditing server to report (Part 4, 6.5), or a certificate refused on the way.
 */
public enum AuditAction {
    /** OpenSecureChannel, Issue or Renew (Part 5, 6.4.6 AuditOpenSecureChannelEventType). */
    OPEN_SECURE_CHANNEL,
    /** CreateSession (Part 5, 6.4.8 AuditCreateSessionEventType). */
    CREATE_SESSION,
    /** ActivateSession, a login (Part 5, 6.4.10 AuditActivateSessionEventType). */
    ACTIVATE_SESSION,
    /** CloseSession or the session's timeout (Part 5, 6.4.7 AuditSessionEventType). */
    CLOSE_SESSION,
    /** Cancel (Part 5, 6.4.11 AuditCancelEventType). */
    CANCEL,
    /** A certificate the server refused (Part 5, 6.4.12 to 6.4.18 AuditCertificate*EventType). */
    CERTIFICATE,
    /** One value of a Write (Part 5, 6.4.25 AuditWriteUpdateEventType). */
    WRITE,
    /** One method of a Call (Part 5, 6.4.27 AuditUpdateMethodEventType). */
    CALL,
    /** An AddNodes request (Part 5, 6.4.20 AuditAddNodesEventType). */
    ADD_NODES,
    /** A DeleteNodes request (Part 5, 6.4.21 AuditDeleteNodesEventType). */
    DELETE_NODES,
    /** An AddReferences request (Part 5, 6.4.22 AuditAddReferencesEventType). */
    ADD_REFERENCES,
    /** A DeleteReferences request (Part 5, 6.4.23 AuditDeleteReferencesEventType). */
    DELETE_REFERENCES,
    /** Enable or Disable of a condition (Part 9, 5.10.2 AuditConditionEnableEventType). */
    CONDITION_ENABLE,
    /** AddComment of a condition (Part 9, 5.10.4 AuditConditionCommentEventType). */
    CONDITION_COMMENT,
    /** Acknowledge of a condition (Part 9, 5.10.5 AuditConditionAcknowledgeEventType). */
    CONDITION_ACKNOWLEDGE,
    /** Confirm of a condition (Part 9, 5.10.6 AuditConditionConfirmEventType). */
    CONDITION_CONFIRM
}
