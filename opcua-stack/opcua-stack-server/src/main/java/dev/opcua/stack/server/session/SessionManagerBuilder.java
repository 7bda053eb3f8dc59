package dev.opcua.stack.server.session;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.ApplicationCertificates;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.audit.AuditLog;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.roles.RoleMapper;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** Configuration of a {@link SessionManager}; the identity validator and the endpoints are required. */
public final class SessionManagerBuilder {

    SessionSettings settings = SessionSettings.DEFAULT;
    IdentityValidator validator;
    Function<String, List<EndpointDescription>> endpoints;
    long maxRequestMessageSize;
    ApplicationCertificates applicationCertificates = ApplicationCertificates.NONE;
    CertificateValidator userCertificateValidator = NO_USER_CERTIFICATES;
    LongSupplier nanoClock = System::nanoTime;
    SessionListener listener = SessionListener.NONE;
    RoleMapper roleMapper = RoleMapper.wellKnown();
    AuditLog audit = AuditLog.disabled();
    SessionTakeover takeover = SessionTakeover.NONE;

    SessionManagerBuilder() {
    }

    private static final CertificateValidator NO_USER_CERTIFICATES = chain -> {
        throw new UaException(StatusCodes.BadCertificateUntrusted, "no user certificate validator is configured");
    };

    public SessionManagerBuilder settings(SessionSettings value) {
        settings = Objects.requireNonNull(value, "settings");
        return this;
    }

    /**
     * Which roles each user has (Part 3, 4.9), asked at every activation; by default
     * {@link RoleMapper#wellKnown()}: Anonymous or AuthenticatedUser.
     */
    public SessionManagerBuilder roleMapper(RoleMapper value) {
        roleMapper = Objects.requireNonNull(value, "roleMapper");
        return this;
    }

    public SessionManagerBuilder identityValidator(IdentityValidator value) {
        validator = Objects.requireNonNull(value, "identityValidator");
        return this;
    }

    /**
     * The endpoints returned by CreateSession for the request's EndpointUrl, whose UserTokenPolicies
     * ActivateSession accepts.
     */
    public SessionManagerBuilder endpoints(Function<String, List<EndpointDescription>> value) {
        endpoints = Objects.requireNonNull(value, "endpoints");
        return this;
    }

    /**
     * The endpoints as the server's GetEndpoints returns them for the EndpointUrl (Part 4, 5.6.2: the
     * client compares the two lists). The supplier is asked at each CreateSession, so that discovery
     * may be configured after the server has bound its port.
     */
    public SessionManagerBuilder discoveryEndpoints(Supplier<DiscoveryServices> discovery) {
        Objects.requireNonNull(discovery, "discovery");
        return endpoints(url -> List.of(discovery.get().getEndpoints(new GetEndpointsRequest(
                new RequestHeader(NodeId.NULL, null, 0, 0, null, 0, ExtensionObject.NULL), url, null, null))
                .endpoints()));
    }

    /** The MaxRequestMessageSize announced in CreateSession, normally the transport's; default 0 (no limit). */
    public SessionManagerBuilder maxRequestMessageSize(long value) {
        if (value < 0 || value > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("maxRequestMessageSize must be a UInt32, was " + value);
        }
        maxRequestMessageSize = value;
        return this;
    }

    /**
     * The server's application instance certificate and key: signs CreateSession on secure channels,
     * verifies ActivateSession's signatures, decrypts passwords. Null (the default) only when the server
     * offers SecurityPolicy None alone and no encrypted user tokens.
     */
    public SessionManagerBuilder applicationCertificate(ApplicationCertificate value) {
        applicationCertificates = ApplicationCertificates.of(value);
        return this;
    }

    /** The server's certificates, one per type, in slots the server replaces them in while it runs. */
    public SessionManagerBuilder applicationCertificates(ApplicationCertificates value) {
        applicationCertificates = Objects.requireNonNull(value, "applicationCertificates");
        return this;
    }

    /**
     * Validates the certificates of X.509 user tokens (Part 4, 6.1.3; a trust list of users, kept apart
     * from that of client applications). Its refusal is answered BadIdentityTokenRejected. Default:
     * refuses every user certificate.
     */
    public SessionManagerBuilder userCertificateValidator(CertificateValidator value) {
        userCertificateValidator = Objects.requireNonNull(value, "userCertificateValidator");
        return this;
    }

    /** Where CreateSession, ActivateSession and Cancel are audited; {@link AuditLog#disabled()} by default. */
    public SessionManagerBuilder audit(AuditLog value) {
        audit = Objects.requireNonNull(value, "audit");
        return this;
    }

    /** Hears of every closed session (e.g. the subscriptions layer); default none. */
    public SessionManagerBuilder listener(SessionListener value) {
        listener = Objects.requireNonNull(value, "listener");
        return this;
    }

    /** For tests: the clock of timeouts and lock-outs, in nanoseconds. */
    SessionManagerBuilder nanoClock(LongSupplier value) {
        nanoClock = Objects.requireNonNull(value, "nanoClock");
        return this;
    }

    /**
     * Where ActivateSession finds the sessions of a HotAndMirrored partner (Part 4, 6.6.2.4.5);
     * {@link SessionTakeover#NONE} by default.
     */
    public SessionManagerBuilder takeover(SessionTakeover value) {
        takeover = Objects.requireNonNull(value, "takeover");
        return this;
    }

    public SessionManager build() {
        return new SessionManager(this);
    }
}
