package dev.opcua.stack.server.audit;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.SecurityTokenRequestType;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.IssuedIdentityToken;
import dev.opcua.stack.core.types.structured.SignedSoftwareCertificate;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.WriteValue;
import dev.opcua.stack.server.subscriptions.events.EventNotifierRegistry;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.Map;

/**
 * Makes the {@link AuditRecord} of each audited action with the fields its event type has (Part 5, 6.4.3
 * to 6.4.27; Part 9, 5.10), the SourceNode and SourceName the specification gives it, and a message that
 * says why a refused action failed. Pure functions of their arguments; callers make records only while
 * auditing is on.
 */
public final class AuditRecords {

    static final NodeId OPEN_SECURE_CHANNEL = NodeId.ns0(NodeIds.AuditOpenSecureChannelEventType);
    static final NodeId CREATE_SESSION = NodeId.ns0(NodeIds.AuditCreateSessionEventType);
    static final NodeId ACTIVATE_SESSION = NodeId.ns0(NodeIds.AuditActivateSessionEventType);
    static final NodeId CANCEL = NodeId.ns0(NodeIds.AuditCancelEventType);
    static final NodeId SESSION = NodeId.ns0(NodeIds.AuditSessionEventType);
    static final NodeId WRITE_UPDATE = NodeId.ns0(NodeIds.AuditWriteUpdateEventType);
    static final NodeId UPDATE_METHOD = NodeId.ns0(NodeIds.AuditUpdateMethodEventType);
    static final NodeId ADD_NODES = NodeId.ns0(NodeIds.AuditAddNodesEventType);
    static final NodeId DELETE_NODES = NodeId.ns0(NodeIds.AuditDeleteNodesEventType);
    static final NodeId ADD_REFERENCES = NodeId.ns0(NodeIds.AuditAddReferencesEventType);
    static final NodeId DELETE_REFERENCES = NodeId.ns0(NodeIds.AuditDeleteReferencesEventType);
    static final NodeId CERTIFICATE_DATA_MISMATCH = NodeId.ns0(NodeIds.AuditCertificateDataMismatchEventType);
    static final NodeId CERTIFICATE_EXPIRED = NodeId.ns0(NodeIds.AuditCertificateExpiredEventType);
    static final NodeId CERTIFICATE_INVALID = NodeId.ns0(NodeIds.AuditCertificateInvalidEventType);
    static final NodeId CERTIFICATE_UNTRUSTED = NodeId.ns0(NodeIds.AuditCertificateUntrustedEventType);
    static final NodeId CERTIFICATE_REVOKED = NodeId.ns0(NodeIds.AuditCertificateRevokedEventType);
    static final NodeId CERTIFICATE_MISMATCH = NodeId.ns0(NodeIds.AuditCertificateMismatchEventType);
    static final NodeId CONDITION_ENABLE = NodeId.ns0(NodeIds.AuditConditionEnableEventType);
    static final NodeId CONDITION_COMMENT = NodeId.ns0(NodeIds.AuditConditionCommentEventType);
    static final NodeId CONDITION_ACKNOWLEDGE = NodeId.ns0(NodeIds.AuditConditionAcknowledgeEventType);
    static final NodeId CONDITION_CONFIRM = NodeId.ns0(NodeIds.AuditConditionConfirmEventType);

    /** ClientUserId of OpenSecureChannel, which has no user (Part 5, 6.4.6). */
    public static final String SYSTEM_OPEN_SECURE_CHANNEL = "System/OpenSecureChannel";
    /** ClientUserId of a refused certificate: no user is known when a certificate is validated. */
    static final String SYSTEM_CERTIFICATE = "System/Certificate";

    private static final NodeId SERVER = EventNotifierRegistry.SERVER_OBJECT;

    private AuditRecords() {
    }

