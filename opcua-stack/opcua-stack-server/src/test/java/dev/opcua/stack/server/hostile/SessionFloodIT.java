package dev.opcua.stack.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.server.session.SessionCounters;
import dev.opcua.stack.server.session.SessionSettings;
import dev.opcua.stack.server.testing.LeakWatch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A client that floods CreateSession and never activates: past maxSessions it gets BadTooManySessions
 * (Part 4, 5.6.2), counted; its unactivated sessions time out after the minimum session timeout and are
 * counted as such; the well-behaved client's session is served throughout, and a new session can be
 * created once the abandoned ones are gone.
 */
class SessionFloodIT {

    private static final int MAX_SESSIONS = 4;

    @BeforeEach
    void watchLeaks() {
        LeakWatch.install();
    }

    @AfterEach
    void nothingLeaked() throws InterruptedException {
        LeakWatch.assertNoLeaks();
    }

    @Test
    void create_session_flood_gets_too_many_sessions_and_the_abandoned_sessions_time_out() throws Exception {
        try (HostileServer server = HostileServer.start(b -> b.sessionSettings(new SessionSettings(MAX_SESSIONS,
                Duration.ofMillis(1_000), Duration.ofHours(1), 5))).withGoodClient()) {
            SessionCounters counters = server.server().statistics().sessionCounters();
            UaTcpClientChannel flooder = server.connect();
            try {
                List<CompletableFuture<CreateSessionResponse>> flood = new ArrayList<>();
                for (int i = 0; i < 10; i++) {
                    // 1 ms: revised up to the server's minimum of one second
                    flood.add(flooder.request(ServiceCalls.createSession(server.endpointUrl(), 1),
                            CreateSessionResponse.class));
                }
                server.assertGoodClientServed();
                CompletableFuture.allOf(flood.stream().map(f -> f.handle((r, e) -> null))
                        .toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);

                long created = flood.stream().filter(f -> ServiceCalls.serviceResult(f) == StatusCodes.Good).count();
                long refused = flood.stream()
                        .filter(f -> ServiceCalls.serviceResult(f) == StatusCodes.BadTooManySessions).count();
                assertThat(created).as("sessions beside the good client's").isEqualTo(MAX_SESSIONS - 1);
                assertThat(refused).isEqualTo(10 - created);
                assertThat(counters.sessionsRejected()).isEqualTo(refused);

                HostileServer.await("the unactivated sessions timed out",
                        () -> counters.unactivatedSessionTimeouts() == created);
                assertThat(counters.sessionTimeouts()).isEqualTo(created);
                server.assertGoodClientServed();
                CreateSessionResponse again = flooder.request(ServiceCalls.createSession(server.endpointUrl(), 1),
                        CreateSessionResponse.class).get(20, TimeUnit.SECONDS);
                assertThat(again.responseHeader().serviceResult().isGood()).isTrue();
            } finally {
                flooder.close().get(10, TimeUnit.SECONDS);
            }
        }
    }
}
