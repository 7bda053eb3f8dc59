package dev.opcua.stack.client;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.subscriptions.ClientSubscription;
import dev.opcua.stack.client.subscriptions.DataItemRequest;
import dev.opcua.stack.client.subscriptions.SubscriptionParameters;
import dev.opcua.stack.client.testing.MiloPeer;
import dev.opcua.stack.client.testing.MiloPeerServer;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client with response futures completed on the I/O thread that read them ({@code
 * ClientResources.builder().executor(Runnable::run)}, for applications whose callbacks never block), against
 * Eclipse Milo's server: connect, Read, Write, Browse and a subscription all work, and a callback runs on the
 * I/O thread. The load harness measures what it saves (docs/performance-log.md, "Client callbacks on the I/O
 * thread").
 */
class OpcUaClientDirectCallbacksIT {

    @RegisterExtension
    static final MiloPeer PEER = MiloPeer.server().resources(r -> r.executor(Runnable::run)).watchingLeaks();

    @Test
    void every_service_works_and_callbacks_run_on_the_io_thread() throws Exception {
        try (OpcUaClient client = OpcUaClient.create(OpcUaClientConfig.builder(PEER.milo().endpointUrl())
                .resources(PEER.clientResources()).requestTimeout(Duration.ofSeconds(10)).build())) {
            client.connect().get(20, TimeUnit.SECONDS);
            NodeId int32 = NodeId.string(MiloPeerServer.NAMESPACE_INDEX, MiloPeerServer.INT32);

            assertThat(client.blocking().writeValue(int32, 41)).isEqualTo(StatusCode.GOOD);
            // sent from the (one) I/O thread, so that the callback is attached before that thread can read the
            // response; from the test thread a fast response completes the future first and the callback runs here
            String thread = CompletableFuture.supplyAsync(() -> client.readValue(int32)
                            .thenApply(v -> Thread.currentThread().getName()),
                    PEER.clientResources().eventLoopGroup().next()).thenCompose(f -> f).get(10, TimeUnit.SECONDS);
            DataValue read = client.blocking().readValue(int32);
            assertThat(thread).as("the callback's thread").startsWith("opcua-client-io-");
            assertThat(read.value().value()).isEqualTo(41);
            assertThat(client.browse(NodeId.ns0(85)).get(10, TimeUnit.SECONDS)).isNotEmpty(); // Objects folder

            BlockingQueue<Object> values = new LinkedBlockingQueue<>();
            ClientSubscription subscription = client.createSubscription(SubscriptionParameters.ofInterval(20)
                    .withCounts(300, 10)).get(10, TimeUnit.SECONDS);
            subscription.createDataItem(DataItemRequest.of(int32, 10, (item, value) -> values.add(value.value()
                    .value()))).get(10, TimeUnit.SECONDS);
            assertThat(values.poll(10, TimeUnit.SECONDS)).isEqualTo(41);
            PEER.milo().setValue(MiloPeerServer.INT32, 42);
            assertThat(values.poll(10, TimeUnit.SECONDS)).isEqualTo(42);
        }
    }
}
