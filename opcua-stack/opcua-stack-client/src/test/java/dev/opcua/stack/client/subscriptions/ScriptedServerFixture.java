package dev.opcua.stack.client.subscriptions;

import static dev.opcua.stack.client.subscriptions.ScriptedInvoker.header;

import dev.opcua.stack.client.testing.ManualTimer;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.CreateSubscriptionResponse;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;

/**
 * The client's subscriptions against a {@link ScriptedInvoker}: the test plays the server, request by
 * request, with the helpers here (subscribe, create an item, answer Publish with data or a keep-alive)
 * and advances the {@link ManualTimer}. Listeners run inline unless a test queues them.
 */
abstract class ScriptedServerFixture {

    final ScriptedInvoker server = new ScriptedInvoker();
    final ManualTimer timer = new ManualTimer();
    final Queue<Runnable> listenerTasks = new ArrayDeque<>();
    boolean runListenersInline = true;
    final Executor listenerExecutor = task -> {
        if (runListenersInline) {
            task.run();
        } else {
            listenerTasks.add(task);
        }
    };
    ClientSubscriptions subscriptions = newSubscriptions(SubscriptionSettings.builder()
            .requestTimeout(Duration.ofSeconds(1)).build());

    ClientSubscriptions newSubscriptions(SubscriptionSettings settings) {
        return new ClientSubscriptions(server, settings, listenerExecutor, timer, timer::nanoTime);
    }

    ClientSubscription subscribe(long id) {
        CompletableFuture<ClientSubscription> created = subscriptions.create(SubscriptionParameters.ofInterval(100));
        answerCreateSubscription(server.take(CreateSubscriptionRequest.class), id);
        return created.join();
    }

    static void answerCreateSubscription(ScriptedInvoker.Call call, long id) {
        CreateSubscriptionRequest request = (CreateSubscriptionRequest) call.request;
        call.answer(new CreateSubscriptionResponse(header(), id, request.requestedPublishingInterval(), 30, 10));
    }

    ClientMonitoredItem dataItem(ClientSubscription s, long serverId, List<Object> values) {
        return dataItem(s, serverId, values::add);
    }

    ClientMonitoredItem dataItem(ClientSubscription s, long serverId, Consumer<Object> sink) {
        CompletableFuture<ClientMonitoredItem> item = s.createDataItem(DataItemRequest.of(NodeId.string(2, "v" + serverId),
                100, (i, v) -> sink.accept(v.value().value())));
        server.take(CreateMonitoredItemsRequest.class).answer(new CreateMonitoredItemsResponse(header(),
                new MonitoredItemCreateResult[] {created(serverId)}, null));
        return item.join();
    }

    static MonitoredItemCreateResult created(long serverId) {
        return new MonitoredItemCreateResult(StatusCode.GOOD, serverId, 100, 1, ExtensionObject.NULL);
    }

    void publish(PublishResponse response) {
        server.take(PublishRequest.class).answer(response);
    }

    void failPublishes(int statusCode) {
        while (server.pending(PublishRequest.class) > 0) {
            server.take(PublishRequest.class).fail(statusCode);
        }
    }

    void runListenerTasks() {
        Runnable task;
        while ((task = listenerTasks.poll()) != null) {
            task.run();
        }
    }

    static PublishResponse data(long subscriptionId, long seq, long[] available, ClientMonitoredItem item,
            int... values) {
        return new PublishResponse(header(), subscriptionId, available, false, message(seq, item, values), null, null);
    }

    static PublishResponse keepAlive(long subscriptionId, long nextSeq, long[] available) {
        return new PublishResponse(header(), subscriptionId, available, false,
                new NotificationMessage(nextSeq, DateTime.now(), new ExtensionObject[0]), null, null);
    }

    static NotificationMessage message(long seq, ClientMonitoredItem item, int... values) {
        MonitoredItemNotification[] n = new MonitoredItemNotification[values.length];
        for (int i = 0; i < values.length; i++) {
            n[i] = new MonitoredItemNotification(item.clientHandle(), DataValue.of(Variant.ofInt32(values[i])));
        }
        return new NotificationMessage(seq, DateTime.now(), new ExtensionObject[] {
                ExtensionObject.of(new DataChangeNotification(n, null))});
    }
}
