package dev.opcua.stack.server.session;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Checks a user's password for {@link UserNameIdentityValidator}: the place for a hash store (bcrypt,
 * PBKDF2) or a directory. The password arrives as the bytes of the UserNameIdentityToken (Part 4,
 * 7.41.3: UTF-8 once decrypted), which the verifier must not keep.
 */
@FunctionalInterface
public interface PasswordVerifier {

    /** Whether {@code password} is the password of {@code userName}; false for an unknown user. */
    boolean verify(String userName, byte[] password);

    /**
     * Plain-text passwords from a map of user name to password, for tests and samples. The comparison
     * takes the same time wherever the bytes differ.
     */
    static PasswordVerifier plain(Map<String, String> passwords) {
        Map<String, byte[]> copy = passwords.entrySet().stream().collect(Collectors.toUnmodifiableMap(
                Map.Entry::getKey, e -> e.getValue().getBytes(StandardCharsets.UTF_8)));
        return (userName, password) -> {
            byte[] expected = copy.get(userName);
            return expected != null && password != null && MessageDigest.isEqual(expected, password);
        };
    }
}
