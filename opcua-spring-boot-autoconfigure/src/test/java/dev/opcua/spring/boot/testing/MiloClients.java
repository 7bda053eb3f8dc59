package dev.opcua.spring.boot.testing;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;

/** Connected Eclipse Milo 1.1.2 clients: SecurityPolicy None, 5 s request timeout, 60 s keep-alive. */
public final class MiloClients {

    private MiloClients() {
    }

    /** A connected anonymous client on the first SecurityPolicy None endpoint of {@code endpointUrl}. */
    public static OpcUaClient anonymousOverNone(String endpointUrl) throws UaException {
        return overNone(endpointUrl, new AnonymousProvider());
    }

    /** A connected client with {@code identity} on the first SecurityPolicy None endpoint of {@code endpointUrl}. */
    public static OpcUaClient overNone(String endpointUrl, IdentityProvider identity) throws UaException {
        OpcUaClient client = OpcUaClient.create(endpointUrl,
                endpoints -> endpoints.stream()
                        .filter(e -> SecurityPolicy.None.getUri().equals(e.getSecurityPolicyUri()))
                        .findFirst(),
                transport -> { },
                config -> config.setIdentityProvider(identity)
                        .setRequestTimeout(uint(5_000))
                        .setKeepAliveInterval(uint(60_000)));
        client.connect();
        return client;
    }
}
