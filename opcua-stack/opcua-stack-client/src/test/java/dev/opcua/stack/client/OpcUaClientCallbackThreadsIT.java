package dev.opcua.stack.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.testing.MiloPeer;
import dev.opcua.stack.client.testing.MiloPeerServer;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client's threads with its default resources, against Eclipse Milo's server: a response completes its future
 * on the I/O thread that read it; a blocking call made there fails at once with an IllegalStateException naming
 * the thread (not after its timeout); subscription listeners run there too, in order, where a blocking call fails
 * the same way, and on the callback threads with {@code listenersOnCallbackThreads()}, where blocking calls work.
 * The load harness measures what completing on the I/O thread saves (docs/PERFORMANCE.md).
 */
class OpcUaClientCallbackThreadsIT {

    @RegisterExtension
    static final MiloPeer PEER = MiloPeer.server().watchingLeaks();

    @Test
    void responses_and_listeners_run_on_the_io_thread_where_blocking_fails_fast() throws Exception {
        Duration timeout = Duration.ofSeconds(10);
        try (OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder(PEER.milo().endpointUrl())
                .resources(PEER.clientResources()).requestTimeout(timeout).build())) {
            client.connect().get(20, TimeUnit.SECONDS);
            NodeId int32 = NodeId.string(MiloPeerServer.NAMESPACE_INDEX, MiloPeerServer.INT32);

            assertThat(client.blocking().writeValue(int32, 41)).isEqualTo(StatusCode.GOOD);
            // sent from the (one) I/O thread, so that the callback is attached before that thread can read the
            // response; from the test thread a fast response completes the future first and the callback runs here
            String thread = onIoThread(() -> client.readValue(int32).thenApply(v -> Thread.currentThread().getName()))
                    .get(10, TimeUnit.SECONDS);
            assertThat(thread).as("the callback's thread").startsWith("opcua-client-io-");

            long started = System.nanoTime();
            Throwable refused = onIoThread(() -> client.readValue(int32)
                    .thenApply(v -> client.blocking().readValue(int32))
                    .handle((v, failure) -> Failures.unwrap(failure))).get(10, TimeUnit.SECONDS);
            assertThat(refused).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("blocking() Read blocks").hasMessageContaining("opcua-client-io-1");
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("refused, not timed out")
                    .isLessThan(timeout);
            assertThat(client.blocking().readValue(int32).value().value()).as("the client goes on").isEqualTo(41);

            BlockingQueue<Object> outcomes = new LinkedBlockingQueue<>();
            ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(20)
                    .withCounts(300, 10)).get(10, TimeUnit.SECONDS);
            subscription.createDataItem(DataItemRequest.of(int32, 10, (item, value) -> {
                String name = Thread.currentThread().getName();
                try {
                    client.blocking().readValue(int32);
                    outcomes.add(name + " read");
                } catch (IllegalStateException e) {
                    outcomes.add(name + " refused");
                    throw e; // counted as the listener's failure
                }
            })).get(10, TimeUnit.SECONDS);
            assertThat((String) outcomes.poll(10, TimeUnit.SECONDS)).as("a listener by default")
                    .matches("opcua-client-io-\\d+ refused");
            await("the refused call counted as the listener's failure").atMost(Duration.ofSeconds(10))
                    .until(() -> client.subscriptions().listenerErrors() > 0);
        }
    }

    @Test
    void listeners_on_the_callback_threads_may_block() throws Exception {
        try (OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder(PEER.milo().endpointUrl())
                .resources(PEER.clientResources()).requestTimeout(Duration.ofSeconds(10))
                .listenersOnCallbackThreads().build())) {
            client.connect().get(20, TimeUnit.SECONDS);
            NodeId int32 = NodeId.string(MiloPeerServer.NAMESPACE_INDEX, MiloPeerServer.INT32);
            PEER.milo().setValue(MiloPeerServer.INT32, 41);
            BlockingQueue<Object> values = new LinkedBlockingQueue<>();
            ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(20)
                    .withCounts(300, 10)).get(10, TimeUnit.SECONDS);
            subscription.createDataItem(DataItemRequest.of(int32, 10, (item, value) -> {
                DataValue again = client.blocking().readValue(int32); // allowed on a callback thread
                values.add(Thread.currentThread().getName() + "=" + again.value().value());
            })).get(10, TimeUnit.SECONDS);
            assertThat((String) values.poll(10, TimeUnit.SECONDS)).matches("opcua-client-callback-\\d+=41");
            PEER.milo().setValue(MiloPeerServer.INT32, 42);
            assertThat((String) values.poll(10, TimeUnit.SECONDS)).matches("opcua-client-callback-\\d+=42");
        }
    }

    private static <T> CompletableFuture<T> onIoThread(Supplier<CompletableFuture<T>> call) {
        return CompletableFuture.supplyAsync(call, PEER.clientResources().eventLoopGroup().next())
                .thenCompose(f -> f);
    }
}
