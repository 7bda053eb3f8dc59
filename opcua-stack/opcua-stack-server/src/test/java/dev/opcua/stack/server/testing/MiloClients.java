package dev.opcua.stack.server.testing;

import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import dev.opcua.stack.core.security.ApplicationCertificate;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaClientConfig;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.DefaultClientCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.MemoryTrustListManager;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.core.util.validation.ValidationCheck;

/** Eclipse Milo 1.1.2 clients for interop tests: 5 s request timeout, 60 s keep-alive. */
public final class MiloClients {

    private MiloClients() {
    }

    /** Disconnects {@code client}, then closes the rest in order; a null (a setup that failed early) is skipped. */
    public static void disconnectAndClose(OpcUaClient client, AutoCloseable... resources) throws Exception {
        if (client != null) {
            client.disconnect();
        }
        for (AutoCloseable resource : resources) {
            if (resource != null) {
                resource.close();
            }
        }
    }

    /** The Milo DateTime {@code seconds} after {@code t0} (to the millisecond), for history written and read back. */
    public static DateTime miloTime(Instant t0, double seconds) {
        return new DateTime(t0.plusMillis((long) (seconds * 1000)));
    }

    /** A connected anonymous client on the first SecurityPolicy None endpoint of {@code endpointUrl}. */
    public static OpcUaClient anonymousOverNone(String endpointUrl) throws UaException {
        return overNone(endpointUrl, new AnonymousProvider());
    }

    /** A connected client with {@code identity} on the first SecurityPolicy None endpoint of {@code endpointUrl}. */
    public static OpcUaClient overNone(String endpointUrl, IdentityProvider identity) throws UaException {
        OpcUaClient client = createOverNone(endpointUrl, identity);
        client.connect();
        return client;
    }

    /** Like {@link #overNone}, but not yet connected, for tests that connect (or fail to) themselves. */
    public static OpcUaClient createOverNone(String endpointUrl, IdentityProvider identity) throws UaException {
        return OpcUaClient.create(endpointUrl,
                endpoints -> endpoints.stream()
                        .filter(e -> SecurityPolicy.None.getUri().equals(e.getSecurityPolicyUri()))
                        .findFirst(),
                transport -> { },
                config -> config.setIdentityProvider(identity)
                        .setRequestTimeout(uint(5_000))
                        .setKeepAliveInterval(uint(60_000)));
    }

    /**
     * The configuration of a client on a secure {@code endpoint}: its application certificate and key,
     * a trust list holding only {@code serverCertificate}, and {@code identity}.
     */
    public static OpcUaClientConfig secureConfig(EndpointDescription endpoint, List<EndpointDescription> endpoints,
            X509Certificate serverCertificate, ApplicationCertificate certificate, String applicationName,
            String applicationUri, IdentityProvider identity) {
        MemoryTrustListManager trustList = new MemoryTrustListManager();
        trustList.addTrustedCertificate(serverCertificate);
        return OpcUaClientConfig.builder()
                .setEndpoint(endpoint)
                .setDiscoveryEndpoints(endpoints)
                .setApplicationName(LocalizedText.english(applicationName))
                .setApplicationUri(applicationUri)
                .setCertificate(certificate.certificate())
                .setCertificateChain(new X509Certificate[] {certificate.certificate()})
                .setKeyPair(new KeyPair(certificate.certificate().getPublicKey(), certificate.privateKey()))
                .setCertificateValidator(new DefaultClientCertificateValidator(trustList,
                        ValidationCheck.ALL_OPTIONAL_CHECKS, new MemoryCertificateQuarantine()))
                .setIdentityProvider(identity)
                .setRequestTimeout(uint(5_000))
                .setKeepAliveInterval(uint(60_000))
                .build();
    }
}
