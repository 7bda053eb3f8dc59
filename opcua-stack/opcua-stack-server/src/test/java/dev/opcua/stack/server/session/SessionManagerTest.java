package dev.opcua.stack.server.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.CancelRequest;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.IssuedIdentityToken;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.core.types.structured.X509IdentityToken;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The Session Service Set's rules and status codes (Part 4, 5.6), called directly. */
class SessionManagerTest {

    /** How long the session timer may take to act, and how often the test looks. */
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(10);

    static final String URL = "opc.tcp://localhost:4840/";
    static final UserTokenPolicy USERNAME = new UserTokenPolicy("username", UserTokenType.UserName, null, null, null);

    private final TestChannel channel = new TestChannel(7);
    private final TestChannel otherChannel = new TestChannel(8);
    private final DiscoveryServices discovery = DiscoveryServices.builder()
            .application("urn:test", "urn:test:product", "test")
            .endpointUrls(List.of(URL))
            .userTokenPolicies(List.of(DiscoveryServices.ANONYMOUS, USERNAME))
            .build();
    private SessionManager manager = manager(SessionSettings.DEFAULT);

    @AfterEach
    void close() {
        manager.close();
    }

    private SessionManager manager(SessionSettings settings) {
        return SessionManager.builder()
                .settings(settings)
                .identityValidator(UserNameIdentityValidator.of(Map.of("alice", "secret"), true))
                .discoveryEndpoints(() -> discovery)
                .maxRequestMessageSize(2 * 1024 * 1024)
                .build();
    }

    private static RequestHeader header(NodeId token) {
        return new RequestHeader(token, null, 42, 0, null, 0, ExtensionObject.NULL);
    }

    static CreateSessionRequest create(double timeout) {
        return new CreateSessionRequest(header(NodeId.NULL), null, null, URL, "s", ByteString.NULL, ByteString.NULL,
                timeout, 0);
    }

    private static ActivateSessionRequest activate(NodeId token, ExtensionObject identity) {
        return new ActivateSessionRequest(header(token), null, null, null, identity, null);
    }

    private static ExtensionObject anonymous() {
        return ExtensionObject.of(new AnonymousIdentityToken("anonymous"));
    }

    private static ExtensionObject user(String name, String password) {
        return ExtensionObject.of(new UserNameIdentityToken("username", name,
                ByteString.of(password.getBytes(StandardCharsets.UTF_8)), null));
    }

    private NodeId createdToken() {
        return manager.createSession(channel, create(60_000)).authenticationToken();
    }

    private NodeId activatedToken() {
        NodeId token = createdToken();
        manager.activateSession(channel, activate(token, anonymous()));
        return token;
    }

