package dev.opcua.stack.server.testing;

import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.ApplicationCertificates;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.pki.CertificateBuilder;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Self-signed application certificates for tests, created once per (name, key size) and JVM: RSA key
 * generation costs 50..500 ms, so tests share them.
 */
public final class TestCertificates {

    private static final ConcurrentHashMap<String, ApplicationCertificate> CACHE = new ConcurrentHashMap<>();

    private TestCertificates() {
    }

    /** A self-signed 2048-bit certificate for application URI {@code urn:test:<name>}. */
    public static ApplicationCertificate get(String name) {
        return get(name, 2048);
    }

    public static ApplicationCertificate get(String name, int keyBits) {
        return CACHE.computeIfAbsent(name + "/" + keyBits, key -> create(name, keyBits));
    }

    /** A self-signed certificate of {@code type} (RSA 2048 bits, or ECC on the type's curve) for {@code urn:test:<name>}. */
    public static ApplicationCertificate get(String name, CertificateType type) {
        if (type == CertificateType.RSA_SHA256) {
            return get(name);
        }
        return CACHE.computeIfAbsent(name + "/" + type, key -> CertificateBuilder.forApplication(name).type(type)
                .applicationUri("urn:test:" + name).organization("dev.opcua tests").hostNames("localhost").build());
    }

    /** One self-signed certificate of every type for {@code urn:test:<name>}, the RSA one first. */
    public static ApplicationCertificates all(String name) {
        java.util.List<ApplicationCertificate> all = new java.util.ArrayList<>();
        for (CertificateType type : CertificateType.values()) {
            all.add(get(name, type));
        }
        return new ApplicationCertificates(all);
    }

    private static ApplicationCertificate create(String name, int keyBits) {
        return CertificateBuilder.forApplication(name).applicationUri("urn:test:" + name).organization("dev.opcua tests")
                .hostNames("localhost").keySize(keyBits).build();
    }
}
