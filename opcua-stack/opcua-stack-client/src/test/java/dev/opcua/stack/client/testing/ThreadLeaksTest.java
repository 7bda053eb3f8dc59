package dev.opcua.stack.client.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

class ThreadLeaksTest {

    private static final String PREFIX = "thread-leaks-test-";

    @Test
    void a_thread_started_after_the_snapshot_fails_the_check_until_it_ends() throws Exception {
        ThreadLeaks before = ThreadLeaks.snapshot(PREFIX);
        CountDownLatch release = new CountDownLatch(1);
        Thread thread = new Thread(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, PREFIX + "1");
        thread.setDaemon(true);
        thread.start();

        try {
            assertThat(ThreadLeaks.liveThreadNames(PREFIX)).containsExactly(PREFIX + "1");
            assertThatThrownBy(() -> before.assertNoGrowth(Duration.ofMillis(50)))
                    .isInstanceOf(ConditionTimeoutException.class).hasMessageContaining("new names [" + PREFIX + "1]");
        } finally {
            release.countDown();
        }

        before.assertNoGrowth(Duration.ofSeconds(2));
        ThreadLeaks.assertNoneAlive(PREFIX, Duration.ofSeconds(2));
        assertThat(before.names()).isEmpty();
    }
}
