package dev.opcua.stack.core.security.pki;

import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * RSA key pairs shared by the tests of this package: generating a 2048-bit key costs 0.1 to 1 s, so each
 * named key is generated once per JVM, on first use (test classes ask for theirs in {@code @BeforeAll}),
 * and the common ones all at once on the available cores.
 */
final class TestKeys {

    private static final List<String> COMMON = List.of("root", "intermediate", "leaf-a");
    private static final Map<String, CompletableFuture<KeyPair>> KEYS = new ConcurrentHashMap<>();

    private TestKeys() {
    }

    /** A 2048-bit key pair, the same for the same name. */
    static KeyPair rsa(String name) {
        if (COMMON.contains(name)) {
            for (String common : COMMON) {
                KEYS.computeIfAbsent(common, n -> CompletableFuture.supplyAsync(TestKeys::generate2048));
            }
        }
        return KEYS.computeIfAbsent(name, n -> CompletableFuture.completedFuture(generate2048())).join();
    }

    private static KeyPair generate2048() {
        return CertificateBuilder.generateKeyPair(2048);
    }

    /** A 1024-bit key pair (below the policy minimum), the same for the same name. */
    static KeyPair rsa1024(String name) {
        return KEYS.computeIfAbsent(name + "/1024",
                n -> CompletableFuture.completedFuture(CertificateBuilder.generateKeyPair(1024))).join();
    }
}
