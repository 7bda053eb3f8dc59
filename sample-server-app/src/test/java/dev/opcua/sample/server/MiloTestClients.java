package dev.opcua.sample.server;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;

/** Connected Eclipse Milo 1.1.2 clients for the sample's tests: SecurityPolicy None, Milo's default keep-alive. */
final class MiloTestClients {

    private MiloTestClients() {
    }

    /** A connected client with {@code identity} and the given request timeout on the first None endpoint. */
    static OpcUaClient overNone(String endpointUrl, IdentityProvider identity, long requestTimeoutMillis)
            throws UaException {
        OpcUaClient client = OpcUaClient.create(endpointUrl,
                endpoints -> endpoints.stream()
                        .filter(e -> SecurityPolicy.None.getUri().equals(e.getSecurityPolicyUri()))
                        .findFirst(),
                transport -> { },
                config -> config.setIdentityProvider(identity).setRequestTimeout(uint(requestTimeoutMillis)));
        client.connect();
        return client;
    }
}
