package dev.opcua.stack.client.subscriptions;

import static dev.opcua.stack.client.subscriptions.ScriptedInvoker.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.structured.CallMethodRequest;
import dev.opcua.stack.core.types.structured.CallMethodResult;
import dev.opcua.stack.core.types.structured.CallRequest;
import dev.opcua.stack.core.types.structured.CallResponse;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.DeleteMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.DeleteMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.ModifyMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.ModifyMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.ModifySubscriptionRequest;
import dev.opcua.stack.core.types.structured.ModifySubscriptionResponse;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import dev.opcua.stack.core.types.structured.MonitoredItemModifyRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemModifyResult;
import dev.opcua.stack.core.types.structured.SetMonitoringModeRequest;
import dev.opcua.stack.core.types.structured.SetMonitoringModeResponse;
import dev.opcua.stack.core.types.structured.SetPublishingModeRequest;
import dev.opcua.stack.core.types.structured.SetPublishingModeResponse;
import dev.opcua.stack.core.types.structured.TransferResult;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Hot redundancy's hooks in the subscriptions (Part 4, 6.6.2.4.5.4): a mirror on a backup's monitor session
 * (publishing disabled, the same client handles), taken over at the next recreate with TransferSubscriptions
 * and SetPublishingMode instead of CreateSubscription; ConditionRefresh (Part 9) for a subscription.
 */
class ClientFailoverMirrorTest extends ScriptedServerFixture {

    private final ScriptedInvoker backup = new ScriptedInvoker();
    private final ClientSubscriptions monitor = new ClientSubscriptions(backup, SubscriptionSettings.builder().build(),
            listenerExecutor, timer, timer::nanoTime);

    private ClientSubscription mirrorOf(ClientSubscription original, long id, long itemId) {
        CompletableFuture<ClientSubscription> created = monitor.create(original.parameters().withPublishingEnabled(false));
        ScriptedInvoker.Call create = backup.take(CreateSubscriptionRequest.class);
        assertThat(((CreateSubscriptionRequest) create.request).publishingEnabled()).isFalse();
        answerCreateSubscription(create, id);
        ClientSubscription mirror = created.join();
        CompletableFuture<Void> items = mirror.mirror(original);
        ScriptedInvoker.Call call = backup.take(CreateMonitoredItemsRequest.class);
        CreateMonitoredItemsRequest request = (CreateMonitoredItemsRequest) call.request;
        assertThat(request.subscriptionId()).isEqualTo(id);
        assertThat(request.itemsToCreate()[0].requestedParameters().clientHandle())
                .isEqualTo(original.items().get(0).clientHandle());
        call.answer(new CreateMonitoredItemsResponse(header(), new MonitoredItemCreateResult[] {created(itemId)}, null));
        items.join();
        return mirror;
    }

    @Test
    void a_mirror_is_taken_over_with_transfer_and_set_publishing_mode_and_the_listener_keeps_receiving() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        ClientSubscription mirror = mirrorOf(s, 5, 51);
        assertThat(mirror.mirror(s)).as("in step: nothing to do").isCompleted();

        s.adoptAtNextRecreate(mirror, () -> true);
        subscriptions.connectionLost();
        CompletableFuture<Void> recreated = subscriptions.recreateAll();
        ScriptedInvoker.Call transfer = server.take(TransferSubscriptionsRequest.class);
        assertThat(((TransferSubscriptionsRequest) transfer.request).subscriptionIds()).containsExactly(5L);
        assertThat(((TransferSubscriptionsRequest) transfer.request).sendInitialValues()).isFalse();
        transfer.answer(new TransferSubscriptionsResponse(header(),
                new TransferResult[] {new TransferResult(StatusCode.GOOD, new long[0])}, null));
        ScriptedInvoker.Call enable = server.take(SetPublishingModeRequest.class);
        assertThat(((SetPublishingModeRequest) enable.request).publishingEnabled()).isTrue();
        assertThat(((SetPublishingModeRequest) enable.request).subscriptionIds()).containsExactly(5L);
        enable.answer(new SetPublishingModeResponse(header(), new StatusCode[] {StatusCode.GOOD}, null));