    private static void assertStatus(Runnable call, int status) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(UaException.class,
                e -> assertThat(e.statusCode().value()).as(StatusCodes.name(status)).isEqualTo(status));
    }

    @Test
    void create_session_assigns_a_guid_session_id_and_an_unguessable_token() {
        CreateSessionResponse a = manager.createSession(channel, create(60_000));
        CreateSessionResponse b = manager.createSession(channel, create(60_000));

        assertThat(a.responseHeader().requestHandle()).isEqualTo(42);
        assertThat(a.sessionId().namespaceIndex()).isEqualTo(1);
        assertThat(a.sessionId()).isNotEqualTo(b.sessionId());
        assertThat(a.authenticationToken().toString()).isNotEqualTo(b.authenticationToken().toString());
        assertThat(a.authenticationToken()).isNotEqualTo(b.authenticationToken());
        assertThat(a.serverNonce().length()).isEqualTo(32);
        assertThat(a.serverNonce()).isNotEqualTo(b.serverNonce());
        assertThat(a.serverCertificate().isNull()).isTrue();
        assertThat(a.serverSoftwareCertificates()).isEmpty();
        assertThat(a.serverSignature().algorithm()).isNull();
        assertThat(a.maxRequestMessageSize()).isEqualTo(2 * 1024 * 1024);
        assertThat(a.serverEndpoints()).containsExactlyElementsOf(discovery.endpoints());
        assertThat(manager.currentSessions()).isEqualTo(2);
        assertThat(manager.counters().sessionsCreated()).isEqualTo(2);
    }

    @Test
    void sessions_created_with_equal_endpoints_share_one_list_and_a_different_list_is_kept_apart() {
        List<EndpointDescription> first = discovery.endpoints();
        List<EndpointDescription> other = List.of(first.get(0), first.get(0));
        String[] answer = {"first"};
        // each call builds new, equal descriptions, as GetEndpoints does when it puts the client's host name in
        manager.close();
        manager = SessionManager.builder()
                .identityValidator(UserNameIdentityValidator.of(Map.of("alice", "secret"), true))
                .endpoints(url -> answer[0].equals("first") ? copies(first) : copies(other))
                .build();

        Session a = session(manager.createSession(channel, create(60_000)));
        Session b = session(manager.createSession(channel, create(60_000)));
        answer[0] = "other";
        CreateSessionResponse created = manager.createSession(channel, create(60_000));
        Session c = session(created);

        assertThat(a.endpoints()).isEqualTo(first).isSameAs(b.endpoints());
        assertThat(c.endpoints()).isEqualTo(other).isNotSameAs(a.endpoints());
        assertThat(created.serverEndpoints()).containsExactlyElementsOf(other);
    }

    private Session session(CreateSessionResponse created) {
        manager.activateSession(channel, activate(created.authenticationToken(), anonymous()));
        return manager.resolve(channel, header(created.authenticationToken()));
    }

    private static List<EndpointDescription> copies(List<EndpointDescription> endpoints) {
        return endpoints.stream().map(e -> new EndpointDescription(e.endpointUrl(), e.server(), e.serverCertificate(),
                e.securityMode(), e.securityPolicyUri(), e.userIdentityTokens(), e.transportProfileUri(),
                e.securityLevel())).toList();
    }

    @Test
    void the_authentication_token_is_an_opaque_node_id_of_32_bytes() {
        NodeId token = createdToken();

        assertThat(token.toString()).startsWith("b=");
        assertThat(token.identifier()).isInstanceOfSatisfying(ByteString.class, b -> assertThat(b.length()).isEqualTo(32));
    }

    @Test
    void the_session_timeout_is_clamped_to_the_configured_range_and_zero_gets_the_maximum() {
        assertThat(manager.createSession(channel, create(1)).revisedSessionTimeout()).isEqualTo(10_000);
        assertThat(manager.createSession(channel, create(120_000)).revisedSessionTimeout()).isEqualTo(120_000);
        assertThat(manager.createSession(channel, create(1e12)).revisedSessionTimeout()).isEqualTo(3_600_000);
        assertThat(manager.createSession(channel, create(0)).revisedSessionTimeout()).isEqualTo(3_600_000);
        assertThat(manager.createSession(channel, create(Double.NaN)).revisedSessionTimeout()).isEqualTo(3_600_000);
    }

    @Test
    void create_session_beyond_max_sessions_is_refused_with_bad_too_many_sessions() {
        manager.close();
        manager = manager(new SessionSettings(2, Duration.ofSeconds(10), Duration.ofHours(1), 5));
        createdToken();
        NodeId second = createdToken();

        assertStatus(() -> createdToken(), StatusCodes.BadTooManySessions);
        assertThat(manager.counters().sessionsRejected()).isEqualTo(1);

        manager.closeSession(channel, new CloseSessionRequest(header(second), true));
        assertThat(createdToken()).isNotNull();
    }

    @Test
    void anonymous_activation_returns_a_new_nonce_and_empty_results() {
        CreateSessionResponse created = manager.createSession(channel, create(60_000));

        ActivateSessionResponse response = manager.activateSession(channel,
                activate(created.authenticationToken(), anonymous()));

        assertThat(response.responseHeader().requestHandle()).isEqualTo(42);
        assertThat(response.serverNonce().length()).isEqualTo(32);
        assertThat(response.serverNonce()).isNotEqualTo(created.serverNonce());
        assertThat(response.results()).isEmpty();
        assertThat(response.diagnosticInfos()).isEmpty();
        Session session = manager.resolve(channel, header(created.authenticationToken()));
        assertThat(session.identity()).isEqualTo(Identity.ANONYMOUS);
        assertThat(session.sessionId()).isEqualTo(created.sessionId());
    }

    @Test
    void a_null_identity_token_means_anonymous() {
        NodeId token = createdToken();

        manager.activateSession(channel, activate(token, ExtensionObject.NULL));

        assertThat(manager.resolve(channel, header(token)).identity().isAnonymous()).isTrue();
    }

    @Test
    void a_user_with_the_right_password_is_activated() {
        NodeId token = createdToken();

        manager.activateSession(channel, activate(token, user("alice", "secret")));

        assertThat(manager.resolve(channel, header(token)).identity()).isEqualTo(Identity.user("alice"));
    }

    @Test
    void a_wrong_password_or_unknown_user_is_bad_user_access_denied_and_counted() {
        NodeId token = createdToken();

        assertStatus(() -> manager.activateSession(channel, activate(token, user("alice", "wrong"))),
                StatusCodes.BadUserAccessDenied);
        assertStatus(() -> manager.activateSession(channel, activate(token, user("bob", "secret"))),
                StatusCodes.BadUserAccessDenied);

        assertThat(manager.counters().failedAuthentications()).isEqualTo(2);
        assertStatus(() -> manager.resolve(channel, header(token)), StatusCodes.BadSessionNotActivated);
    }

    @Test
    void the_session_closes_when_it_reaches_max_failed_authentication_attempts() {
        manager.close();
        manager = manager(new SessionSettings(10, Duration.ofSeconds(10), Duration.ofHours(1), 2));
        NodeId token = createdToken();
        assertStatus(() -> manager.activateSession(channel, activate(token, user("alice", "x"))),
                StatusCodes.BadUserAccessDenied);
        assertStatus(() -> manager.activateSession(channel, activate(token, user("alice", "y"))),
                StatusCodes.BadUserAccessDenied);

        assertStatus(() -> manager.activateSession(channel, activate(token, user("alice", "secret"))),
                StatusCodes.BadSessionIdInvalid);
        assertThat(manager.counters().sessionsLockedOut()).isEqualTo(1);
        assertThat(manager.currentSessions()).isZero();
    }

    @Test
    void an_encrypted_password_under_a_plain_text_policy_is_bad_identity_token_invalid() {
        NodeId token = createdToken();
        ExtensionObject encrypted = ExtensionObject.of(new UserNameIdentityToken("username", "alice",
                ByteString.of("secret".getBytes(StandardCharsets.UTF_8)),
                "http://www.w3.org/2001/04/xmlenc#rsa-oaep"));

        assertStatus(() -> manager.activateSession(channel, activate(token, encrypted)),
                StatusCodes.BadIdentityTokenInvalid);
    }

    @Test
    void a_policy_id_the_endpoint_does_not_offer_is_bad_identity_token_invalid() {
        NodeId token = createdToken();
        ExtensionObject unknownPolicy = ExtensionObject.of(new UserNameIdentityToken("other", "alice",
                ByteString.of("secret".getBytes(StandardCharsets.UTF_8)), null));
        ExtensionObject anonymousUnderUserPolicy = ExtensionObject.of(new AnonymousIdentityToken("username"));

        assertStatus(() -> manager.activateSession(channel, activate(token, unknownPolicy)),
                StatusCodes.BadIdentityTokenInvalid);
        assertStatus(() -> manager.activateSession(channel, activate(token, anonymousUnderUserPolicy)),
                StatusCodes.BadIdentityTokenInvalid);
    }

    @Test
    void issued_tokens_and_tokens_of_policies_the_endpoint_lacks_are_bad_identity_token_invalid() {
        NodeId token = createdToken();
        ExtensionObject issued = ExtensionObject.of(new IssuedIdentityToken("jwt", ByteString.of(new byte[] {1}), null));
        ExtensionObject x509 = ExtensionObject.of(new X509IdentityToken("x509", ByteString.of(new byte[] {1})));

        assertStatus(() -> manager.activateSession(channel, activate(token, issued)), StatusCodes.BadIdentityTokenInvalid);
        assertStatus(() -> manager.activateSession(channel, activate(token, x509)), StatusCodes.BadIdentityTokenInvalid);
        assertThat(manager.counters().failedAuthentications()).isZero();
    }

    @Test
    void without_lock_out_failures_are_counted_but_the_session_stays_open() {
        manager.close();
        manager = manager(new SessionSettings(10, Duration.ofSeconds(10), Duration.ofHours(1), 0));
        NodeId token = createdToken();
        for (int i = 0; i < 10; i++) {
            assertStatus(() -> manager.activateSession(channel, activate(token, user("alice", "x"))),
                    StatusCodes.BadUserAccessDenied);
        }

        manager.activateSession(channel, activate(token, user("alice", "secret")));

        assertThat(manager.counters().failedAuthentications()).isEqualTo(10);
        assertThat(manager.counters().sessionsLockedOut()).isZero();
    }

    @Test
    void the_none_channel_behaviour_is_unchanged_when_the_server_has_a_certificate() {
        manager.close();
        manager = SessionManager.builder()
                .identityValidator(UserNameIdentityValidator.of(Map.of("alice", "secret"), true))
                .discoveryEndpoints(() -> discovery)
                .applicationCertificate(TestKeys.SERVER)
                .build();

        CreateSessionResponse created = manager.createSession(channel, create(60_000));
        manager.activateSession(channel, activate(created.authenticationToken(), user("alice", "secret")));

        assertThat(created.serverSignature().algorithm()).isNull();
        assertThat(created.serverSignature().signature().isNull()).isTrue();
        assertThat(created.serverCertificate()).isEqualTo(TestKeys.SERVER.der());
        assertThat(manager.resolve(channel, header(created.authenticationToken())).clientCertificate()).isNull();
    }

    @Test
    void anonymous_users_are_refused_when_the_validator_says_so() {
        manager.close();
        manager = SessionManager.builder()
                .identityValidator(UserNameIdentityValidator.of(Map.of("alice", "secret"), false))
                .discoveryEndpoints(() -> discovery)
                .build();
        NodeId token = createdToken();

        assertStatus(() -> manager.activateSession(channel, activate(token, anonymous())),
                StatusCodes.BadIdentityTokenRejected);
        assertThat(manager.counters().failedAuthentications()).isEqualTo(1);
    }

    @Test
    void an_unknown_token_is_bad_session_id_invalid() {
        NodeId forged = NodeId.opaque(0, ByteString.of(new byte[32]));

        assertStatus(() -> manager.activateSession(channel, activate(forged, anonymous())), StatusCodes.BadSessionIdInvalid);
        assertStatus(() -> manager.resolve(channel, header(forged)), StatusCodes.BadSessionIdInvalid);
        assertStatus(() -> manager.resolve(channel, header(NodeId.NULL)), StatusCodes.BadSessionIdInvalid);
        assertStatus(() -> manager.closeSession(channel, new CloseSessionRequest(header(forged), true)),
                StatusCodes.BadSessionIdInvalid);
    }

    @Test
    void the_first_activation_must_come_on_the_creating_channel() {
        NodeId token = createdToken();

        assertStatus(() -> manager.activateSession(otherChannel, activate(token, anonymous())),
                StatusCodes.BadSecureChannelIdInvalid);
    }

    @Test
    void an_activated_session_moves_to_another_channel_for_the_same_user_only() {
        NodeId token = createdToken();
        manager.activateSession(channel, activate(token, user("alice", "secret")));

        assertStatus(() -> manager.activateSession(otherChannel, activate(token, anonymous())),
                StatusCodes.BadSecureChannelIdInvalid);
        manager.activateSession(otherChannel, activate(token, user("alice", "secret")));

        assertThat(manager.resolve(otherChannel, header(token)).secureChannelId()).isEqualTo(8);
        assertStatus(() -> manager.resolve(channel, header(token)), StatusCodes.BadSecureChannelIdInvalid);
    }

    @Test
    void resolve_refuses_a_session_that_is_not_activated_or_bound_to_another_channel() {
        NodeId created = createdToken();
        NodeId activated = activatedToken();

        assertStatus(() -> manager.resolve(channel, header(created)), StatusCodes.BadSessionNotActivated);
        assertStatus(() -> manager.resolve(otherChannel, header(activated)), StatusCodes.BadSecureChannelIdInvalid);
        assertThat(manager.resolve(channel, header(activated)).isActivated()).isTrue();
    }

    @Test
    void close_session_ends_the_session_even_before_activation() {
        NodeId created = createdToken();
        NodeId activated = activatedToken();

        manager.closeSession(channel, new CloseSessionRequest(header(created), false));
        manager.closeSession(channel, new CloseSessionRequest(header(activated), true));

        assertStatus(() -> manager.resolve(channel, header(activated)), StatusCodes.BadSessionIdInvalid);
        assertThat(manager.currentSessions()).isZero();
        assertThat(manager.counters().sessionsClosed()).isEqualTo(2);
    }

    @Test
    void close_session_from_another_channel_is_refused() {
        NodeId token = activatedToken();

        assertStatus(() -> manager.closeSession(otherChannel, new CloseSessionRequest(header(token), true)),
                StatusCodes.BadSecureChannelIdInvalid);
        assertThat(manager.currentSessions()).isEqualTo(1);
    }

    @Test
    void cancel_answers_zero_cancelled_requests() {
        NodeId token = activatedToken();

        assertThat(manager.cancel(channel, new CancelRequest(header(token), 5)).cancelCount()).isZero();
        assertStatus(() -> manager.cancel(channel, new CancelRequest(header(createdToken()), 5)),
                StatusCodes.BadSessionNotActivated);
    }

    @Test
    void a_session_without_requests_for_its_timeout_is_closed() throws InterruptedException {
        manager.close();
        manager = manager(new SessionSettings(10, Duration.ofMillis(200), Duration.ofMillis(200), 5));
        NodeId token = activatedToken();

        await().atMost(WAIT).pollInterval(POLL).until(() -> manager.counters().sessionTimeouts() == 1);

        assertStatus(() -> manager.resolve(channel, header(token)), StatusCodes.BadSessionIdInvalid);
        assertThat(manager.currentSessions()).isZero();
    }

    @Test
    void every_request_resets_the_session_deadline() throws InterruptedException {
        manager.close();
        manager = manager(new SessionSettings(10, Duration.ofMillis(300), Duration.ofMillis(300), 5));
        NodeId token = activatedToken();

        for (int i = 0; i < 10; i++) { // 1 s in all, three times the timeout
            Thread.sleep(100); // the scenario: a client that sends a request every 100 ms
            manager.resolve(channel, header(token));
        }

        assertThat(manager.counters().sessionTimeouts()).isZero();
    }

    @Test
    void the_timer_thread_is_named_and_ends_with_the_manager() throws Exception {
        assertThat(manager.timerThreadName()).isEqualTo("opcua-session-timer");

        manager.close();

        await().atMost(WAIT).pollInterval(POLL).until(manager::timerTerminated);
    }

    @Test
    void a_closed_manager_refuses_new_sessions_with_bad_server_halted() {
        NodeId token = activatedToken();

        manager.close();

        assertStatus(() -> createdToken(), StatusCodes.BadServerHalted);
        assertStatus(() -> manager.resolve(channel, header(token)), StatusCodes.BadSessionIdInvalid);
        assertThat(manager.currentSessions()).isZero();
    }

    @Test
    void register_with_adds_the_four_session_services_to_the_dispatcher() {
        dev.opcua.stack.server.services.ServiceDispatcher.Builder builder =
                dev.opcua.stack.server.services.ServiceDispatcher.builder();
        manager.registerWith(builder);

        assertThatThrownBy(() -> builder.registerSync(CreateSessionRequest.class, (c, r) -> null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.registerSync(ActivateSessionRequest.class, (c, r) -> null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.registerSync(CloseSessionRequest.class, (c, r) -> null))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> builder.registerSync(CancelRequest.class, (c, r) -> null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void settings_refuse_inconsistent_limits() {
        assertThatThrownBy(() -> new SessionSettings(0, Duration.ofSeconds(1), Duration.ofSeconds(2), 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionSettings(1, Duration.ofSeconds(3), Duration.ofSeconds(2), 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionSettings(1, Duration.ZERO, Duration.ofSeconds(2), 1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionSettings(1, Duration.ofSeconds(1), Duration.ofSeconds(2), -1))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionSettings(1, Duration.ofSeconds(1), Duration.ofSeconds(2), 1, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SessionSettings(1, Duration.ofSeconds(1), Duration.ofSeconds(2), 1, null))
                .isInstanceOf(NullPointerException.class);
    }

    @Test
    void settings_default_to_five_attempts_and_a_one_minute_lock_out() {
        assertThat(SessionSettings.DEFAULT.maxFailedAuthenticationAttempts()).isEqualTo(5);
        assertThat(SessionSettings.DEFAULT.failedAuthenticationLockout()).isEqualTo(Duration.ofMinutes(1));
        assertThat(new SessionSettings(1, Duration.ofSeconds(1), Duration.ofSeconds(2), 0).locksOut()).isFalse();
        assertThat(new SessionSettings(1, Duration.ofSeconds(1), Duration.ofSeconds(2), 3).failedAuthenticationLockout())
                .isEqualTo(Duration.ofMinutes(1));
    }
}
