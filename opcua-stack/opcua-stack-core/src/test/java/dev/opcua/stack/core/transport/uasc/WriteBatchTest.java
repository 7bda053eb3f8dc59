package dev.opcua.stack.core.transport.uasc;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.channel.EventLoop;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Writes of a thread with a batch open reach their event loop when the batch closes, in order, one wake-up per loop. */
class WriteBatchTest {

    private final MultiThreadIoEventLoopGroup group = new MultiThreadIoEventLoopGroup(2, NioIoHandler.newFactory());

    @AfterEach
    void shutdown() {
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        WriteBatch.close();
    }

    /** The group's next loop, once its thread runs and rests in its selector. */
    private EventLoop idleLoop() throws InterruptedException {
        EventLoop loop = group.next();
        CountDownLatch started = new CountDownLatch(1);
        loop.execute(started::countDown);
        assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
        // the loop looks at its task queue once more after running a task before it blocks in select():
        // a task queued lazily in between runs without a wake-up. Nothing observable tells when the thread
        // blocks (it stays RUNNABLE in select()), so the scenario gives it the time to.
        Thread.sleep(100);
        return loop;
    }

    @Test
    void without_a_batch_a_task_runs_at_once() throws Exception {
        EventLoop loop = idleLoop();
        CountDownLatch ran = new CountDownLatch(1);
        WriteBatch.execute(loop, ran::countDown);
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void tasks_of_an_open_batch_wait_for_close_and_run_in_order() throws Exception {
        EventLoop first = idleLoop();
        EventLoop second = idleLoop();
        assertThat(second).isNotSameAs(first);
        List<String> order = new CopyOnWriteArrayList<>();
        CountDownLatch ran = new CountDownLatch(4);

        WriteBatch.open();
        assertThat(WriteBatch.isOpen()).isTrue();
        for (String name : List.of("a", "b", "c")) {
            WriteBatch.execute(first, () -> {
                order.add(name);
                ran.countDown();
            });
        }
        WriteBatch.execute(second, ran::countDown);
        // nothing wakes an idle NIO loop but the batch's close
        assertThat(ran.await(300, TimeUnit.MILLISECONDS)).as("ran before close").isFalse();
        assertThat(order).isEmpty();

        WriteBatch.close();
        assertThat(WriteBatch.isOpen()).isFalse();
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(order).containsExactly("a", "b", "c");
    }

    @Test
    void a_batch_tells_how_long_it_has_been_open_from_its_first_open() throws Exception {
        assertThat(WriteBatch.isOpenLongerThan(0)).as("none open").isFalse();
        WriteBatch.open();
        Thread.sleep(5); // the scenario: the batch stays open for 5 ms
        WriteBatch.open(); // stays open, keeps its opening time
        assertThat(WriteBatch.isOpenLongerThan(TimeUnit.MILLISECONDS.toNanos(4))).isTrue();
        assertThat(WriteBatch.isOpenLongerThan(TimeUnit.SECONDS.toNanos(60))).isFalse();
        WriteBatch.close();
        assertThat(WriteBatch.isOpenLongerThan(0)).isFalse();
    }

    @Test
    void closing_without_an_open_batch_does_nothing() {
        WriteBatch.close();
        assertThat(WriteBatch.isOpen()).isFalse();
    }
}
