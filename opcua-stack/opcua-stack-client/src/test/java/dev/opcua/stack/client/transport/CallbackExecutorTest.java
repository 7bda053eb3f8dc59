package dev.opcua.stack.client.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CallbackExecutorTest {

    @Test
    void every_task_of_many_producers_runs_exactly_once_on_the_named_workers() throws Exception {
        CallbackExecutor executor = new CallbackExecutor(2, "test-callback-");
        int producers = 8;
        int perProducer = 20_000;
        AtomicInteger ran = new AtomicInteger();
        Set<String> threads = ConcurrentHashMap.newKeySet();
        CountDownLatch done = new CountDownLatch(producers * perProducer);
        List<Thread> started = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            Thread t = new Thread(() -> {
                for (int i = 0; i < perProducer; i++) {
                    executor.execute(() -> {
                        ran.incrementAndGet();
                        threads.add(Thread.currentThread().getName());
                        done.countDown();
                    });
                }
            }, "producer-" + p);
            started.add(t);
            t.start();
        }
        for (Thread t : started) {
            t.join();
        }

        assertThat(done.await(20, TimeUnit.SECONDS)).as("all tasks ran").isTrue();
        assertThat(ran.get()).isEqualTo(producers * perProducer);
        assertThat(threads).isNotEmpty().isSubsetOf("test-callback-1", "test-callback-2");
        executor.shutdown();
        assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void a_task_that_throws_does_not_stop_its_worker() throws Exception {
        CallbackExecutor executor = new CallbackExecutor(1, "test-callback-");
        CountDownLatch after = new CountDownLatch(1);
        executor.execute(() -> {
            throw new IllegalStateException("a listener's bug");
        });
        executor.execute(after::countDown);

        assertThat(after.await(5, TimeUnit.SECONDS)).isTrue();
        executor.shutdown();
        assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void after_shutdown_new_tasks_are_rejected_and_the_workers_end() throws Exception {
        CallbackExecutor executor = new CallbackExecutor(3, "test-callback-");
        CountDownLatch ran = new CountDownLatch(1);
        executor.execute(ran::countDown);
        assertThat(ran.await(5, TimeUnit.SECONDS)).isTrue();

        executor.shutdown();

        assertThatThrownBy(() -> executor.execute(() -> { })).isInstanceOf(RejectedExecutionException.class)
                .hasMessageContaining("shut down");
        assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
    }
}
