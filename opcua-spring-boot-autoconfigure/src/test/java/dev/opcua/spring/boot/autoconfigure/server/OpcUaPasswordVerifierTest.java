package dev.opcua.spring.boot.autoconfigure.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.junit.jupiter.api.Test;

class OpcUaPasswordVerifierTest {

    private static OpcUaServerProperties.User user(String name, String password) {
        OpcUaServerProperties.User user = new OpcUaServerProperties.User();
        user.setUsername(name);
        user.setPassword(password);
        return user;
    }

    private static byte[] utf8(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void plain_noop_bcrypt_and_sha256_passwords_are_verified() {
        String bcrypt = OpenBSDBCrypt.generate("2a", utf8("b-secret"), new byte[16], 4);
        String sha256 = HexFormat.of().formatHex(OpcUaPasswordVerifier.sha256(utf8("s-secret")));
        OpcUaPasswordVerifier verifier = new OpcUaPasswordVerifier(List.of(user("plain", "p-secret"),
                user("noop", "{noop}{braces}"), user("bcrypt", "{bcrypt}" + bcrypt), user("sha", "{sha256}" + sha256)));

        assertThat(verifier.verify("plain", utf8("p-secret"))).isTrue();
        assertThat(verifier.verify("noop", utf8("{braces}"))).isTrue();
        assertThat(verifier.verify("bcrypt", utf8("b-secret"))).isTrue();
        assertThat(verifier.verify("sha", utf8("s-secret"))).isTrue();
        assertThat(verifier.verify("plain", utf8("wrong"))).isFalse();
        assertThat(verifier.verify("bcrypt", utf8("wrong"))).isFalse();
        assertThat(verifier.verify("sha", utf8("wrong"))).isFalse();
        assertThat(verifier.verify("nobody", utf8("p-secret"))).isFalse();
    }

    @Test
    void a_malformed_hash_is_refused_naming_the_users_key() {
        assertThatThrownBy(() -> new OpcUaPasswordVerifier(List.of(user("a", "x"), user("b", "{bcrypt}$2a$10$short"))))
                .isInstanceOfSatisfying(InvalidOpcUaServerPropertyException.class, e -> {
                    assertThat(e.getKey()).isEqualTo("opcua.server.identity.users[1].password");
                    assertThat(e.getValue()).isEqualTo("{bcrypt}...");
                    assertThat(e.getReason()).contains("not a bcrypt hash");
                });
    }

    @Test
    void a_repeated_user_name_is_refused() {
        assertThatThrownBy(() -> new OpcUaPasswordVerifier(List.of(user("a", "x"), user("a", "y"))))
                .isInstanceOfSatisfying(InvalidOpcUaServerPropertyException.class,
                        e -> assertThat(e.getKey()).isEqualTo("opcua.server.identity.users[1].username"));
    }
}
