package dev.opcua.stack.client.subscriptions;

import static dev.opcua.stack.client.subscriptions.ScriptedInvoker.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.DeleteMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.DeleteMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.DeleteSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.ModifySubscriptionRequest;
import dev.opcua.stack.core.types.structured.ModifySubscriptionResponse;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.RepublishRequest;
import dev.opcua.stack.core.types.structured.RepublishResponse;
import dev.opcua.stack.core.types.structured.SetMonitoringModeRequest;
import dev.opcua.stack.core.types.structured.SetMonitoringModeResponse;
import dev.opcua.stack.core.types.structured.SetPublishingModeRequest;
import dev.opcua.stack.core.types.structured.SetPublishingModeResponse;
import dev.opcua.stack.core.types.structured.SetTriggeringRequest;
import dev.opcua.stack.core.types.structured.SetTriggeringResponse;
import dev.opcua.stack.core.types.structured.StatusChangeNotification;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import dev.opcua.stack.core.types.structured.TransferResult;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * The record of {@link ClientSubscriptions} and its rebuilding: after a re-activated session, a new one
 * (TransferSubscriptions, else re-creation), an expired subscription, and on close.
 */
class ClientSubscriptionsTest extends ScriptedServerFixture {

    @Test
    void a_subscription_the_server_reports_expired_is_recreated_with_its_items_and_keeps_delivering() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        NotificationMessage expired = new NotificationMessage(1, DateTime.now(), new ExtensionObject[] {
                ExtensionObject.of(new StatusChangeNotification(StatusCode.of(StatusCodes.BadTimeout), null))});

        publish(new PublishResponse(header(), 1, new long[0], false, expired, null, null));
        answerCreateSubscription(server.take(CreateSubscriptionRequest.class), 7);
        server.take(CreateMonitoredItemsRequest.class).answer(new CreateMonitoredItemsResponse(header(),
                new MonitoredItemCreateResult[] {created(41)}, null));
        publish(data(7, 1, new long[] {1}, item, 5));
        runListenerTasks();

