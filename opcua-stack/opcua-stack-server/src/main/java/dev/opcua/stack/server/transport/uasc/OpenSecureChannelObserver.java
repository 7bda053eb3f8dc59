package dev.opcua.stack.server.transport.uasc;

import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.SecurityTokenRequestType;
import java.net.SocketAddress;
import java.security.cert.X509Certificate;

/**
 * Told of every OpenSecureChannel the server answered or refused (Part 4, 5.5.2), for the audit trail
 * (Part 4, 6.5.3). Called on the connection's event loop: it must not block.
 */
@FunctionalInterface
public interface OpenSecureChannelObserver {

    /**
     * An OpenSecureChannel Issue or Renew was answered ({@code status} Good) or refused.
     *
     * @param secureChannelId the channel's id; 0 when an Issue was refused
     * @param requestType Issue or Renew; null when the request was refused before it could be read
     * @param securityPolicyUri the policy of the OPN chunk, or null when it named none
     * @param securityMode the mode asked for; null when the request could not be read
     * @param requestedLifetime the token lifetime asked for in milliseconds; 0 when the request could not be read
     * @param clientCertificate the certificate the client sent, or null
     * @param status Good, or the status the client was answered with
     * @param reason why it was refused; null when answered
     */
    void answered(SocketAddress client, long secureChannelId, SecurityTokenRequestType requestType,
            String securityPolicyUri, MessageSecurityMode securityMode, double requestedLifetime,
            X509Certificate clientCertificate, int status, String reason);
}
