package dev.opcua.stack.core.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.opcua.stack.core.security.pki.CertificateLoader;

/**
 * {@link CertificateLoader} reading certificates, CRLs and private keys from any bytes (DER or PEM, by
 * content), and PKCS#12 or JKS key stores (the type detected from the content) from any bytes. The only
 * acceptable refusal is the documented {@link IllegalArgumentException} naming the source.
 */
class CertificateLoaderFuzzTest {

    private static final String SOURCE = "fuzz-input";

    @FuzzTest(maxDuration = "5m")
    void readCertificates(byte[] data) {
        try {
            CertificateLoader.readCertificates(data, SOURCE);
        } catch (IllegalArgumentException refused) {
            // documented
        }
        try {
            CertificateLoader.readCrls(data, SOURCE);
        } catch (IllegalArgumentException refused) {
            // documented
        }
    }

    @FuzzTest(maxDuration = "5m")
    void readPrivateKey(byte[] data) {
        try {
            CertificateLoader.readPrivateKey(data, SOURCE, "password".toCharArray());
        } catch (IllegalArgumentException refused) {
            // documented
        }
        try {
            CertificateLoader.readPrivateKey(data, SOURCE, null);
        } catch (IllegalArgumentException refused) {
            // documented
        }
    }

    @FuzzTest(maxDuration = "5m")
    void loadKeyStore(byte[] data) {
        try {
            CertificateLoader.loadKeyStore(data, SOURCE, "password".toCharArray(), null, null);
        } catch (IllegalArgumentException refused) {
            // documented
        }
    }
}
