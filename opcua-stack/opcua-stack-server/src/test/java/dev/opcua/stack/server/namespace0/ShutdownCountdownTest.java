package dev.opcua.stack.server.namespace0;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.enumerated.ServerState;
import dev.opcua.stack.core.types.structured.BuildInfo;
import dev.opcua.stack.server.nodes.NamespaceTable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The announced shutdown of Part 5, 6.3.1: ServerState, SecondsTillShutdown and ShutdownReason. */
class ShutdownCountdownTest {

    private ServerObject server;

    @BeforeEach
    void serverObject() {
        server = new ServerObject(Namespace0Loader.load(), new NamespaceTable("urn:test"), "urn:test",
                new BuildInfo("urn:p", "m", "n", "1", "1", DateTime.now()));
    }

    @Test
    void the_state_turns_shutdown_at_once_and_the_seconds_count_down_to_zero() throws Exception {
        List<Long> seen = new ArrayList<>();
        try (ShutdownCountdown countdown = new ShutdownCountdown(server, Duration.ofMillis(2_500),
                LocalizedText.of("en", "maintenance"), Duration.ofMillis(50))) {
            assertThat(server.state()).isEqualTo(ServerState.Shutdown);
            assertThat(server.status().secondsTillShutdown()).isEqualTo(3); // 2.5 s rounded up
            assertThat(server.status().shutdownReason().text()).isEqualTo("maintenance");
            // watches the seconds every 5 ms until the countdown has finished, noting each change
            await().atMost(Duration.ofSeconds(10)).pollInSameThread().pollInterval(Duration.ofMillis(5)).until(() -> {
                long now = server.status().secondsTillShutdown();
                if (seen.isEmpty() || seen.get(seen.size() - 1) != now) {
                    seen.add(now);
                }
                return countdown.finished().isDone();
            });
            countdown.finished().get(2, TimeUnit.SECONDS);
        }
        assertThat(seen).isSortedAccordingTo(java.util.Comparator.reverseOrder()).doesNotHaveDuplicates()
                .isSubsetOf(3L, 2L, 1L, 0L);
        assertThat(seen.get(0)).isEqualTo(3);
        assertThat(server.status().secondsTillShutdown()).isZero();
        assertThat(server.state()).isEqualTo(ServerState.Shutdown);
        assertThat(server.status().shutdownReason().text()).isEqualTo("maintenance");
    }

    @Test
    void the_countdown_runs_on_a_named_thread_that_ends_with_it() throws Exception {
        ShutdownCountdown countdown = new ShutdownCountdown(server, Duration.ofSeconds(1), LocalizedText.of("bye"),
                Duration.ofMillis(20));
        countdown.finished().get(2, TimeUnit.SECONDS);
        await("the countdown thread ended").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .until(() -> !shutdownThreadAlive());
        countdown.close();
    }

    @Test
    void closing_early_stops_the_count_and_finishes() throws Exception {
        ShutdownCountdown countdown = ShutdownCountdown.start(server, Duration.ofSeconds(30), "update");
        assertThat(server.status().secondsTillShutdown()).isEqualTo(30);
        assertThat(shutdownThreadAlive()).isTrue();
        countdown.close();
        assertThat(countdown.finished()).isDone();
        assertThat(server.state()).isEqualTo(ServerState.Shutdown);
    }

    @Test
    void a_zero_delay_finishes_at_once_without_a_thread() {
        try (ShutdownCountdown countdown = ShutdownCountdown.start(server, Duration.ZERO, "now")) {
            assertThat(countdown.finished()).isDone();
            assertThat(server.state()).isEqualTo(ServerState.Shutdown);
            assertThat(server.status().secondsTillShutdown()).isZero();
        }
    }

    private static boolean shutdownThreadAlive() {
        return Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().equals(ShutdownCountdown.THREAD_NAME) && t.isAlive());
    }
}
