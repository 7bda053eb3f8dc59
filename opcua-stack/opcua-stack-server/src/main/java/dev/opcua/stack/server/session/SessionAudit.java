package dev.opcua.stack.server.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.UserIdentityToken;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.X509IdentityToken;
import dev.opcua.stack.server.audit.AuditContext;
import dev.opcua.stack.server.audit.AuditLog;
import dev.opcua.stack.server.audit.AuditRecords;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.function.BiFunction;

/**
 * The audit records of the Session service set (Part 4, 6.5.4): CreateSession, ActivateSession and Cancel,
 * answered or refused, with the user the client named also when the login failed. Used by the {@link
 * SessionManager} only while auditing is on.
 */
final class SessionAudit {

    /** ClientUserId of CreateSession, which has no user yet: named as Part 5, 6.4.6 names OpenSecureChannel's. */
    static final String SYSTEM_CREATE_SESSION = "System/CreateSession";

    private final AuditLog audit;

    SessionAudit(AuditLog audit) {
        this.audit = audit;
    }

    /** Runs {@code create} and audits its answer or refusal. */
    CreateSessionResponse createSession(ServerSecureChannel channel, CreateSessionRequest request,
            BiFunction<ServerSecureChannel, CreateSessionRequest, CreateSessionResponse> create) {
        try {
            CreateSessionResponse response = create.apply(channel, request);
            createSession(channel, request, response, StatusCodes.Good, null);
            return response;
        } catch (UaException e) {
            createSession(channel, request, null, e.statusCode().value(), e.getMessage());
            throw e;
        }
    }

    /**
     * Runs {@code activate} and audits its answer or refusal.
     *
     * @param session the session the request names, null when there is none
     */
    ActivateSessionResponse activateSession(ServerSecureChannel channel, ActivateSessionRequest request,
            Session session, BiFunction<ServerSecureChannel, ActivateSessionRequest, ActivateSessionResponse> activate) {
        try {
            ActivateSessionResponse response = activate.apply(channel, request);
            activateSession(channel, request, session, StatusCodes.Good, null);
            return response;
        } catch (UaException e) {
            activateSession(channel, request, session, e.statusCode().value(), e.getMessage());
            throw e;
        }
    }

    private void createSession(ServerSecureChannel channel, CreateSessionRequest request,
            CreateSessionResponse response, int status, String reason) {
        String applicationUri = request.clientDescription() == null ? null
                : request.clientDescription().applicationUri();
        AuditContext context = AuditContext.of(channel, request.requestHeader(), SYSTEM_CREATE_SESSION,
                applicationUri, response == null ? null : response.sessionId());
        List<X509Certificate> chain = channel.clientCertificateChain();
        audit.raise(AuditRecords.createSession(context, chain.isEmpty() ? null : chain.get(0),
                response == null ? 0 : response.revisedSessionTimeout(), status, reason));
    }

    private void activateSession(ServerSecureChannel channel, ActivateSessionRequest request, Session session,
            int status, String reason) {
        UserIdentityToken token = token(request.userIdentityToken());
        String user;
        if (status == StatusCodes.Good && session != null && session.identity() != null) {
            user = session.identity().auditUserId();
        } else {
            user = userNamed(token);
        }
        AuditContext context = AuditContext.of(channel, request.requestHeader(), user,
                session == null || session.clientDescription() == null ? null
                        : session.clientDescription().applicationUri(),
                session == null ? null : session.sessionId());
        audit.raise(AuditRecords.activateSession(context, request.clientSoftwareCertificates(), token, status,
                reason));
    }

    /** A CloseSession answered. */
    void closed(ServerSecureChannel channel, RequestHeader header, Session session) {
        audit.raise(AuditRecords.closeSession(session.auditContext(channel, header), false, StatusCodes.Good, null));
    }

    /** A session the server closed after its timeout; ClientUserId is the session's user. */
    void timedOut(Session session) {
        audit.raise(AuditRecords.closeSession(session.auditContext(null, null), true, StatusCodes.Good, null));
    }

    void cancel(ServerSecureChannel channel, AuditContext context, long requestHandle, int status, String reason) {
        audit.raise(AuditRecords.cancel(context, requestHandle, status, reason));
    }

    /** The user a token names, before it was checked: the user name, or the kind of token. */
    private static String userNamed(UserIdentityToken token) {
        if (token instanceof UserNameIdentityToken userName && userName.userName() != null) {
            return userName.userName();
        }
        if (token instanceof X509IdentityToken) {
            return "X509 user"; // its subject is known only once the certificate is parsed and checked
        }
        return token == null ? "unknown" : AuditContext.ANONYMOUS;
    }

    /** The identity token of the request, decoded; anonymous for none; null when it cannot be read. */
    private static UserIdentityToken token(ExtensionObject body) {
        try {
            return ActivationTokens.identityToken(body);
        } catch (UaException e) {
            return null;
        }
    }
}
