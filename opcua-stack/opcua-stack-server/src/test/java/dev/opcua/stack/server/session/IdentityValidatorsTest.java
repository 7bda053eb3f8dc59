package dev.opcua.stack.server.session;

import static dev.opcua.stack.server.session.SecureSessionFixture.assertStatus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.X509IdentityToken;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link X509IdentityValidator}, {@link IdentityValidator#anyOf} and certificate {@link Identity identities}. */
class IdentityValidatorsTest {

    private static final X509IdentityToken USER_TOKEN =
            new X509IdentityToken("x509", ByteString.wrap(Certificates.encode(TestKeys.USER)));
    private static final UserNameIdentityToken ALICE = new UserNameIdentityToken("username", "alice",
            ByteString.of("secret".getBytes(StandardCharsets.UTF_8)), null);

    private final IdentityValidator composed = IdentityValidator.anyOf(
            UserNameIdentityValidator.of(Map.of("alice", "secret"), false), X509IdentityValidator.anyTrusted());

    @Test
    void a_certificate_user_is_named_by_subject_and_thumbprint() {
        Identity identity = X509IdentityValidator.anyTrusted().validate(USER_TOKEN, null);

        assertThat(identity).isEqualTo(Identity.certificate("CN=alice",
                Certificates.hex(Certificates.thumbprint(TestKeys.USER))));
        assertThat(identity).isNotEqualTo(Identity.user("CN=alice"));
        assertThat(identity.isAnonymous()).isFalse();
        assertThatThrownBy(() -> new Identity(UserTokenType.Certificate, "CN=alice"))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void a_certificate_the_predicate_refuses_is_bad_user_access_denied() {
        X509IdentityValidator nobody = new X509IdentityValidator(certificate -> false);

        assertStatus(() -> nobody.validate(USER_TOKEN, null), StatusCodes.BadUserAccessDenied);
        assertStatus(() -> nobody.validate(ALICE, null), StatusCodes.BadIdentityTokenRejected);
    }

    @Test
    void any_of_asks_the_next_validator_only_when_a_token_kind_is_rejected() {
        assertThat(composed.validate(ALICE, null)).isEqualTo(Identity.user("alice"));
        assertThat(composed.validate(USER_TOKEN, null).tokenType()).isEqualTo(UserTokenType.Certificate);
        assertStatus(() -> composed.validate(new UserNameIdentityToken("username", "alice",
                ByteString.of(new byte[] {1}), null), null), StatusCodes.BadUserAccessDenied);
        assertStatus(() -> composed.validate(new AnonymousIdentityToken("anonymous"), null),
                StatusCodes.BadIdentityTokenRejected);
    }

    @Test
    void any_of_stops_at_the_first_final_refusal() {
        IdentityValidator denyAll = (token, policy) -> {
            throw new UaException(StatusCodes.BadUserAccessDenied, "denied");
        };

        assertStatus(() -> IdentityValidator.anyOf(denyAll, IdentityValidator.anonymousOnly())
                .validate(new AnonymousIdentityToken("anonymous"), null), StatusCodes.BadUserAccessDenied);
        assertThatThrownBy(IdentityValidator::anyOf).isInstanceOf(IllegalArgumentException.class);
    }
}
