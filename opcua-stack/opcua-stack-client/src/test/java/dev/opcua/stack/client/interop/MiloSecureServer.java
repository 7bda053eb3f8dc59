package dev.opcua.stack.client.interop;

import dev.opcua.stack.core.security.ApplicationCertificate;
import java.io.IOException;
import java.net.ServerSocket;
import java.security.KeyPair;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.OpcUaServer;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.sdk.server.identity.AnonymousIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.identity.CompositeValidator;
import org.eclipse.milo.opcua.sdk.server.identity.UsernameIdentityValidator;
import org.eclipse.milo.opcua.sdk.server.identity.X509IdentityValidator;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.security.CertificateStore;
import org.eclipse.milo.opcua.stack.core.security.DefaultApplicationGroup;
import org.eclipse.milo.opcua.stack.core.security.DefaultCertificateManager;
import org.eclipse.milo.opcua.stack.core.security.DefaultServerCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateStore;
import org.eclipse.milo.opcua.stack.core.security.MemoryTrustListManager;
import org.eclipse.milo.opcua.stack.core.security.RsaSha256CertificateFactory;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.transport.TransportProfile;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.UserTokenType;
import org.eclipse.milo.opcua.stack.core.types.structured.UserTokenPolicy;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransport;
import org.eclipse.milo.opcua.stack.transport.server.tcp.OpcTcpServerTransportConfig;

/**
 * An Eclipse Milo 1.1.2 server on 127.0.0.1 with an endpoint for None and for each of Basic128Rsa15,
 * Basic256, Basic256Sha256, Aes128_Sha256_RsaOaep and Aes256_Sha256_RsaPss in Sign and SignAndEncrypt,
 * the interop peer of our sessions. Its application certificate and the client certificates it
 * trusts are ours (BouncyCastle, see {@code TestCertificates}); Milo's trust list and certificate
 * validator decide as in production. Users: anonymous, {@value #USER} / {@value #PASSWORD}, and the
 * one X.509 user certificate it is given. Milo's types stay in this class.
 *
 * <p>Token policies: Milo's defaults (user name and certificate under Basic256Sha256) on every
 * endpoint but Aes256_Sha256_RsaPss, whose user name policy names that policy and whose certificate
 * policy names none, so that the channel's policy signs.
 */
final class MiloSecureServer implements AutoCloseable {

    static final String PATH = "/milo";
    static final String USER = "user";
    static final String PASSWORD = "password1";
    static final String USER_NAME_POLICY_PSS = "username-pss";
    static final String CERTIFICATE_POLICY_PSS = "certificate-pss";

    private static final List<SecurityPolicy> POLICIES = List.of(SecurityPolicy.Basic128Rsa15, SecurityPolicy.Basic256,
            SecurityPolicy.Basic256Sha256, SecurityPolicy.Aes128_Sha256_RsaOaep, SecurityPolicy.Aes256_Sha256_RsaPss);

    private final OpcUaServer server;
    private final String endpointUrl;
    private final boolean addedProvider;

    private MiloSecureServer(OpcUaServer server, String endpointUrl, boolean addedProvider) {
        this.server = server;
        this.endpointUrl = endpointUrl;
        this.addedProvider = addedProvider;
    }

    /**
     * @param applicationUri Milo's ApplicationUri; must be the URI in its certificate
     * @param certificate Milo's application instance certificate and key
     * @param trustedClients the client application certificates Milo trusts
     * @param x509User the only user certificate Milo accepts
     */
    static MiloSecureServer start(String applicationUri, ApplicationCertificate certificate,
            List<X509Certificate> trustedClients, X509Certificate x509User) throws Exception {
        // Milo names RSA-OAEP-SHA256 "RSA/ECB/OAEPWithSHA256AndMGF1Padding", which only BouncyCastle's
        // provider knows (the JDK spells it SHA-256); without it Milo drops every Aes256_Sha256_RsaPss
        // OpenSecureChannel with NoSuchAlgorithmException. Added last, so our stack keeps the JDK's providers.
        boolean addedProvider = Security.getProvider(BouncyCastleProvider.PROVIDER_NAME) == null
                && Security.addProvider(new BouncyCastleProvider()) > 0;
        try {
            return start(applicationUri, certificate, trustedClients, x509User, addedProvider);
        } catch (Exception | Error e) {
            if (addedProvider) {
                Security.removeProvider(BouncyCastleProvider.PROVIDER_NAME);
            }
            throw e;
        }
    }