    /**
     * An OpenSecureChannel Issue or Renew, answered or refused (Part 4, 6.5.3 and 5.5.2; Part 5, 6.4.6):
     * SourceName "SecureChannel/OpenSecureChannel", ClientUserId "System/OpenSecureChannel", the Server
     * object as SourceNode, SecureChannelId, ClientCertificate and its thumbprint, RequestType,
     * SecurityPolicyUri, SecurityMode and RequestedLifetime; a refusal before the request could be read
     * leaves the request's fields null.
     *
     * @param secureChannelId the channel, 0 when the Issue was refused
     * @param clientCertificate the certificate the client sent, null with None or when it was unreadable
     * @param status Good, or the status the client was answered with
     */
    public static AuditRecord openSecureChannel(String clientAddress, long secureChannelId,
            SecurityTokenRequestType requestType, String securityPolicyUri, MessageSecurityMode securityMode,
            double requestedLifetime, X509Certificate clientCertificate, int status, String reason) {
        Map<String, Variant> fields = new HashMap<>();
        fields.put("SecureChannelId", Variant.ofString(Long.toString(secureChannelId)));
        putCertificate(fields, "ClientCertificate", "ClientCertificateThumbprint", clientCertificate);
        if (requestType != null) {
            fields.put("RequestType", Variant.ofInt32(requestType.value()));
        }
        fields.put("SecurityPolicyUri", Variant.ofString(securityPolicyUri));
        if (securityMode != null) {
            fields.put("SecurityMode", Variant.ofInt32(securityMode.value()));
        }
        fields.put("RequestedLifetime", Variant.ofDouble(requestedLifetime));
        boolean success = StatusCode.of(status).isGood();
        String applicationUri = clientCertificate == null ? null : applicationUriOf(clientCertificate);
        return new AuditRecord(AuditAction.OPEN_SECURE_CHANNEL, OPEN_SECURE_CHANNEL, success, StatusCode.of(status),
                DateTime.now(), SYSTEM_OPEN_SECURE_CHANNEL, null, clientAddress, applicationUri, null, SERVER,
                "SecureChannel/OpenSecureChannel", outcome(success ? "secure channel " + secureChannelId + " "
                        + (requestType == SecurityTokenRequestType.Renew ? "renewed" : "opened")
                        : "OpenSecureChannel refused", status, reason), fields);
    }

    /**
     * CreateSession (Part 4, 6.5.4; Part 5, 6.4.8): SourceName "Session/CreateSession", SessionId (null when
     * refused), SecureChannelId, ClientCertificate and its thumbprint, RevisedSessionTimeout.
     */
    public static AuditRecord createSession(AuditContext context, X509Certificate clientCertificate,
            double revisedSessionTimeout, int status, String reason) {
        Map<String, Variant> fields = new HashMap<>();
        fields.put("SecureChannelId", Variant.ofString(context.secureChannelIdText()));
        putCertificate(fields, "ClientCertificate", "ClientCertificateThumbprint", clientCertificate);
        fields.put("RevisedSessionTimeout", Variant.ofDouble(revisedSessionTimeout));
        return record(AuditAction.CREATE_SESSION, CREATE_SESSION, context, SERVER, "Session/CreateSession",
                "session created", "CreateSession refused", status, reason, fields);
    }

    /**
     * ActivateSession, a login (Part 4, 6.5.4; Part 5, 6.4.10): SourceName "Session/ActivateSession",
     * ClientSoftwareCertificates, the UserIdentityToken without its secret (a user name token keeps its
     * policy and user name, not the password; an issued token loses its token data), SecureChannelId.
     *
     * @param token the token as the client sent it, or null when it could not be read
     */
    public static AuditRecord activateSession(AuditContext context, SignedSoftwareCertificate[] softwareCertificates,
            UserIdentityToken token, int status, String reason) {
        Map<String, Variant> fields = new HashMap<>();
        fields.put("ClientSoftwareCertificates", Variant.ofArray(BuiltinType.ExtensionObject,
                extensionObjects(softwareCertificates == null ? new SignedSoftwareCertificate[0]
                        : softwareCertificates)));
        UserIdentityToken withoutSecret = withoutSecret(token);
        if (withoutSecret != null) {
            fields.put("UserIdentityToken", Variant.of(withoutSecret));
        }
        fields.put("SecureChannelId", Variant.ofString(context.secureChannelIdText()));
        return record(AuditAction.ACTIVATE_SESSION, ACTIVATE_SESSION, context, SERVER, "Session/ActivateSession",
                "session activated for " + context.clientUserId(), "ActivateSession refused for "
                        + context.clientUserId(), status, reason, fields);
    }

