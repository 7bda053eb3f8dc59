package dev.opcua.stack.client.session;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import java.util.concurrent.ConcurrentHashMap;


/**
 * Self-signed 2048-bit RSA certificates for the session and interop tests, made once per application
 * URI and JVM (a key pair costs 50..500 ms). Each names its application URI and the loopback host in
 * subjectAltName, and has the key usages of an application instance certificate (Part 6, 6.2.2), so
 * that Eclipse Milo accepts it once it is in Milo's trust list.
 */
public final class TestCertificates {

    private static final ConcurrentHashMap<String, ApplicationCertificate> CACHE = new ConcurrentHashMap<>();

    private TestCertificates() {
    }

    /** The certificate of {@code urn:dev.opcua:test:<name>}, common name {@code name}. */
    public static ApplicationCertificate get(String name) {
        return CACHE.computeIfAbsent(name, TestCertificates::create);
    }

    /** The application URI the certificate of {@code name} carries. */
    public static String applicationUri(String name) {
        return "urn:dev.opcua:test:" + name;
    }

    private static ApplicationCertificate create(String name) {
        return CertificateBuilder.forApplication(name).applicationUri(applicationUri(name))
                .organization("dev.opcua tests").hostNames("localhost", "127.0.0.1").build();
    }
}
