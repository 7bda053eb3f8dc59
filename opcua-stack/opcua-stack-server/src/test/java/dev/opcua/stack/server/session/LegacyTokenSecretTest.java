package dev.opcua.stack.server.session;

import static dev.opcua.stack.server.session.SecureSessionFixture.assertStatus;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The decrypted legacy token secret (Part 4, 7.41.2.2): length, token data, server nonce, zero padding. */
class LegacyTokenSecretTest {

    private static final ByteString NONCE = SecureSessionFixture.nonce(32);

    private static byte[] secret(String password, byte... padding) {
        return TestClientCrypto.legacySecret(password, NONCE, padding);
    }

    @Test
    void the_token_data_is_what_lies_between_the_length_and_the_nonce() {
        assertThat(LegacyTokenSecret.tokenData(secret("pässword"), NONCE.unsafeBytes()))
                .isEqualTo("pässword".getBytes(StandardCharsets.UTF_8));
        assertThat(LegacyTokenSecret.tokenData(secret(""), NONCE.unsafeBytes())).isEmpty();
    }

    @Test
    void zero_padding_is_ignored_and_any_other_padding_refused() {
        assertThat(LegacyTokenSecret.tokenData(secret("pw", new byte[5]), NONCE.unsafeBytes())).hasSize(2);
        assertStatus(() -> LegacyTokenSecret.tokenData(secret("pw", (byte) 0, (byte) 7), NONCE.unsafeBytes()),
                StatusCodes.BadIdentityTokenInvalid);
    }

    @Test
    void a_length_beyond_the_data_or_shorter_than_the_nonce_is_refused() {
        byte[] tooLong = secret("pw");
        tooLong[0] += 1;
        byte[] tooShort = secret("pw");
        tooShort[0] = 31;
        byte[] huge = secret("pw");
        huge[3] = (byte) 0xFF;

        for (byte[] plain : new byte[][] {tooLong, tooShort, huge, new byte[3]}) {
            assertStatus(() -> LegacyTokenSecret.tokenData(plain, NONCE.unsafeBytes()), StatusCodes.BadIdentityTokenInvalid);
        }
    }

    @Test
    void a_secret_ending_with_another_nonce_is_refused() {
        byte[] plain = secret("pw");
        plain[plain.length - 1] ^= 1;

        assertStatus(() -> LegacyTokenSecret.tokenData(plain, NONCE.unsafeBytes()), StatusCodes.BadIdentityTokenInvalid);
    }
}
