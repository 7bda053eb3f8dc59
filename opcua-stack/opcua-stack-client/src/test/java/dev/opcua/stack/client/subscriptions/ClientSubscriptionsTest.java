package dev.opcua.stack.client.subscriptions;

import dev.opcua.stack.client.testing.ManualTimer;
import static dev.opcua.stack.client.subscriptions.ScriptedInvoker.header;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.CreateSubscriptionResponse;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.DeleteMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.DeleteMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.DeleteSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.ModifySubscriptionRequest;
import dev.opcua.stack.core.types.structured.ModifySubscriptionResponse;
import dev.opcua.stack.core.types.structured.SetPublishingModeRequest;
import dev.opcua.stack.core.types.structured.SetPublishingModeResponse;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import dev.opcua.stack.core.types.structured.MonitoredItemNotification;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.RepublishRequest;
import dev.opcua.stack.core.types.structured.RepublishResponse;
import dev.opcua.stack.core.types.structured.SetMonitoringModeRequest;
import dev.opcua.stack.core.types.structured.SetMonitoringModeResponse;
import dev.opcua.stack.core.types.structured.SetTriggeringRequest;
import dev.opcua.stack.core.types.structured.SetTriggeringResponse;
import dev.opcua.stack.core.types.structured.StatusChangeNotification;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import dev.opcua.stack.core.types.structured.TransferResult;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.TransferSubscriptionsResponse;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The Publish pipeline, sequencing, watchdog, listener delivery and reconnect hooks of
 * {@link ClientSubscriptions} against a {@link ScriptedInvoker}: the test plays the server, request
 * by request.
 */
class ClientSubscriptionsTest {

    private final ScriptedInvoker server = new ScriptedInvoker();
    private final ManualTimer timer = new ManualTimer();
    private final Queue<Runnable> listenerTasks = new ArrayDeque<>();
    private boolean runListenersInline = true;
    private final Executor listenerExecutor = task -> {
        if (runListenersInline) {
            task.run();
        } else {
            listenerTasks.add(task);
        }
    };
    private ClientSubscriptions subscriptions = newSubscriptions(SubscriptionSettings.builder()
            .requestTimeout(Duration.ofSeconds(1)).build());

    private ClientSubscriptions newSubscriptions(SubscriptionSettings settings) {
        return new ClientSubscriptions(server, settings, listenerExecutor, timer, timer::nanoTime);
    }

    @Test
    void thePipelineKeepsOneMorePublishThanSubscriptionsAtLeastTwoAndRefillsInPairs() {
        assertThat(server.pending(PublishRequest.class)).isZero();
        subscribe(1);
        assertThat(subscriptions.publishRequestTarget()).isEqualTo(2);
        assertThat(server.pending(PublishRequest.class)).as("the target and one more").isEqualTo(3);

        publish(keepAlive(1, 1, null));
        assertThat(server.pending(PublishRequest.class)).as("still the target: nothing sent").isEqualTo(2);
        assertThat(server.sent(PublishRequest.class)).hasSize(3);
        publish(keepAlive(1, 1, null));
        assertThat(server.sent(PublishRequest.class)).as("below the target: two sent").hasSize(5);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(3);

        subscribe(2);
        assertThat(subscriptions.publishRequestTarget()).isEqualTo(3);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(3);
        assertThat(subscriptions.publishRequestsOutstanding()).isEqualTo(3);
        publish(keepAlive(1, 1, null));
        assertThat(server.pending(PublishRequest.class)).as("refilled to the target and one more").isEqualTo(4);
    }

    @Test
    void atTheMaximumThePipelineRefillsOneAtATime() {
        subscriptions = newSubscriptions(SubscriptionSettings.builder().maxPublishRequests(2).build());
        subscribe(1);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(2);
        publish(keepAlive(1, 1, null));
        assertThat(server.pending(PublishRequest.class)).isEqualTo(2);
        assertThat(server.sent(PublishRequest.class)).hasSize(3);
    }