    private static MiloSecureServer start(String applicationUri, ApplicationCertificate certificate,
            List<X509Certificate> trustedClients, X509Certificate x509User, boolean addedProvider) throws Exception {
        int port = freePort();
        EndpointConfig.Builder base = EndpointConfig.newBuilder()
                .setTransportProfile(TransportProfile.TCP_UASC_UABINARY)
                .setBindAddress("127.0.0.1")
                .setBindPort(port)
                .setHostname("127.0.0.1")
                .setPath(PATH)
                .setCertificate(certificate.certificate());
        Set<EndpointConfig> endpoints = new LinkedHashSet<>();
        endpoints.add(base.copy().setSecurityPolicy(SecurityPolicy.None).setSecurityMode(MessageSecurityMode.None)
                .addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS,
                        OpcUaServerConfig.USER_TOKEN_POLICY_USERNAME)
                .build());
        for (SecurityPolicy policy : POLICIES) {
            for (MessageSecurityMode mode : List.of(MessageSecurityMode.Sign, MessageSecurityMode.SignAndEncrypt)) {
                EndpointConfig.Builder endpoint = base.copy().setSecurityPolicy(policy).setSecurityMode(mode)
                        .addTokenPolicy(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS);
                if (policy == SecurityPolicy.Aes256_Sha256_RsaPss) {
                    endpoint.addTokenPolicies(
                            new UserTokenPolicy(USER_NAME_POLICY_PSS, UserTokenType.UserName, null, null, policy.getUri()),
                            new UserTokenPolicy(CERTIFICATE_POLICY_PSS, UserTokenType.Certificate, null, null, null));
                } else {
                    endpoint.addTokenPolicies(OpcUaServerConfig.USER_TOKEN_POLICY_USERNAME,
                            OpcUaServerConfig.USER_TOKEN_POLICY_X509);
                }
                endpoints.add(endpoint.build());
            }
        }

        MemoryTrustListManager trustList = new MemoryTrustListManager();
        trustedClients.forEach(trustList::addTrustedCertificate);
        MemoryCertificateQuarantine quarantine = new MemoryCertificateQuarantine();
        MemoryCertificateStore store = new MemoryCertificateStore();
        store.set(NodeIds.RsaSha256ApplicationCertificateType, new CertificateStore.Entry(certificate.privateKey(),
                new X509Certificate[] {certificate.certificate()}));
        DefaultApplicationGroup group = DefaultApplicationGroup.createAndInitialize(trustList, store,
                new RsaSha256CertificateFactory() {
                    @Override
                    protected X509Certificate[] createRsaSha256CertificateChain(KeyPair keyPair) {
                        throw new IllegalStateException("the test server's certificate is given, never created");
                    }
                }, new DefaultServerCertificateValidator(trustList, quarantine));

        OpcUaServerConfig config = OpcUaServerConfig.builder()
                .setApplicationUri(applicationUri)
                .setProductUri("urn:dev.opcua:test")
                .setApplicationName(LocalizedText.english("opcua-java session interop peer"))
                .setEndpoints(endpoints)
                .setCertificateManager(new DefaultCertificateManager(quarantine, group))
                .setIdentityValidator(new CompositeValidator(AnonymousIdentityValidator.INSTANCE,
                        new UsernameIdentityValidator(challenge -> USER.equals(challenge.getUsername())
                                && PASSWORD.equals(challenge.getPassword())),
                        new X509IdentityValidator(x509User::equals)))
                .build();
        OpcUaServer server = new OpcUaServer(config,
                profile -> new OpcTcpServerTransport(OpcTcpServerTransportConfig.newBuilder().build()));
        server.startup().get(20, TimeUnit.SECONDS);
        return new MiloSecureServer(server, "opc.tcp://127.0.0.1:" + port + PATH, addedProvider);
    }

    /** opc.tcp://127.0.0.1:port/milo */
    String endpointUrl() {
        return endpointUrl;
    }

    @Override
    public void close() throws ExecutionException, TimeoutException {
        try {
            server.shutdown().get(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            if (addedProvider) {
                // Later test classes in this JVM must not lean on a provider production code lacks.
                Security.removeProvider(BouncyCastleProvider.PROVIDER_NAME);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
