package dev.opcua.stack.client.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ClientResourcesTest {

    @Test
    void names_every_thread_it_starts() throws Exception {
        try (ClientResources resources = ClientResources.builder().ioThreads(2).callbackThreads(1).build()) {
            assertThat(resources.eventLoopGroup().submit(() -> Thread.currentThread().getName()).get(5,
                    TimeUnit.SECONDS)).matches("opcua-client-io-\\d+");
            CompletableFuture<String> timerThread = new CompletableFuture<>();
            resources.timer().newTimeout(t -> timerThread.complete(Thread.currentThread().getName()), 1,
                    TimeUnit.MILLISECONDS);
            assertThat(timerThread.get(5, TimeUnit.SECONDS)).isEqualTo("opcua-client-timer");
            assertThat(CompletableFuture.supplyAsync(() -> Thread.currentThread().getName(),
                    resources.callbackExecutor()).get(5, TimeUnit.SECONDS)).isEqualTo("opcua-client-callback-1");
        }
    }

    @Test
    void names_its_threads_with_the_prefix_given() throws Exception {
        try (ClientResources resources = ClientResources.builder().threadNamePrefix("writer").ioThreads(1)
                .callbackThreads(1).build()) {
            assertThat(resources.eventLoopGroup().submit(() -> Thread.currentThread().getName()).get(5,
                    TimeUnit.SECONDS)).isEqualTo("writer-io-1");
            CompletableFuture<String> timerThread = new CompletableFuture<>();
            resources.timer().newTimeout(t -> timerThread.complete(Thread.currentThread().getName()), 1,
                    TimeUnit.MILLISECONDS);
            assertThat(timerThread.get(5, TimeUnit.SECONDS)).isEqualTo("writer-timer");
            assertThat(CompletableFuture.supplyAsync(() -> Thread.currentThread().getName(),
                    resources.callbackExecutor()).get(5, TimeUnit.SECONDS)).isEqualTo("writer-callback-1");
        }
        assertThatThrownBy(() -> ClientResources.builder().threadNamePrefix("")).isInstanceOf(
                IllegalArgumentException.class);
    }

    @Test
    void close_stops_the_event_loops_the_timer_and_its_own_executor_and_is_idempotent() {
        ClientResources resources = ClientResources.builder().threadNamePrefix("closing").build();
        resources.close();
        resources.close();

        assertThat(resources.eventLoopGroup().isTerminated()).isTrue();
        assertThatThrownBy(() -> resources.timer().newTimeout(t -> { }, 1, TimeUnit.SECONDS))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> resources.callbackExecutor().execute(() -> { }))
                .isInstanceOf(java.util.concurrent.RejectedExecutionException.class);
        // a terminated event loop's thread may still be on its way out when close returns
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() ->
                assertThat(Thread.getAllStackTraces().keySet()).extracting(Thread::getName)
                        .noneMatch(name -> name.startsWith("closing-")));
    }

    @Test
    void responses_complete_on_the_io_thread_by_default_or_on_the_callback_threads_when_asked() {
        try (ClientResources byDefault = ClientResources.builder().callbackThreads(1).build();
                ClientResources callbacks = ClientResources.builder().completeOnCallbackThreads().callbackThreads(1)
                        .build()) {
            assertThat(byDefault.executor()).isSameAs(IoThreadCompletion.INSTANCE);
            assertThat(callbacks.executor()).isSameAs(callbacks.callbackExecutor());
        }
    }

    @Test
    void a_blocking_call_is_refused_at_once_on_an_io_or_timer_thread_and_allowed_elsewhere() throws Exception {
        try (ClientResources resources = ClientResources.builder().ioThreads(1).callbackThreads(1).build()) {
            String onIo = resources.eventLoopGroup().submit(() -> refusal("Read")).get(5, TimeUnit.SECONDS);
            assertThat(onIo).contains("Read blocks", "opcua-client-io-1", "completeOnCallbackThreads()");
            CompletableFuture<String> onTimer = new CompletableFuture<>();
            resources.timer().newTimeout(t -> onTimer.complete(refusal("Write")), 1, TimeUnit.MILLISECONDS);
            assertThat(onTimer.get(5, TimeUnit.SECONDS)).contains("Write blocks", "opcua-client-timer");
            assertThat(CompletableFuture.supplyAsync(() -> refusal("Browse"), resources.callbackExecutor())
                    .get(5, TimeUnit.SECONDS)).isEqualTo("allowed");
            assertThat(refusal("Call")).isEqualTo("allowed");
        }
    }

    private static String refusal(String what) {
        try {
            ClientResources.checkMayBlock(what);
            return "allowed";
        } catch (IllegalStateException e) {
            return e.getMessage();
        }
    }

    @Test
    void close_leaves_an_executor_of_the_caller_running() {
        ExecutorService own = Executors.newSingleThreadExecutor();
        try {
            ClientResources.builder().executor(own).build().close();
            assertThat(own.isShutdown()).isFalse();
        } finally {
            own.shutdownNow();
        }
    }

    @Test
    void the_shared_instance_ignores_close() throws Exception {
        ClientResources shared = ClientResources.shared();
        shared.close();
        assertThat(shared).isSameAs(ClientResources.shared());
        assertThat(shared.eventLoopGroup().submit(() -> 1).get(5, TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(shared.socketChannelType().getSimpleName()).isIn("NioSocketChannel", "EpollSocketChannel");
    }
}