    @Test
    void theNumberOfPublishRequestsNeverExceedsTheSetting() {
        subscriptions = newSubscriptions(SubscriptionSettings.builder().maxPublishRequests(2).build());
        subscribe(1);
        subscribe(2);
        subscribe(3);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(2);
    }

    @Test
    void everyNotificationMessageIsAcknowledgedInTheNextPublish() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 1, new long[] {1}, item, 42));
        publish(keepAlive(1, 2, null));

        assertThat(values).containsExactly(42);
        PublishRequest next = server.sent(PublishRequest.class).get(3);
        assertThat(next.subscriptionAcknowledgements()).extracting(SubscriptionAcknowledgement::subscriptionId,
                SubscriptionAcknowledgement::sequenceNumber).containsExactly(tuple(1L, 1L));
        assertThat(subscriptions.notificationsReceived()).isEqualTo(1);
    }

    @Test
    void aGapIsFilledWithRepublishAndTheListenerSeesValuesInSequenceOrder() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 1, new long[] {1}, item, 1));
        publish(data(1, 3, new long[] {2, 3}, item, 3));

        assertThat(values).as("3 waits for 2").containsExactly(1);
        ScriptedInvoker.Call republish = server.take(RepublishRequest.class);
        assertThat(((RepublishRequest) republish.request).retransmitSequenceNumber()).isEqualTo(2);
        republish.answer(new RepublishResponse(header(), message(2, item, 2)));

        assertThat(values).containsExactly(1, 2, 3);
        assertThat(subscriptions.republished()).isEqualTo(1);
        publish(keepAlive(1, 4, new long[] {}));
        publish(keepAlive(1, 4, new long[] {}));
        List<Long> acknowledged = server.sent(PublishRequest.class).stream()
                .flatMap(p -> Arrays.stream(p.subscriptionAcknowledgements())).map(SubscriptionAcknowledgement::sequenceNumber)
                .toList();
        assertThat(acknowledged).contains(1L, 2L, 3L);
    }

    @Test
    void aMissingNumberTheServerNoLongerHoldsCountsAsLostWithoutRepublish() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 1, new long[] {1}, item, 1));
        publish(data(1, 3, new long[] {3}, item, 3));

        assertThat(server.pending(RepublishRequest.class)).isZero();
        assertThat(values).containsExactly(1, 3);
        assertThat(subscriptions.lostSequenceNumbers()).isEqualTo(1);
    }

    @Test
    void badMessageNotAvailableForARepublishCountsAsLostAndReleasesTheMessagesAfterIt() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 2, new long[] {1, 2}, item, 2));
        server.take(RepublishRequest.class).fail(StatusCodes.BadMessageNotAvailable);

        assertThat(values).containsExactly(2);
        assertThat(subscriptions.lostSequenceNumbers()).isEqualTo(1);
    }

    @Test
    void aRepublishThatTimesOutIsAskedAgainWhenTheNextResponseShowsTheGap() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 2, new long[] {1, 2}, item, 2));
        server.take(RepublishRequest.class).fail(StatusCodes.BadTimeout);
        assertThat(subscriptions.lostSequenceNumbers()).isZero();

        publish(keepAlive(1, 3, new long[] {1}));
        server.take(RepublishRequest.class).answer(new RepublishResponse(header(), message(1, item, 1)));
        assertThat(values).containsExactly(1, 2);
    }

    @Test
    void aSequenceNumberReceivedTwiceIsDeliveredOnce() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 1, new long[] {1}, item, 1));
        publish(data(1, 1, new long[] {1}, item, 1)); // the server sent it again (its acknowledgement was lost)
        publish(data(1, 2, new long[] {1, 2}, item, 2));

        assertThat(values).containsExactly(1, 2);
        assertThat(server.pending(RepublishRequest.class)).isZero();
    }

    @Test
    void aRepublishedMessageThatAPublishBroughtMeanwhileIsDeliveredOnce() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);

        publish(data(1, 1, new long[] {1}, item, 1));
        publish(data(1, 3, new long[] {2, 3}, item, 3));
        ScriptedInvoker.Call republish = server.take(RepublishRequest.class);
        publish(data(1, 2, new long[] {2}, item, 2)); // the late Publish response with 2 overtakes the Republish
        republish.answer(new RepublishResponse(header(), message(2, item, 2)));
        publish(data(1, 4, new long[] {4}, item, 4));

        assertThat(values).containsExactly(1, 2, 3, 4);
        assertThat(subscriptions.lostSequenceNumbers()).isZero();
    }

    @Test
    void badTooManyPublishRequestsCapsThePipelineAtWhatTheServerStillHoldsAndSendsNoReplacement() {
        subscribe(1);
        subscribe(2);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(3);

        server.take(PublishRequest.class).fail(StatusCodes.BadTooManyPublishRequests);

        assertThat(subscriptions.publishRequestTarget()).isEqualTo(2);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(2);
        server.take(PublishRequest.class).fail(StatusCodes.BadTooManyPublishRequests);
        server.take(PublishRequest.class).fail(StatusCodes.BadTooManyPublishRequests);
        assertThat(subscriptions.publishRequestTarget()).as("never below 1").isEqualTo(1);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(1);
    }

    @Test
    void badTimeoutSendsThePublishAgainAtOnce() {
        subscribe(1);
        server.take(PublishRequest.class).fail(StatusCodes.BadTimeout);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(2);
    }

    @Test
    void anotherFailureSendsThePublishAgainAfterTheRetryDelay() {
        subscribe(1);
        server.take(PublishRequest.class).fail(StatusCodes.BadSecureChannelClosed);
        server.take(PublishRequest.class).fail(StatusCodes.BadSecureChannelClosed);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(1);
        timer.advance(999);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(1);
        timer.advance(1);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(3);
    }

    @Test
    void badNoSubscriptionStopsThePipelineUntilASubscriptionIsCreated() {
        subscribe(1);
        failPublishes(StatusCodes.BadNoSubscription);
        assertThat(server.pending(PublishRequest.class)).isZero();

        subscribe(2);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(4);
    }

    @Test
    void aSessionTheServerNoLongerKnowsIsReportedOnceAndPublishingPauses() {
        subscribe(1);
        List<StatusCode> reported = new ArrayList<>();
        subscriptions.setOnSessionInvalid(reported::add);

        failPublishes(StatusCodes.BadSessionIdInvalid);

        assertThat(reported).containsExactly(StatusCode.of(StatusCodes.BadSessionIdInvalid));
        assertThat(server.pending(PublishRequest.class)).isZero();
    }

    @Test
    void thePublishTimeoutHintIsTwiceTheKeepAlivePeriodWhenThatExceedsTheRequestTimeout() {
        subscribe(1); // 100 ms × 10 × 2 = 2 s > 1 s request timeout
        assertThat(server.take(PublishRequest.class).timeoutMillis).isEqualTo(2000);
        assertThat(server.sent(PublishRequest.class).get(0).requestHeader().timeoutHint()).isEqualTo(2000);
    }

    @Test
    void theWatchdogReportsASilentServerOnceAfterTheKeepAlivePeriodAndTheMargin() {
        subscribe(1); // 100 ms × (10 + 1) + 1 s = 2.1 s
        AtomicInteger silent = new AtomicInteger();
        subscriptions.setOnServerSilent(silent::incrementAndGet);

        timer.advance(1500);
        publish(keepAlive(1, 1, null));
        timer.advance(2000);
        assertThat(silent).as("a keep-alive 2 s ago").hasValue(0);

        timer.advance(200);
        assertThat(silent).hasValue(1);
        timer.advance(10_000);
        assertThat(silent).as("once per silence").hasValue(1);

        publish(keepAlive(1, 1, null));
        timer.advance(2200);
        assertThat(silent).as("silent again after a response").hasValue(2);
    }

    @Test
    void theWatchdogSleepsWhileTheConnectionIsLost() {
        subscribe(1);
        AtomicInteger silent = new AtomicInteger();
        subscriptions.setOnServerSilent(silent::incrementAndGet);
        subscriptions.connectionLost();
        timer.advance(60_000);
        assertThat(silent).hasValue(0);
        assertThat(timer.pending()).isZero();
    }

    @Test
    void aSlowListenerNeverHoldsUpPublishingAndTheOverflowIsDroppedAndCounted() {
        subscriptions = newSubscriptions(SubscriptionSettings.builder().maxQueuedNotifications(5).build());
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        runListenersInline = false;

        publish(data(1, 1, new long[] {1}, item, 1, 2, 3));
        publish(data(1, 2, new long[] {2}, item, 4, 5, 6, 7));

        assertThat(values).isEmpty();
        assertThat(server.pending(PublishRequest.class)).as("pipeline refilled").isEqualTo(3);
        assertThat(subscriptions.droppedNotifications()).isEqualTo(2);
        runListenerTasks();
        assertThat(values).containsExactly(1, 2, 3, 4, 5);
        assertThat(s.queuedNotifications()).isZero();
    }

    @Test
    void aListenerThatThrowsIsCountedAndKeepsReceiving() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, v -> {
            values.add(v);
            throw new IllegalStateException("listener bug (expected by the test)");
        });

        publish(data(1, 1, new long[] {1}, item, 1, 2));

        assertThat(values).containsExactly(1, 2);
        assertThat(subscriptions.listenerErrors()).isEqualTo(2);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(2);
    }

    @Test
    void aStatusChangeNotificationReachesTheStatusListener() {
        ClientSubscription s = subscribe(1);
        List<StatusCode> statuses = new ArrayList<>();
        s.setStatusListener((sub, status) -> statuses.add(status));
        NotificationMessage m = new NotificationMessage(1, DateTime.now(), new ExtensionObject[] {
                ExtensionObject.of(new StatusChangeNotification(StatusCode.of(StatusCodes.BadTimeout), null))});

        publish(new PublishResponse(header(), 1, new long[] {1}, false, m, null, null));

        assertThat(statuses).containsExactly(StatusCode.of(StatusCodes.BadTimeout));
        assertThat(s.status()).isEqualTo(StatusCode.of(StatusCodes.BadTimeout));
    }

    @Test
    void aSubscriptionTheServerReportsExpiredIsRecreatedWithItsItemsAndKeepsDelivering() {
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
    void sequenceNumbersThatWrapFrom4294967295To1AreDeliveredInOrderAndAGapAcrossTheWrapIsRepublished() {
        ClientSubscription s = subscribe(1);
        List<Object> values = new ArrayList<>();
        ClientMonitoredItem item = dataItem(s, 11, values);
        s.deliveredUpTo(4_294_967_294L);

        publish(data(1, 4_294_967_295L, new long[] {4_294_967_295L}, item, 1));
        publish(data(1, 1, new long[] {1}, item, 2));
        publish(data(1, 3, new long[] {2, 3}, item, 4)); // 2 went missing
        ScriptedInvoker.Call republish = server.take(RepublishRequest.class);
        assertThat(((RepublishRequest) republish.request).retransmitSequenceNumber()).isEqualTo(2);
        republish.answer(new RepublishResponse(header(), message(2, item, 3)));

        assertThat(values).containsExactly(1, 2, 3, 4);
        assertThat(subscriptions.lostSequenceNumbers()).isZero();
        assertThat(server.sent(PublishRequest.class)).flatExtracting(r -> r.subscriptionAcknowledgements() == null
                ? List.of() : List.of(r.subscriptionAcknowledgements()))
                .extracting(a -> ((SubscriptionAcknowledgement) a).sequenceNumber())
                .contains(4_294_967_295L, 1L);
    }

    @Test
    void afterReactivationPublishingResumesAndWhatWasLostInFlightIsRepublished() {
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
    void aTransferredSubscriptionRepublishesWhatTheServerHoldsBeyondTheLastNumberReceived() {
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
    void aSubscriptionWhoseTransferFailsIsRecreatedWithItsItemsModesAndTriggeringAndKeepsItsListeners() {
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
    void whenTheServerRefusesTransferSubscriptionsEverySubscriptionIsRecreated() {
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
    void aRecreateUsesWhatModifySetPublishingModeAndDeleteLeftInTheRecord() {
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
    void closeDeletesTheSubscriptionsAndStopsPublishing() {
        subscribe(1);
        subscribe(2);
        CompletableFuture<Void> closed = subscriptions.close();
        assertThat(server.takeRequest(DeleteSubscriptionsRequest.class).subscriptionIds()).containsExactly(1L, 2L);
        failPublishes(StatusCodes.BadNoSubscription);
        assertThat(closed).isNotCompleted();
        assertThat(subscriptions.list()).isEmpty();
        assertThat(server.pending(PublishRequest.class)).isZero();
    }

    // ---- the scripted server ----------------------------------------------------------------------

    private ClientSubscription subscribe(long id) {
        CompletableFuture<ClientSubscription> created = subscriptions.create(SubscriptionParameters.ofInterval(100));
        answerCreateSubscription(server.take(CreateSubscriptionRequest.class), id);
        return created.join();
    }

    private static void answerCreateSubscription(ScriptedInvoker.Call call, long id) {
        CreateSubscriptionRequest request = (CreateSubscriptionRequest) call.request;
        call.answer(new CreateSubscriptionResponse(header(), id, request.requestedPublishingInterval(), 30, 10));
    }

    private ClientMonitoredItem dataItem(ClientSubscription s, long serverId, List<Object> values) {
        return dataItem(s, serverId, values::add);
    }

    private ClientMonitoredItem dataItem(ClientSubscription s, long serverId, Consumer<Object> sink) {
        CompletableFuture<ClientMonitoredItem> item = s.createDataItem(DataItemRequest.of(NodeId.string(2, "v" + serverId),
                100, (i, v) -> sink.accept(v.value().value())));
        server.take(CreateMonitoredItemsRequest.class).answer(new CreateMonitoredItemsResponse(header(),
                new MonitoredItemCreateResult[] {created(serverId)}, null));
        return item.join();
    }

    private static MonitoredItemCreateResult created(long serverId) {
        return new MonitoredItemCreateResult(StatusCode.GOOD, serverId, 100, 1, ExtensionObject.NULL);
    }

    private void publish(PublishResponse response) {
        server.take(PublishRequest.class).answer(response);
    }

    private void failPublishes(int statusCode) {
        while (server.pending(PublishRequest.class) > 0) {
            server.take(PublishRequest.class).fail(statusCode);
        }
    }

    private void runListenerTasks() {
        Runnable task;
        while ((task = listenerTasks.poll()) != null) {
            task.run();
        }
    }

    private static PublishResponse data(long subscriptionId, long seq, long[] available, ClientMonitoredItem item,
            int... values) {
        return new PublishResponse(header(), subscriptionId, available, false, message(seq, item, values), null, null);
    }

    private static PublishResponse keepAlive(long subscriptionId, long nextSeq, long[] available) {
        return new PublishResponse(header(), subscriptionId, available, false,
                new NotificationMessage(nextSeq, DateTime.now(), new ExtensionObject[0]), null, null);
    }

    private static NotificationMessage message(long seq, ClientMonitoredItem item, int... values) {
        MonitoredItemNotification[] n = new MonitoredItemNotification[values.length];
        for (int i = 0; i < values.length; i++) {
            n[i] = new MonitoredItemNotification(item.clientHandle(), DataValue.of(Variant.ofInt32(values[i])));
        }
        return new NotificationMessage(seq, DateTime.now(), new ExtensionObject[] {
                ExtensionObject.of(new DataChangeNotification(n, null))});
    }
}
