package dev.opcua.stack.server.session;

import dev.opcua.stack.core.security.ApplicationCertificate;
import java.security.KeyPair;
import java.security.cert.X509Certificate;

/**
 * The RSA keys and certificates of the session tests, made once per test JVM (2048-bit keys cost about
 * 100 ms each): a server, two client applications, a user, and a CA.
 */
final class TestKeys {

    static final String SERVER_URI = "urn:test:server";
    static final String CLIENT_URI = "urn:test:client";
    static final String OTHER_CLIENT_URI = "urn:test:other-client";

    private static final KeyPair[] KEYS = TestX509.rsa(2048, 5);

    static final KeyPair SERVER_KEYS = KEYS[0];
    static final KeyPair CLIENT_KEYS = KEYS[1];
    static final KeyPair OTHER_CLIENT_KEYS = KEYS[2];
    static final KeyPair USER_KEYS = KEYS[3];
    static final KeyPair CA_KEYS = KEYS[4];

    static final ApplicationCertificate SERVER = TestX509.application(SERVER_KEYS, "Test Server", SERVER_URI);
    static final X509Certificate CLIENT = TestX509.selfSigned(CLIENT_KEYS, "Test Client", CLIENT_URI);
    static final X509Certificate OTHER_CLIENT =
            TestX509.selfSigned(OTHER_CLIENT_KEYS, "Other Client", OTHER_CLIENT_URI);
    static final X509Certificate USER = TestX509.selfSigned(USER_KEYS, "alice", null);
    static final X509Certificate CA = TestX509.authority(CA_KEYS, "Test CA");

    private TestKeys() {
    }
}