    /**
     * The end of a session (Part 4, 6.5.4; Part 5, 6.4.7 AuditSessionEventType): SourceName
     * "Session/CloseSession" when the client closed it, "Session/Timeout" when the server closed it after its
     * timeout; SessionId.
     *
     * @param timedOut whether the server closed it for want of requests
     */
    public static AuditRecord closeSession(AuditContext context, boolean timedOut, int status, String reason) {
        return record(AuditAction.CLOSE_SESSION, SESSION, context, SERVER,
                timedOut ? "Session/Timeout" : "Session/CloseSession",
                timedOut ? "session timed out" : "session closed", "CloseSession refused", status, reason,
                Map.of());
    }

    /** Cancel (Part 4, 6.5.4; Part 5, 6.4.11): SourceName "Session/Cancel", RequestHandle. */
    public static AuditRecord cancel(AuditContext context, long requestHandle, int status, String reason) {
        return record(AuditAction.CANCEL, CANCEL, context, SERVER, "Session/Cancel",
                "cancel of request " + requestHandle, "Cancel refused", status, reason,
                Map.of("RequestHandle", Variant.ofUInt32(requestHandle)));
    }

    /**
     * One value of a Write (Part 4, 6.5.6; Part 5, 6.4.25): the node written as SourceNode, SourceName
     * "Attribute/Write", AttributeId, IndexRange, OldValue (null when it could not be read) and NewValue.
     *
     * @param result the operation's status
     */
    public static AuditRecord write(AuditContext context, WriteValue value, DataValue oldValue, StatusCode result) {
        Map<String, Variant> fields = new HashMap<>();
        fields.put("AttributeId", Variant.ofUInt32(value.attributeId()));
        fields.put("IndexRange", Variant.ofString(value.indexRange()));
        fields.put("OldValue", oldValue == null ? Variant.NULL : oldValue.value());
        fields.put("NewValue", value.value() == null ? Variant.NULL : value.value().value());
        NodeId node = value.nodeId() == null ? NodeId.NULL : value.nodeId();
        return record(AuditAction.WRITE, WRITE_UPDATE, context, node, "Attribute/Write", "wrote " + node,
                "Write of " + node + " refused", result.value(), null, fields);
    }

    /**
     * One method of a Call (Part 4, 6.5.7; Part 5, 6.4.27): the object as SourceNode, SourceName
     * "Attribute/Call", MethodId and InputArguments; the 1.05 optional StatusCodeId and OutputArguments
     * too, since the result is known.
     */
    public static AuditRecord call(AuditContext context, CallMethodRequest request, CallMethodResult result) {
        Map<String, Variant> fields = methodFields(request.methodId(), request.inputArguments());
        int status = result.statusCode() == null ? StatusCodes.Good : result.statusCode().value();
        fields.put("StatusCodeId", Variant.of(StatusCode.of(status)));
        if (result.outputArguments() != null) {
            fields.put("OutputArguments", Variant.ofArray(BuiltinType.Variant, result.outputArguments()));
        }
        NodeId object = request.objectId() == null ? NodeId.NULL : request.objectId();
        return record(AuditAction.CALL, UPDATE_METHOD, context, object, "Attribute/Call",
                "called " + request.methodId() + " on " + object,
                "Call of " + request.methodId() + " on " + object + " refused", status, null, fields);
    }

    /**
     * One request of the NodeManagement services (Part 4, 6.5; Part 5, 6.4.19 to 6.4.23): the Server object
     * as SourceNode, SourceName "NodeManagement/AddNodes" (DeleteNodes, AddReferences, DeleteReferences), the
     * request's items in NodesToAdd, NodesToDelete, ReferencesToAdd or ReferencesToDelete, and Status true when
     * every item succeeded, else the status of the first that did not.
     *
     * @param action one of ADD_NODES, DELETE_NODES, ADD_REFERENCES, DELETE_REFERENCES
     * @param items the request's items
     * @param results the status of each item
     */
    public static AuditRecord nodeManagement(AuditContext context, AuditAction action, UaStructure[] items,
            StatusCode[] results) {
        record Kind(NodeId type, String service, String field) {
        }
        Kind kind = switch (action) {
            case ADD_NODES -> new Kind(ADD_NODES, "AddNodes", "NodesToAdd");
            case DELETE_NODES -> new Kind(DELETE_NODES, "DeleteNodes", "NodesToDelete");
            case ADD_REFERENCES -> new Kind(ADD_REFERENCES, "AddReferences", "ReferencesToAdd");
            case DELETE_REFERENCES -> new Kind(DELETE_REFERENCES, "DeleteReferences", "ReferencesToDelete");
            default -> throw new IllegalArgumentException(action + " is no NodeManagement service");
        };
        ExtensionObject[] encoded = new ExtensionObject[items.length];
        for (int i = 0; i < items.length; i++) {
            encoded[i] = ExtensionObject.of(items[i]);
        }
        int status = StatusCodes.Good;
        for (StatusCode result : results) {
            if (result != null && !result.isGood()) {
                status = result.value();
                break;
            }
        }
        return record(action, kind.type(), context, SERVER, "NodeManagement/" + kind.service(),
                kind.service() + " of " + items.length + " items", kind.service() + " of " + items.length
                        + " items not all done", status, null,
                Map.of(kind.field(), Variant.ofArray(BuiltinType.ExtensionObject, encoded)));
    }

