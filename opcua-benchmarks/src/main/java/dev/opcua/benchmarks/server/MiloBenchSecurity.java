package dev.opcua.benchmarks.server;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.TrustList;
import java.security.KeyPair;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Set;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.eclipse.milo.opcua.sdk.server.EndpointConfig;
import org.eclipse.milo.opcua.sdk.server.OpcUaServerConfig;
import org.eclipse.milo.opcua.stack.core.NodeIds;
import org.eclipse.milo.opcua.stack.core.security.CertificateManager;
import org.eclipse.milo.opcua.stack.core.security.CertificateStore;
import org.eclipse.milo.opcua.stack.core.security.CertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.DefaultApplicationGroup;
import org.eclipse.milo.opcua.stack.core.security.DefaultCertificateManager;
import org.eclipse.milo.opcua.stack.core.security.DefaultServerCertificateValidator;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateQuarantine;
import org.eclipse.milo.opcua.stack.core.security.MemoryCertificateStore;
import org.eclipse.milo.opcua.stack.core.security.MemoryTrustListManager;
import org.eclipse.milo.opcua.stack.core.security.RsaSha256CertificateFactory;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The security of {@link MiloBenchServer} with {@code --pki DIR}: Milo's application instance
 * certificate (Part 4, 6.1.2) from our {@link PkiDirectory} ({@code own/}, created on first start),
 * an endpoint (Part 4, 7.14) for each policy Milo implements in Sign and SignAndEncrypt with anonymous
 * users, and the decision on client certificates (Part 4, 6.1.3): Milo's own validator over the
 * trust list the PKI's {@code trusted/} and {@code issuers/} hold at start, or, with
 * {@code --trust-all-clients}, none at all. Milo's types stay in this class and {@link MiloBenchServer}.
 */
final class MiloBenchSecurity {

    private static final Logger LOG = LoggerFactory.getLogger(MiloBenchSecurity.class);

    private final X509Certificate certificate;
    private final CertificateManager certificateManager;

    private MiloBenchSecurity(X509Certificate certificate, CertificateManager certificateManager) {
        this.certificate = certificate;
        this.certificateManager = certificateManager;
    }

    /**
     * Loads or creates the certificate for {@code applicationUri} and host {@code options.host()} and
     * sets up Milo's certificate manager.
     *
     * @throws IllegalStateException when Milo's certificate group cannot be set up
     */
    static MiloBenchSecurity create(BenchOptions options, String applicationUri, String applicationName) {
        registerBouncyCastle();
        PkiDirectory pki = new PkiDirectory(options.pki());
        ApplicationCertificate own = pki.loadOrCreateApplicationCertificate(applicationUri, applicationName,
                List.of(options.host()), CertificateBuilder.DEFAULT_KEY_SIZE, CertificateBuilder.DEFAULT_VALIDITY);
        X509Certificate[] chain = new X509Certificate[own.issuers().size() + 1];
        chain[0] = own.certificate();
        for (int i = 0; i < own.issuers().size(); i++) {
            chain[i + 1] = own.issuers().get(i);
        }
        MemoryTrustListManager trustList = new MemoryTrustListManager();
        MemoryCertificateQuarantine quarantine = new MemoryCertificateQuarantine();
        CertificateValidator clientValidator;
        if (options.trustAllClients()) {
            LOG.warn("--trust-all-clients: Milo accepts every client certificate without a trust list; "
                    + "for benchmarks only, never for a plant");
            clientValidator = (clientChain, clientUri, hostNames) -> {
                // benchmarking only: any client may connect
            };
        } else {
            TrustList trusted = pki.trustList();
            trustList.setTrustedCertificates(trusted.trustedCertificates());
            trustList.setIssuerCertificates(trusted.issuerCertificates());
            trustList.setTrustedCrls(trusted.trustedCrls());
            trustList.setIssuerCrls(trusted.issuerCrls());
            LOG.info("Milo trusts the client certificates of {} as read at start ({}); restart to pick up changes",
                    pki.root(), trusted);
            clientValidator = new DefaultServerCertificateValidator(trustList, quarantine);
        }
        MemoryCertificateStore store = new MemoryCertificateStore();
        try {
            store.set(NodeIds.RsaSha256ApplicationCertificateType, new CertificateStore.Entry(own.privateKey(), chain));
            DefaultApplicationGroup group = DefaultApplicationGroup.createAndInitialize(trustList, store,
                    new RsaSha256CertificateFactory() {
                        @Override
                        protected X509Certificate[] createRsaSha256CertificateChain(KeyPair keyPair) {
                            throw new IllegalStateException("the certificate comes from " + pki.root()
                                    + "; Milo never creates one");
                        }
                    }, clientValidator);
            return new MiloBenchSecurity(own.certificate(), new DefaultCertificateManager(quarantine, group));
        } catch (Exception e) {
            throw new IllegalStateException("cannot set up Milo's certificate group with " + own, e);
        }
    }

    /**
     * Milo names RSA-OAEP with SHA-256 "RSA/ECB/OAEPWithSHA256AndMGF1Padding", which only BouncyCastle's
     * provider knows; without it Milo drops every Aes256_Sha256_RsaPss OpenSecureChannel. It goes last, so
     * every algorithm the JDK knows is still the JDK's, and stays for the JVM's lifetime.
     */
    private static synchronized void registerBouncyCastle() {
        if (Security.getProvider(BouncyCastleProvider.PROVIDER_NAME) == null) {
            Security.addProvider(new BouncyCastleProvider());
        }
    }

    /** The endpoints besides None: every policy Milo implements, Sign and SignAndEncrypt, anonymous users. */
    void addSecuredEndpoints(EndpointConfig.Builder base, Set<EndpointConfig> endpoints) {
        for (SecurityPolicy policy : SecurityPolicy.values()) {
            if (policy == SecurityPolicy.None) {
                continue;
            }
            for (MessageSecurityMode mode : List.of(MessageSecurityMode.Sign, MessageSecurityMode.SignAndEncrypt)) {
                endpoints.add(base.copy().setSecurityPolicy(policy).setSecurityMode(mode)
                        .addTokenPolicy(OpcUaServerConfig.USER_TOKEN_POLICY_ANONYMOUS).build());
            }
        }
    }

    /** The application instance certificate every endpoint announces. */
    X509Certificate certificate() {
        return certificate;
    }

    CertificateManager certificateManager() {
        return certificateManager;
    }
}
