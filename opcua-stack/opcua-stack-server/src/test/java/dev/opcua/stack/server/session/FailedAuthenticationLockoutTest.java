package dev.opcua.stack.server.session;

import static dev.opcua.stack.server.session.SecureSessionFixture.DISCOVERY;
import static dev.opcua.stack.server.session.SecureSessionFixture.SIGN_AND_ENCRYPT;
import static dev.opcua.stack.server.session.SecureSessionFixture.activateRequest;
import static dev.opcua.stack.server.session.SecureSessionFixture.assertStatus;
import static dev.opcua.stack.server.session.SecureSessionFixture.create;
import static dev.opcua.stack.server.session.SecureSessionFixture.nonce;
import static dev.opcua.stack.server.session.TestKeys.SERVER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import java.security.KeyPair;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The lock-out after repeated failed authentications, per client application certificate on secure
 * channels ({@link SessionSettings#maxFailedAuthenticationAttempts()}), with an injected clock.
 */
class FailedAuthenticationLockoutTest {

    private static final SecurityPolicy POLICY = SecurityPolicy.Basic256Sha256;
    private static final Duration LOCKOUT = Duration.ofSeconds(60);

    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private SessionManager manager = manager(3);

    @AfterEach
    void close() {
        manager.close();
    }

    private SessionManager manager(int maxAttempts) {
        return SessionManager.builder()
                .settings(new SessionSettings(100, Duration.ofSeconds(10), Duration.ofHours(1), maxAttempts, LOCKOUT))
                .identityValidator(UserNameIdentityValidator.of(Map.of("alice", "secret"), true))
                .discoveryEndpoints(() -> DISCOVERY)
                .applicationCertificate(SERVER)
                .nanoClock(clock::get)
                .build();
    }

    /** A session of the client with these keys and certificate, and a way to log in to it. */
    private final class Client {
        final TestChannel channel;
        final KeyPair keys;
        final CreateSessionResponse session;

        Client(long channelId, KeyPair keys, X509Certificate certificate, String applicationUri) {
            this.channel = new TestChannel(channelId, SIGN_AND_ENCRYPT, certificate);
            this.keys = keys;
            this.session = manager.createSession(channel, create(certificate, applicationUri, nonce(32)));
        }

        void login(String password) {
            ByteString serverNonce = session.serverNonce(); // unchanged until an activation succeeds
            UserNameIdentityToken token = new UserNameIdentityToken("username_basic256sha256", "alice",
                    TestClientCrypto.encryptedPassword(POLICY, SERVER.certificate(), password, serverNonce),
                    POLICY.asymmetricEncryptionUri());
            manager.activateSession(channel, activateRequest(session.authenticationToken(),
                    TestClientCrypto.sign(POLICY, keys.getPrivate(), SERVER.der(), serverNonce), token, null));
        }
    }

    private Client client() {
        return new Client(7, TestKeys.CLIENT_KEYS, TestKeys.CLIENT, TestKeys.CLIENT_URI);
    }

    private Client otherClient() {
        return new Client(8, TestKeys.OTHER_CLIENT_KEYS, TestKeys.OTHER_CLIENT, TestKeys.OTHER_CLIENT_URI);
    }

    private void advance(Duration duration) {
        clock.addAndGet(duration.toNanos());
    }

    @Test
    void the_failure_that_reaches_the_limit_locks_the_client_out_even_with_the_right_password() {
        Client client = client();
        for (int i = 0; i < 3; i++) {
            assertStatus(() -> client.login("wrong"), StatusCodes.BadUserAccessDenied);
        }

        assertStatus(() -> client.login("secret"), StatusCodes.BadUserAccessDenied);

        assertThat(manager.counters().failedAuthentications()).isEqualTo(3);
        assertThat(manager.counters().sessionsLockedOut()).isEqualTo(1);
        assertThat(manager.currentSessions()).as("the session stays open").isEqualTo(1);
    }

    @Test
    void the_lock_out_covers_new_sessions_of_the_same_certificate_but_not_other_clients() {
        Client client = client();
        for (int i = 0; i < 3; i++) {
            assertStatus(() -> client.login("wrong"), StatusCodes.BadUserAccessDenied);
        }

        assertStatus(() -> client().login("secret"), StatusCodes.BadUserAccessDenied);
        otherClient().login("secret");
    }

    @Test
    void the_lock_out_ends_after_its_duration() {
        Client client = client();
        for (int i = 0; i < 3; i++) {
            assertStatus(() -> client.login("wrong"), StatusCodes.BadUserAccessDenied);
        }
        advance(LOCKOUT.minusSeconds(1));
        assertStatus(() -> client.login("secret"), StatusCodes.BadUserAccessDenied);

        advance(Duration.ofSeconds(1));
        client.login("secret");

        assertThat(manager.resolve(client.channel, SecureSessionFixture.header(client.session.authenticationToken()))
                .identity()).isEqualTo(Identity.user("alice"));
    }

    @Test
    void a_successful_login_resets_the_count() {
        Client first = client();
        assertStatus(() -> first.login("wrong"), StatusCodes.BadUserAccessDenied);
        assertStatus(() -> first.login("wrong"), StatusCodes.BadUserAccessDenied);
        first.login("secret");
        Client second = client();

        assertStatus(() -> second.login("wrong"), StatusCodes.BadUserAccessDenied);
        assertStatus(() -> second.login("wrong"), StatusCodes.BadUserAccessDenied);
        second.login("secret");

        assertThat(manager.counters().sessionsLockedOut()).isZero();
    }

    @Test
    void failures_older_than_the_lock_out_duration_are_forgotten() {
        Client client = client();
        assertStatus(() -> client.login("wrong"), StatusCodes.BadUserAccessDenied);
        assertStatus(() -> client.login("wrong"), StatusCodes.BadUserAccessDenied);
        advance(LOCKOUT);

        assertStatus(() -> client.login("wrong"), StatusCodes.BadUserAccessDenied);
        client.login("secret");
    }

    @Test
    void zero_attempts_disables_the_lock_out() {
        manager.close();
        manager = manager(0);
        Client client = client();
        for (int i = 0; i < 10; i++) {
            assertStatus(() -> client.login("wrong"), StatusCodes.BadUserAccessDenied);
        }

        client.login("secret");

        assertThat(manager.counters().failedAuthentications()).isEqualTo(10);
        assertThat(manager.counters().sessionsLockedOut()).isZero();
    }

    @Test
    void the_lockout_table_is_bounded_and_drops_stale_clients_first() {
        ClientLockout lockout = new ClientLockout(2, LOCKOUT);
        long now = 0;
        for (int i = 0; i < ClientLockout.MAX_CLIENTS; i++) {
            lockout.failed(ByteString.wrap(new byte[] {(byte) i, (byte) (i >> 8), 1}), now);
        }
        assertThat(lockout.failed(ByteString.wrap(new byte[] {9, 9, 9, 9}), now)).isFalse();
        assertThat(lockout.size()).isEqualTo(ClientLockout.MAX_CLIENTS);

        now += TimeUnit.SECONDS.toNanos(LOCKOUT.toSeconds());
        ByteString fresh = ByteString.wrap(new byte[] {9, 9, 9, 9});
        lockout.failed(fresh, now);
        assertThat(lockout.failed(fresh, now)).as("the second failure locks out").isTrue();
        assertThat(lockout.size()).isEqualTo(1);
        assertThat(lockout.remainingNanos(fresh, now)).isEqualTo(LOCKOUT.toNanos());
        assertThat(lockout.remainingNanos(fresh, now + LOCKOUT.toNanos())).isZero();
        assertThat(lockout.size()).isZero();
    }
}