        assertThat(recreated).isCompleted();
        assertThat(server.pending(CreateSubscriptionRequest.class)).as("not re-created").isZero();
        assertThat(s.subscriptionId()).isEqualTo(5);
        assertThat(item.serverId()).isEqualTo(51);
        assertThat(monitor.list()).as("the mirror left the monitor's record").isEmpty();
        publish(data(5, 1, new long[] {1}, item, 9));
        assertThat(values).containsExactly(9);
    }

    @Test
    void after_a_takeover_the_mirrors_queued_values_the_listener_had_already_are_dropped_by_source_timestamp() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        publish(stamped(1, 1, item, 1, 2, 3)); // from the old server: values 1..3 at seconds 1..3
        takenOverByMirror(s);

        // the mirror queued values 2..5 while publishing was disabled; 2 and 3 reached the listener already
        publish(stamped(5, 1, item, 2, 3, 4, 5));
        // once a newer value passed, the item is no longer filtered: a server may repeat a source timestamp
        publish(stamped(5, 2, item, 5));

        assertThat(values).containsExactly(1, 2, 3, 4, 5, 5);
        assertThat(subscriptions.takeoverDuplicatesDropped()).isEqualTo(2);
    }

    @Test
    void a_value_without_a_source_timestamp_passes_a_takeover_without_ending_the_filter_of_its_item() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        publish(stamped(1, 1, item, 1, 2, 3));
        takenOverByMirror(s);

        // a value the filter cannot judge (no source timestamp) ahead of queued values the listener had
        publish(response(5, 1, new MonitoredItemNotification(item.clientHandle(), DataValue.of(Variant.ofInt32(0))),
                stampedValue(item, 2), stampedValue(item, 3), stampedValue(item, 4)));

        assertThat(values).containsExactly(1, 2, 3, 0, 4);
        assertThat(subscriptions.takeoverDuplicatesDropped()).isEqualTo(2);
    }

    /**
     * The connection is lost and {@code s} is taken over by its mirror (subscription 5, item 51): the transfer and
     * the enabling of publishing answered Good.
     */
    private void takenOverByMirror(ClientSubscription s) {
        ClientSubscription mirror = mirrorOf(s, 5, 51);
        s.adoptAtNextRecreate(mirror, () -> true);
        subscriptions.connectionLost();
        subscriptions.recreateAll();
        server.take(TransferSubscriptionsRequest.class).answer(new TransferSubscriptionsResponse(header(),
                new TransferResult[] {new TransferResult(StatusCode.GOOD, new long[0])}, null));
        server.take(SetPublishingModeRequest.class).answer(new SetPublishingModeResponse(header(),
                new StatusCode[] {StatusCode.GOOD}, null));
    }

    /** A Publish response whose values carry source timestamps of their value in seconds since 2024-01-01. */
    private static PublishResponse stamped(long subscriptionId, long seq, ClientMonitoredItem item, int... values) {
        MonitoredItemNotification[] n = new MonitoredItemNotification[values.length];
        for (int i = 0; i < values.length; i++) {
            n[i] = stampedValue(item, values[i]);
        }
        return response(subscriptionId, seq, n);
    }

    /** A value of {@code item} with the source timestamp of {@link #stamped}. */
    private static MonitoredItemNotification stampedValue(ClientMonitoredItem item, int value) {
        DateTime source = DateTime.ofEpochMillis(1_704_067_200_000L + value * 1000L);
        return new MonitoredItemNotification(item.clientHandle(), DataValue.of(Variant.ofInt32(value),
                StatusCode.GOOD, source, 0, source, 0));
    }

    private static PublishResponse response(long subscriptionId, long seq, MonitoredItemNotification... n) {
        return new PublishResponse(header(), subscriptionId, new long[] {seq}, false, new NotificationMessage(seq,
                DateTime.now(), new ExtensionObject[] {ExtensionObject.of(new DataChangeNotification(n, null))}),
                null, null);
    }

    @Test
    void a_mirror_follows_the_modifications_of_its_subscription_and_items_at_the_next_check() {
        ClientSubscription s = subscribe(1);
        ClientMonitoredItem item = dataItem(s, 11, new ArrayList<>());
        ClientSubscription mirror = mirrorOf(s, 5, 51);
        CompletableFuture<Void> modified = s.modify(new SubscriptionParameters(250, 1200, 12, 500, 3, true));
        server.take(ModifySubscriptionRequest.class).answer(new ModifySubscriptionResponse(header(), 250, 1200, 12));
        modified.join();
        CompletableFuture<StatusCode> itemModified = item.modify(50, 20, false, null);
        server.take(ModifyMonitoredItemsRequest.class).answer(new ModifyMonitoredItemsResponse(header(),
                new MonitoredItemModifyResult[] {new MonitoredItemModifyResult(StatusCode.GOOD, 50, 20,
                        ExtensionObject.NULL)}, null));
        itemModified.join();
        CompletableFuture<StatusCode> sampling = item.setMonitoringMode(MonitoringMode.Sampling);
        server.take(SetMonitoringModeRequest.class).answer(new SetMonitoringModeResponse(header(),
                new StatusCode[] {StatusCode.GOOD}, null));
        sampling.join();

        CompletableFuture<Void> synced = mirror.mirror(s);

        ScriptedInvoker.Call modify = backup.take(ModifySubscriptionRequest.class);
        ModifySubscriptionRequest subscription = (ModifySubscriptionRequest) modify.request;
        assertThat(subscription.subscriptionId()).isEqualTo(5);
        assertThat(subscription.requestedPublishingInterval()).isEqualTo(250);
        assertThat(subscription.maxNotificationsPerPublish()).isEqualTo(500);
        modify.answer(new ModifySubscriptionResponse(header(), 250, 1200, 12));
        ScriptedInvoker.Call items = backup.take(ModifyMonitoredItemsRequest.class);
        MonitoredItemModifyRequest change = ((ModifyMonitoredItemsRequest) items.request).itemsToModify()[0];
        assertThat(change.monitoredItemId()).isEqualTo(51);
        assertThat(change.requestedParameters().samplingInterval()).isEqualTo(50);
        assertThat(change.requestedParameters().queueSize()).isEqualTo(20);
        items.answer(new ModifyMonitoredItemsResponse(header(), new MonitoredItemModifyResult[] {
                new MonitoredItemModifyResult(StatusCode.GOOD, 50, 20, ExtensionObject.NULL)}, null));
        ScriptedInvoker.Call mode = backup.take(SetMonitoringModeRequest.class);
        assertThat(((SetMonitoringModeRequest) mode.request).monitoringMode()).isEqualTo(MonitoringMode.Sampling);
        assertThat(((SetMonitoringModeRequest) mode.request).monitoredItemIds()).containsExactly(51L);
        mode.answer(new SetMonitoringModeResponse(header(), new StatusCode[] {StatusCode.GOOD}, null));

        assertThat(synced).isCompleted();
        assertThat(mirror.parameters().publishingEnabled()).as("the mirror stays disabled").isFalse();
        assertThat(backup.pending(SetPublishingModeRequest.class)).isZero();
        assertThat(mirror.mirror(s)).as("in step again: nothing to send").isCompleted();
    }

    @Test
    void a_mirror_the_server_refuses_to_transfer_is_replaced_by_a_recreate() {
        ClientSubscription s = subscribe(1);
        ClientMonitoredItem item = dataItem(s, 11, new ArrayList<>());
        ClientSubscription mirror = mirrorOf(s, 5, 51);

        s.adoptAtNextRecreate(mirror, () -> true);
        subscriptions.connectionLost();
        CompletableFuture<Void> recreated = subscriptions.recreateAll();
        server.take(TransferSubscriptionsRequest.class).answer(new TransferSubscriptionsResponse(header(),
                new TransferResult[] {new TransferResult(StatusCode.of(StatusCodes.BadUserAccessDenied), null)}, null));
        answerCreateSubscription(server.take(CreateSubscriptionRequest.class), 8);
        server.take(CreateMonitoredItemsRequest.class).answer(new CreateMonitoredItemsResponse(header(),
                new MonitoredItemCreateResult[] {created(81)}, null));

        assertThat(recreated).isCompleted();
        assertThat(s.subscriptionId()).isEqualTo(8);
        assertThat(item.serverId()).isEqualTo(81);
        assertThat(server.pending(SetPublishingModeRequest.class)).isZero();
    }

    @Test
    void an_adoption_no_longer_valid_is_not_tried() {
        ClientSubscription s = subscribe(1);
        dataItem(s, 11, new ArrayList<>());
        ClientSubscription mirror = mirrorOf(s, 5, 51);

        s.adoptAtNextRecreate(mirror, () -> false); // the client went to another server than the mirror's
        subscriptions.connectionLost();
        subscriptions.recreateAll();
        assertThat(server.pending(TransferSubscriptionsRequest.class)).isZero();
        assertThat(server.pending(CreateSubscriptionRequest.class)).isEqualTo(1);
    }

    @Test
    void items_removed_from_the_original_are_deleted_from_the_mirror_and_new_ones_created() {
        ClientSubscription s = subscribe(1);
        ClientMonitoredItem first = dataItem(s, 11, new ArrayList<>());
        ClientSubscription mirror = mirrorOf(s, 5, 51);
        ClientMonitoredItem second = dataItem(s, 12, new ArrayList<>());
        s.deleteItems(List.of(first));
        server.take(DeleteMonitoredItemsRequest.class).answer(
                new DeleteMonitoredItemsResponse(header(),
                        new StatusCode[] {StatusCode.GOOD}, null));

        CompletableFuture<Void> synced = mirror.mirror(s);
        ScriptedInvoker.Call delete = backup.take(DeleteMonitoredItemsRequest.class);
        assertThat(((DeleteMonitoredItemsRequest) delete.request)
                .monitoredItemIds()).containsExactly(51L);
        delete.answer(new DeleteMonitoredItemsResponse(header(),
                new StatusCode[] {StatusCode.GOOD}, null));
        ScriptedInvoker.Call create = backup.take(CreateMonitoredItemsRequest.class);
        assertThat(((CreateMonitoredItemsRequest) create.request).itemsToCreate()[0].requestedParameters()
                .clientHandle()).isEqualTo(second.clientHandle());
        create.answer(new CreateMonitoredItemsResponse(header(), new MonitoredItemCreateResult[] {created(52)}, null));
        assertThat(synced).isCompleted();
        assertThat(mirror.items()).extracting(ClientMonitoredItem::clientHandle).containsExactly(second.clientHandle());
    }

    @Test
    void condition_refresh_calls_the_method_of_condition_type_with_the_subscription_id() {
        ClientSubscription s = subscribe(7);
        CompletableFuture<StatusCode> refreshed = s.conditionRefresh();
        ScriptedInvoker.Call call = server.take(CallRequest.class);
        CallMethodRequest m = ((CallRequest) call.request).methodsToCall()[0];
        assertThat(m.objectId()).isEqualTo(NodeId.ns0(NodeIds.ConditionType));
        assertThat(m.methodId()).isEqualTo(NodeId.ns0(NodeIds.ConditionType_ConditionRefresh));
        assertThat(m.inputArguments()[0].value()).isEqualTo(7L);
        call.answer(new CallResponse(header(), new CallMethodResult[] {
                new CallMethodResult(StatusCode.GOOD, new StatusCode[0], null, null)}, null));
        assertThat(refreshed.join()).isEqualTo(StatusCode.GOOD);
    }
}
