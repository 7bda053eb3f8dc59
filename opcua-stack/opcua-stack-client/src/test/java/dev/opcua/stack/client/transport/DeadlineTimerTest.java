package dev.opcua.stack.client.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netty.util.Timeout;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadlineTimerTest {

    private final AtomicReference<Thread> thread = new AtomicReference<>();
    private final DeadlineTimer timer = new DeadlineTimer(r -> {
        Thread t = new Thread(r, "test-timer");
        t.setDaemon(true);
        thread.set(t);
        return t;
    }, TimeUnit.MILLISECONDS.toNanos(5));

    @AfterEach
    void stop() {
        timer.stop();
    }

    @Test
    void runs_tasks_in_deadline_order_and_never_early() throws Exception {
        List<String> order = new CopyOnWriteArrayList<>();
        CountDownLatch done = new CountDownLatch(3);
        long start = System.nanoTime();
        long[] ranAfter = new long[1];
        // deadlines far apart, so that the test thread being descheduled between two calls (each deadline counts
        // from its own call) cannot reorder them; on a loaded machine 60/20/40 ms once ran as 20, 60, 40
        timer.newTimeout(t -> { order.add("600"); done.countDown(); }, 600, TimeUnit.MILLISECONDS);
        timer.newTimeout(t -> {
            ranAfter[0] = System.nanoTime() - start;
            order.add("20");
            done.countDown();
        }, 20, TimeUnit.MILLISECONDS);
        timer.newTimeout(t -> { order.add("300"); done.countDown(); }, 300, TimeUnit.MILLISECONDS);

        assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(order).containsExactly("20", "300", "600");
        assertThat(ranAfter[0]).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
    }

    @Test
    void a_cancelled_timeout_never_runs() throws Exception {
        CountDownLatch later = new CountDownLatch(1);
        List<String> ran = new CopyOnWriteArrayList<>();
        Timeout cancelled = timer.newTimeout(t -> ran.add("cancelled"), 10, TimeUnit.MILLISECONDS);
        timer.newTimeout(t -> later.countDown(), 50, TimeUnit.MILLISECONDS);

        assertThat(cancelled.cancel()).isTrue();
        assertThat(cancelled.isCancelled()).isTrue();
        assertThat(cancelled.cancel()).isFalse();
        assertThat(later.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(ran).isEmpty();
    }

    @Test
    void an_earlier_deadline_wakes_the_sleeping_thread() throws Exception {
        timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);
        awaitState(Thread.State.TIMED_WAITING);
        CountDownLatch soon = new CountDownLatch(1);
        Timeout timeout = timer.newTimeout(t -> soon.countDown(), 10, TimeUnit.MILLISECONDS);

        assertThat(soon.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(timeout.isExpired()).isTrue();
    }

    @Test
    void sleeps_without_a_time_limit_while_nothing_is_pending() throws Exception {
        CountDownLatch ran = new CountDownLatch(1);
        timer.newTimeout(t -> ran.countDown(), 1, TimeUnit.MILLISECONDS);
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();

        // a ticking wheel would be TIMED_WAITING, woken every tick
        awaitState(Thread.State.WAITING);
    }

    @Test
    void a_failing_task_does_not_stop_the_others() throws Exception {
        CountDownLatch after = new CountDownLatch(1);
        timer.newTimeout(t -> { throw new IllegalStateException("task failure on purpose"); }, 1, TimeUnit.MILLISECONDS);
        timer.newTimeout(t -> after.countDown(), 20, TimeUnit.MILLISECONDS);

        assertThat(after.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void stop_returns_what_was_pending_and_refuses_new_timeouts() throws Exception {
        Timeout pending = timer.newTimeout(t -> { }, 1, TimeUnit.HOURS);

        Set<Timeout> left = timer.stop();

        assertThat(left).containsExactly(pending);
        assertThat(thread.get().isAlive()).isFalse();
        assertThatThrownBy(() -> timer.newTimeout(t -> { }, 1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("stopped");
        assertThat(timer.stop()).isEmpty();
    }

    private void awaitState(Thread.State state) {
        await("the timer thread " + state).atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(5))
                .untilAsserted(() -> assertThat(thread.get().getState()).isEqualTo(state));
    }
}
