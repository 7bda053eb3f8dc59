package dev.opcua.stack.server.session;

import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import java.security.cert.X509Certificate;
import java.util.Objects;

/**
 * What another server needs to go on with an activated session (Part 4, 5.6; HotAndMirrored redundancy, Part 4,
 * 6.6.2.4.5): its ids and parameters as CreateSession revised them, the client certificate it was created with
 * (null with SecurityPolicy None), the user of its last activation with the roles granted, and the last server
 * nonce, which the client signs in its next ActivateSession. The AuthenticationToken is not part of it: a store
 * keeps only a hash of it, and the client presents it again.
 *
 * @param sessionId the public SessionId
 * @param sessionName the client's name for the session
 * @param clientDescription the client's ApplicationDescription
 * @param endpointUrl the EndpointUrl CreateSession was called for
 * @param revisedTimeout the revised session timeout in milliseconds
 * @param maxResponseMessageSize the client's MaxResponseMessageSize, 0 for none
 * @param clientCertificate the client's application instance certificate, null with SecurityPolicy None
 * @param security the security of the channel the session was created on
 * @param identity the user of the last activation
 * @param roles the user's roles as a {@link dev.opcua.stack.server.roles.WellKnownRole} mask
 * @param serverNonce the last server nonce sent to the client
 */
public record SessionSnapshot(NodeId sessionId, String sessionName, ApplicationDescription clientDescription,
        String endpointUrl, double revisedTimeout, long maxResponseMessageSize, X509Certificate clientCertificate,
        EndpointSecurity security, Identity identity, long roles, ByteString serverNonce) {

    public SessionSnapshot {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(security, "security");
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(serverNonce, "serverNonce");
    }
}