    /**
     * A certificate the server refused (Part 4, 6.5.2 and 6.1.3; Part 5, 6.4.12 to 6.4.18): the
     * validator's status chooses the type: Untrusted for BadCertificateUntrusted, Expired for the
     * (issuer) time checks, Revoked for the (issuer) revocations, DataMismatch for a wrong ApplicationUri or
     * host name, Mismatch for a key usage the certificate does not allow, Invalid for every other refusal
     * (structure, chain, signature, policy, unknown revocation). SourceName "Security/Certificate".
     */
    public static AuditRecord certificate(AuditContext context, X509Certificate certificate, int status,
            String reason) {
        NodeId type = certificateEventType(status);
        Map<String, Variant> fields = new HashMap<>();
        fields.put("Certificate", certificate == null ? Variant.NULL : Variant.of(der(certificate)));
        if (type.equals(CERTIFICATE_DATA_MISMATCH)) {
            if (status == StatusCodes.BadCertificateUriInvalid) {
                fields.put("InvalidUri", Variant.ofString(context.clientApplicationUri()));
            } else {
                fields.put("InvalidHostname", Variant.ofString(context.clientAddress()));
            }
        }
        String subject = certificate == null ? "a certificate"
                : "certificate " + certificate.getSubjectX500Principal().getName();
        return record(AuditAction.CERTIFICATE, type, context, SERVER, "Security/Certificate", subject,
                subject + " refused", status, reason, fields);
    }

    /** The AuditCertificate*EventType of a validator's refusal, see {@link #certificate}. */
    static NodeId certificateEventType(int status) {
        return switch (status) {
            case StatusCodes.BadCertificateUntrusted -> CERTIFICATE_UNTRUSTED;
            case StatusCodes.BadCertificateTimeInvalid, StatusCodes.BadCertificateIssuerTimeInvalid ->
                    CERTIFICATE_EXPIRED;
            case StatusCodes.BadCertificateRevoked, StatusCodes.BadCertificateIssuerRevoked -> CERTIFICATE_REVOKED;
            case StatusCodes.BadCertificateUriInvalid, StatusCodes.BadCertificateHostNameInvalid ->
                    CERTIFICATE_DATA_MISMATCH;
            case StatusCodes.BadCertificateUseNotAllowed, StatusCodes.BadCertificateIssuerUseNotAllowed ->
                    CERTIFICATE_MISMATCH;
            default -> CERTIFICATE_INVALID;
        };
    }

    /** The condition methods that raise condition audit events (Part 9, 5.10). */
    public enum ConditionMethod {
        ENABLE("Enable", AuditAction.CONDITION_ENABLE, CONDITION_ENABLE),
        DISABLE("Disable", AuditAction.CONDITION_ENABLE, CONDITION_ENABLE),
        ADD_COMMENT("AddComment", AuditAction.CONDITION_COMMENT, CONDITION_COMMENT),
        ACKNOWLEDGE("Acknowledge", AuditAction.CONDITION_ACKNOWLEDGE, CONDITION_ACKNOWLEDGE),
        CONFIRM("Confirm", AuditAction.CONDITION_CONFIRM, CONDITION_CONFIRM);

        private final String browseName;
        private final AuditAction action;
        private final NodeId eventType;