        assertThat(s.subscriptionId()).isEqualTo(7);
        assertThat(item.serverId()).isEqualTo(41);
        assertThat(values).containsExactly(5);
        assertThat(subscriptions.list()).containsExactly(s);
    }

    @Test
    void after_reactivation_publishing_resumes_and_what_was_lost_in_flight_is_republished() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        publish(data(1, 1, new long[] {1}, item, 1));

        subscriptions.connectionLost();
        failPublishes(StatusCodes.BadConnectionClosed);
        timer.advance(5000);
        assertThat(server.pending(PublishRequest.class)).as("nothing sent while the connection is lost").isZero();

        subscriptions.sessionReactivated().join();
        assertThat(server.pending(PublishRequest.class)).isEqualTo(3);
        publish(keepAlive(1, 4, new long[] {1, 2, 3}));

        assertThat(server.sent(RepublishRequest.class)).extracting(RepublishRequest::retransmitSequenceNumber)
                .containsExactly(2L, 3L);
        server.take(RepublishRequest.class).answer(new RepublishResponse(header(), message(2, item, 2)));
        server.take(RepublishRequest.class).answer(new RepublishResponse(header(), message(3, item, 3)));
        assertThat(values).containsExactly(1, 2, 3);
        publish(keepAlive(1, 4, null));
        List<Long> acknowledged = server.sent(PublishRequest.class).stream()
                .flatMap(p -> Arrays.stream(p.subscriptionAcknowledgements())).map(SubscriptionAcknowledgement::sequenceNumber)
                .toList();
        assertThat(acknowledged).as("1 too: it waited through the outage").contains(1L, 2L, 3L);
    }

    @Test
    void a_transferred_subscription_republishes_what_the_server_holds_beyond_the_last_number_received() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        publish(data(1, 1, new long[] {1}, item, 1));
        subscriptions.connectionLost();

        CompletableFuture<Void> replaced = subscriptions.sessionReplaced();
        ScriptedInvoker.Call transfer = server.take(TransferSubscriptionsRequest.class);
        TransferSubscriptionsRequest request = (TransferSubscriptionsRequest) transfer.request;
        assertThat(request.subscriptionIds()).containsExactly(1L);
        assertThat(request.sendInitialValues()).isFalse();
        transfer.answer(new TransferSubscriptionsResponse(header(),
                new TransferResult[] {new TransferResult(StatusCode.GOOD, new long[] {1, 2})}, null));

        assertThat(replaced).isCompleted();
        server.take(RepublishRequest.class).answer(new RepublishResponse(header(), message(2, item, 2)));
        assertThat(values).containsExactly(1, 2);
        assertThat(s.subscriptionId()).isEqualTo(1);
        publish(data(1, 3, new long[] {3}, item, 3));
        assertThat(values).containsExactly(1, 2, 3);
    }

    @Test
    void a_subscription_whose_transfer_fails_is_recreated_with_its_items_modes_and_triggering_and_keeps_its_listeners() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem trigger = dataItem(s, 11, values);
        ClientMonitoredItem triggered = dataItem(s, 12, values);
        CompletableFuture<List<StatusCode>> mode = s.setMonitoringMode(MonitoringMode.Sampling, List.of(triggered));
        server.take(SetMonitoringModeRequest.class).answer(
                new SetMonitoringModeResponse(header(), new StatusCode[] {StatusCode.GOOD}, null));
        assertThat(mode.join()).containsExactly(StatusCode.GOOD);
        CompletableFuture<ClientSubscription.TriggeringResults> link = s.setTriggering(trigger, List.of(triggered),
                List.of());
        ScriptedInvoker.Call linkCall = server.take(SetTriggeringRequest.class);
        SetTriggeringRequest linkRequest = (SetTriggeringRequest) linkCall.request;
        assertThat(linkRequest.triggeringItemId()).isEqualTo(11);
        assertThat(linkRequest.linksToAdd()).containsExactly(12L);
        linkCall.answer(new SetTriggeringResponse(header(), new StatusCode[] {StatusCode.GOOD}, null, new StatusCode[0],
                null));
        assertThat(link.join().addResults()).containsExactly(StatusCode.GOOD);
        assertThat(trigger.triggeredItems()).containsExactly(triggered);
        subscriptions.connectionLost();
        failPublishes(StatusCodes.BadConnectionClosed);

        CompletableFuture<Void> replaced = subscriptions.sessionReplaced();
        server.take(TransferSubscriptionsRequest.class).answer(new TransferSubscriptionsResponse(header(),
                new TransferResult[] {new TransferResult(StatusCode.of(StatusCodes.BadSubscriptionIdInvalid), null)},
                null));

        ScriptedInvoker.Call again = server.take(CreateSubscriptionRequest.class);
        assertThat(((CreateSubscriptionRequest) again.request).requestedPublishingInterval()).isEqualTo(100);
        answerCreateSubscription(again, 7);
        ScriptedInvoker.Call items = server.take(CreateMonitoredItemsRequest.class);
        CreateMonitoredItemsRequest itemsRequest = (CreateMonitoredItemsRequest) items.request;
        assertThat(itemsRequest.subscriptionId()).isEqualTo(7);
        assertThat(itemsRequest.itemsToCreate()).extracting(r -> r.requestedParameters().clientHandle())
                .containsExactly((long) trigger.clientHandle(), (long) triggered.clientHandle());
        assertThat(itemsRequest.itemsToCreate()).extracting(r -> r.monitoringMode())
                .containsExactly(MonitoringMode.Reporting, MonitoringMode.Sampling);
        items.answer(new CreateMonitoredItemsResponse(header(), new MonitoredItemCreateResult[] {
                created(21), created(22)}, null));
        ScriptedInvoker.Call relink = server.take(SetTriggeringRequest.class);
        SetTriggeringRequest relinkRequest = (SetTriggeringRequest) relink.request;
        assertThat(relinkRequest.subscriptionId()).isEqualTo(7);
        assertThat(relinkRequest.triggeringItemId()).isEqualTo(21);
        assertThat(relinkRequest.linksToAdd()).containsExactly(22L);
        assertThat(server.pending(PublishRequest.class)).as("publishing waits for the rebuild").isZero();
        relink.answer(new SetTriggeringResponse(header(), new StatusCode[] {StatusCode.GOOD}, null, null, null));

        assertThat(replaced).isCompleted();
        assertThat(s.subscriptionId()).isEqualTo(7);
        assertThat(trigger.serverId()).isEqualTo(21);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(3);
        publish(data(7, 1, new long[] {1}, trigger, 99));
        assertThat(values).containsExactly(99);
    }

    @Test
    void when_the_server_refuses_transfer_subscriptions_every_subscription_is_recreated() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        dataItem(s, 11, values);

        CompletableFuture<Void> replaced = subscriptions.sessionReplaced();
        server.take(TransferSubscriptionsRequest.class).fail(StatusCodes.BadServiceUnsupported);
        answerCreateSubscription(server.take(CreateSubscriptionRequest.class), 5);
        server.take(CreateMonitoredItemsRequest.class).answer(new CreateMonitoredItemsResponse(header(),
                new MonitoredItemCreateResult[] {created(31)}, null));

        assertThat(replaced).isCompleted();
        assertThat(s.subscriptionId()).isEqualTo(5);
        assertThat(s.items()).extracting(ClientMonitoredItem::serverId).containsExactly(31L);
    }

    @Test
    void a_recreate_uses_what_modify_set_publishing_mode_and_delete_left_in_the_record() {
        ClientSubscription s = subscribe(1);
        ClientMonitoredItem kept = dataItem(s, 11, new ArrayList<>());
        ClientMonitoredItem deleted = dataItem(s, 12, new ArrayList<>());

        CompletableFuture<Void> modified = s.modify(SubscriptionParameters.ofInterval(250).withPriority(7));
        server.take(ModifySubscriptionRequest.class).answer(new ModifySubscriptionResponse(header(), 500, 60, 20));
        modified.join();
        CompletableFuture<Void> paused = s.setPublishingMode(false);
        server.take(SetPublishingModeRequest.class).answer(
                new SetPublishingModeResponse(header(), new StatusCode[] {StatusCode.GOOD}, null));
        paused.join();
        CompletableFuture<Void> gone = deleted.delete();
        server.take(DeleteMonitoredItemsRequest.class).answer(
                new DeleteMonitoredItemsResponse(header(), new StatusCode[] {StatusCode.GOOD}, null));
        gone.join();

        assertThat(s.revisedPublishingInterval()).isEqualTo(500);
        assertThat(s.items()).containsExactly(kept);
        CompletableFuture<Void> recreated = subscriptions.recreateAll();
        ScriptedInvoker.Call create = server.take(CreateSubscriptionRequest.class);
        CreateSubscriptionRequest request = (CreateSubscriptionRequest) create.request;
        assertThat(request.requestedPublishingInterval()).isEqualTo(250);
        assertThat(request.priority()).isEqualTo((short) 7);
        assertThat(request.publishingEnabled()).isFalse();
        answerCreateSubscription(create, 2);
        CreateMonitoredItemsRequest items = server.takeRequest(CreateMonitoredItemsRequest.class);
        assertThat(items.itemsToCreate()).extracting(r -> r.requestedParameters().clientHandle())
                .containsExactly((long) kept.clientHandle());
        assertThat(recreated).isNotCompleted();
    }

    @Test
    void close_deletes_the_subscriptions_and_stops_publishing() {
        subscribe(1);
        subscribe(2);
        CompletableFuture<Void> closed = subscriptions.close();
        assertThat(server.takeRequest(DeleteSubscriptionsRequest.class).subscriptionIds()).containsExactly(1L, 2L);
        failPublishes(StatusCodes.BadNoSubscription);
        assertThat(closed).isNotCompleted();
        assertThat(subscriptions.list()).isEmpty();
        assertThat(server.pending(PublishRequest.class)).isZero();
    }
}
