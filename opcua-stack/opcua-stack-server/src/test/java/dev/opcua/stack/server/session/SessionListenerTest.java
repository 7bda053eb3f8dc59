package dev.opcua.stack.server.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The {@link SessionListener} hears of every closed session once, with CloseSession's deleteSubscriptions. */
class SessionListenerTest {

    private record Closed(Session session, boolean deleteSubscriptions) {
    }

    private final List<Closed> closed = new CopyOnWriteArrayList<>();
    private final AtomicLong now = new AtomicLong();
    private final TestChannel channel = new TestChannel(7);
    private final DiscoveryServices discovery = DiscoveryServices.builder()
            .application("urn:test", "urn:test:product", "test")
            .endpointUrls(List.of(SessionManagerTest.URL))
            .userTokenPolicies(List.of(DiscoveryServices.ANONYMOUS))
            .build();
    private final SessionManager manager = SessionManager.builder()
            .settings(new SessionSettings(100, Duration.ofMillis(100), Duration.ofHours(1), 5))
            .identityValidator(UserNameIdentityValidator.of(Map.of(), true))
            .discoveryEndpoints(() -> discovery)
            .listener((session, deleteSubscriptions) -> closed.add(new Closed(session, deleteSubscriptions)))
            .nanoClock(now::get)
            .build();

    @AfterEach
    void close() {
        manager.close();
    }

    private static RequestHeader header(NodeId token) {
        return new RequestHeader(token, null, 1, 0, null, 0, ExtensionObject.NULL);
    }

    private NodeId open(double timeout) {
        NodeId token = manager.createSession(channel, SessionManagerTest.create(timeout)).authenticationToken();
        manager.activateSession(channel, new ActivateSessionRequest(header(token), null, null, null,
                ExtensionObject.of(new AnonymousIdentityToken("anonymous")), null));
        return token;
    }

    @Test
    void close_session_passes_its_delete_subscriptions_flag() {
        NodeId keep = open(60_000);
        NodeId delete = open(60_000);
        Session kept = manager.resolve(channel, header(keep));

        manager.closeSession(channel, new CloseSessionRequest(header(keep), false));
        manager.closeSession(channel, new CloseSessionRequest(header(delete), true));

        assertThat(closed).extracting(Closed::deleteSubscriptions).containsExactly(false, true);
        assertThat(closed.get(0).session()).isSameAs(kept);
        assertThat(closed.get(0).session().isClosed()).isTrue();
    }

    @Test
    void a_timed_out_session_keeps_its_subscriptions_for_a_transfer() throws InterruptedException {
        open(100);
        now.addAndGet(Duration.ofSeconds(1).toNanos());

        // the session timer closes it on its own thread, a moment after the clock passed the timeout
        await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(10)).until(() -> !closed.isEmpty());

        assertThat(closed).extracting(Closed::deleteSubscriptions).containsExactly(false);
    }

    @Test
    void closing_the_manager_deletes_the_subscriptions_of_every_session_once() {
        open(60_000);
        open(60_000);

        manager.close();
        manager.close();

        assertThat(closed).hasSize(2).extracting(Closed::deleteSubscriptions).containsOnly(true);
    }
}