        ConditionMethod(String browseName, AuditAction action, NodeId eventType) {
            this.browseName = browseName;
            this.action = action;
            this.eventType = eventType;
        }
    }

    /**
     * A condition method (Part 9, 5.10.2 to 5.10.6, subtypes of AuditUpdateMethodEventType): the condition
     * as SourceNode, SourceName "Method/" and the method's name, MethodId and InputArguments; Comment and
     * ConditionEventId for AddComment, Acknowledge and Confirm.
     *
     * @param eventId the EventId the client named, null for Enable and Disable
     * @param comment the comment, null for Enable and Disable
     */
    public static AuditRecord conditionMethod(AuditContext context, ConditionMethod method, NodeId conditionId,
            NodeId methodId, Variant[] inputs, ByteString eventId, LocalizedText comment, int status, String reason) {
        Map<String, Variant> fields = methodFields(methodId, inputs);
        if (method != ConditionMethod.ENABLE && method != ConditionMethod.DISABLE) {
            fields.put("ConditionEventId", eventId == null ? Variant.NULL : Variant.of(eventId));
            fields.put("Comment", comment == null ? Variant.NULL : Variant.of(comment));
        }
        return record(method.action, method.eventType, context, conditionId, "Method/" + method.browseName,
                method.browseName + " of " + conditionId, method.browseName + " of " + conditionId + " refused",
                status, reason, fields);
    }

    private static Map<String, Variant> methodFields(NodeId methodId, Variant[] inputs) {
        Map<String, Variant> fields = new HashMap<>();
        fields.put("MethodId", Variant.of(methodId == null ? NodeId.NULL : methodId));
        fields.put("InputArguments", Variant.ofArray(BuiltinType.Variant, inputs == null ? new Variant[0] : inputs));
        return fields;
    }

    private static AuditRecord record(AuditAction action, NodeId type, AuditContext context, NodeId sourceNode,
            String sourceName, String done, String refused, int status, String reason, Map<String, Variant> fields) {
        boolean success = StatusCode.of(status).isGood();
        return new AuditRecord(action, type, success, StatusCode.of(status), DateTime.now(), context.clientUserId(),
                context.clientAuditEntryId(), context.clientAddress(), context.clientApplicationUri(),
                context.sessionId(), sourceNode, sourceName, outcome(success ? done : refused, status, reason), fields);
    }

    /** The message: what happened, and for a refusal the status and the reason. */
    private static String outcome(String what, int status, String reason) {
        if (StatusCode.of(status).isGood()) {
            return what;
        }
        String name = StatusCode.of(status).name();
        return what + ": " + (name == null ? Integer.toHexString(status) : name)
                + (reason == null || reason.isEmpty() ? "" : " (" + reason + ")");
    }

    /** The token as the audit event shows it: the secret removed (Part 5, 6.4.10). */
    static UserIdentityToken withoutSecret(UserIdentityToken token) {
        if (token instanceof UserNameIdentityToken userName) {
            return new UserNameIdentityToken(userName.policyId(), userName.userName(), ByteString.NULL, null);
        }
        if (token instanceof IssuedIdentityToken issued) {
            return new IssuedIdentityToken(issued.policyId(), ByteString.NULL, null);
        }
        return token;
    }

    private static void putCertificate(Map<String, Variant> fields, String certificateField, String thumbprintField,
            X509Certificate certificate) {
        if (certificate == null) {
            return;
        }
        fields.put(certificateField, Variant.of(der(certificate)));
        fields.put(thumbprintField, Variant.ofString(Certificates.hex(Certificates.thumbprint(certificate))));
    }

    private static ByteString der(X509Certificate certificate) {
        return ByteString.wrap(Certificates.encode(certificate));
    }

    private static String applicationUriOf(X509Certificate certificate) {
        try {
            return PkiCertificateValidator.applicationUriOf(certificate);
        } catch (RuntimeException e) { // an unreadable extension: the audit record goes without the URI
            return null;
        }
    }

    private static ExtensionObject[] extensionObjects(SignedSoftwareCertificate[] certificates) {
        ExtensionObject[] objects = new ExtensionObject[certificates.length];
        for (int i = 0; i < certificates.length; i++) {
            objects[i] = ExtensionObject.of(certificates[i]);
        }
        return objects;
    }
}
