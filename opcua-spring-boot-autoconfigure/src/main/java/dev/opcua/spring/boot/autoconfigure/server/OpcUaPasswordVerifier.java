package dev.opcua.spring.boot.autoconfigure.server;

import dev.opcua.stack.server.session.PasswordVerifier;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * The passwords of {@code opcua.server.identity.users}, for the stack's user name validator. A
 * password is stored as written ({@code {noop}} or no prefix: plain text), or as a hash with its
 * encoding in front, the form Spring Security's delegating encoder writes: {@code {bcrypt}$2a$10$...}
 * (checked with BouncyCastle's OpenBSD bcrypt) or {@code {sha256}} with the hex SHA-256 of the UTF-8
 * password. Comparisons of plain and SHA-256 passwords take the same time wherever the bytes differ.
 */
final class OpcUaPasswordVerifier implements PasswordVerifier {

    static final String ENCODINGS = "plain text, {noop}<plain text>, {bcrypt}<$2a$/$2b$/$2y$ bcrypt hash>,"
            + " {sha256}<64 hex digits of the SHA-256 of the UTF-8 password>";

    private static final Pattern BCRYPT = Pattern.compile("\\$2[aby]\\$\\d\\d\\$[./A-Za-z0-9]{53}");
    private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");
    private static final Pattern PREFIX = Pattern.compile("\\{([^}]*)}(.*)", Pattern.DOTALL);

    private sealed interface Check permits Plain, BCrypt, Sha256 {
        boolean matches(byte[] password);
    }

    private record Plain(byte[] expected) implements Check {
        public boolean matches(byte[] password) {
            return MessageDigest.isEqual(expected, password);
        }
    }

    private record BCrypt(String hash) implements Check {
        public boolean matches(byte[] password) {
            return OpenBSDBCrypt.checkPassword(hash, password);
        }
    }

    private record Sha256(byte[] digest) implements Check {
        public boolean matches(byte[] password) {
            return MessageDigest.isEqual(digest, sha256(password));
        }
    }

    private final Map<String, Check> checks;

    /**
     * @throws InvalidOpcUaServerPropertyException for a user without name or password, a repeated
     *         name, an unknown encoding or a malformed hash
     */
    OpcUaPasswordVerifier(List<OpcUaServerProperties.User> users) {
        Map<String, Check> map = new LinkedHashMap<>();
        for (int i = 0; i < users.size(); i++) {
            OpcUaServerProperties.User user = users.get(i);
            String key = OpcUaServerPropertiesMapper.key("identity.users[" + i + "]");
            String name = user.getUsername();
            if (name == null || name.isBlank()) {
                throw new InvalidOpcUaServerPropertyException(key + ".username", name, "a user needs a name",
                        "a non-empty user name");
            }
            if (map.containsKey(name)) {
                throw new InvalidOpcUaServerPropertyException(key + ".username", name,
                        "the user name is listed twice", "a user name that no other entry has");
            }
            map.put(name, check(key + ".password", user.getPassword()));
        }
        this.checks = Map.copyOf(map);
    }

    private static Check check(String key, String password) {
        if (password == null || password.isEmpty()) {
            throw new InvalidOpcUaServerPropertyException(key, null, "a user needs a password", ENCODINGS);
        }
        var prefixed = PREFIX.matcher(password);
        if (!prefixed.matches()) {
            return new Plain(password.getBytes(StandardCharsets.UTF_8));
        }
        String encoding = prefixed.group(1);
        String value = prefixed.group(2);
        // the value itself is never repeated in a message: it is a password or a password's hash
        switch (encoding) {
            case "noop":
                return new Plain(value.getBytes(StandardCharsets.UTF_8));
            case "bcrypt":
                if (!BCRYPT.matcher(value).matches()) {
                    throw new InvalidOpcUaServerPropertyException(key, "{bcrypt}...",
                            "not a bcrypt hash ($2a$, $2b$ or $2y$, two-digit cost, 53 characters of salt and hash)",
                            ENCODINGS);
                }
                return new BCrypt(value);
            case "sha256":
                if (!SHA256.matcher(value).matches()) {
                    throw new InvalidOpcUaServerPropertyException(key, "{sha256}...",
                            "not 64 hexadecimal digits of a SHA-256 digest", ENCODINGS);
                }
                return new Sha256(HexFormat.of().parseHex(value));
            default:
                throw new InvalidOpcUaServerPropertyException(key, "{" + encoding + "}...",
                        "unknown password encoding {" + encoding + "}", ENCODINGS);
        }
    }

    @Override
    public boolean verify(String userName, byte[] password) {
        Check check = checks.get(userName);
        return check != null && password != null && check.matches(password);
    }

    static byte[] sha256(byte[] value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
