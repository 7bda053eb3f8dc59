package dev.opcua.benchmarks.load;

import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.CreateSubscriptionResponse;
import dev.opcua.stack.core.types.structured.DataChangeNotification;
import dev.opcua.stack.core.types.structured.EventNotificationList;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import dev.opcua.stack.core.types.structured.NotificationMessage;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.StatusChangeNotification;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import io.netty.util.Timer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * One subscriber session of the {@code sub} or {@code events} scenario: creates its subscriptions
 * (Part 4, 5.13.2) and their data-change or event monitored items (Part 4, 5.12.2) with raw requests,
 * then keeps a fixed number of
 * Publish requests (Part 4, 5.13.5) outstanding. Each response is tallied by its subscription, its
 * NotificationMessage acknowledged in the next Publish request, and a new Publish sent, until the
 * run stops.
 */
final class SubscriberSession implements Subscriber {

    /** Items per CreateMonitoredItems request: below every server's MaxMonitoredItemsPerCall we know. */
    private static final int ITEMS_PER_CALL = 1000;
    private static final long SETUP_TIMEOUT_S = 30;
    /** Requested keep-alive count: a keep-alive after 10 publishing intervals without data. */
    private static final long KEEP_ALIVE_COUNT = 10;
    private static final long LIFETIME_COUNT = 1000;
    private static final long RETRY_DELAY_MS = 10;

    private final LoadSession session;
    private final WriteSequence values;
    private final SubMetrics metrics;
    private final Timer timer;
    private final Map<Long, SubscriptionTally> tallies = new HashMap<>();
    private final ConcurrentLinkedQueue<SubscriptionAcknowledgement> acks = new ConcurrentLinkedQueue<>();
    private double revisedPublishingMs;
    private long revisedKeepAliveCount;
    private double revisedSamplingMs = Double.NaN;
    private long publishTimeoutMs;
    private CountDownLatch stopped;

    SubscriberSession(LoadSession session, WriteSequence values, SubMetrics metrics, Timer timer) {
        this.session = session;
        this.values = values;
        this.metrics = metrics;
        this.timer = timer;
    }

    LoadSession session() {
        return session;
    }

    @Override
    public List<SubscriptionTally> tallies() {
        return new ArrayList<>(tallies.values());
    }

    @Override
    public double revisedPublishingMs() {
        return revisedPublishingMs;
    }

    @Override
    public double revisedSamplingMs() {
        return revisedSamplingMs;
    }

    @Override
    public long keepAliveMs() {
        return (long) Math.ceil(revisedPublishingMs * revisedKeepAliveCount);
    }

    /**
     * Creates one subscription with {@code items} (clientHandle {@code i} for {@code items[i]}, which
     * gets the writer's values of slot {@code slots[i]}), before publishing starts.
     *
     * @throws IllegalStateException naming the request and the status when the server refuses one
     */
    void subscribe(double publishingMs, MonitoredItemCreateRequest[] items, int[] slots) throws Exception {
        subscribe(publishingMs, items, slots, ITEMS_PER_CALL, created -> { });
    }

    /**
     * {@link #subscribe(double, MonitoredItemCreateRequest[], int[])} with at most {@code perCall} items per
     * CreateMonitoredItems request (the server's MaxMonitoredItemsPerCall), telling the items each
     * request created ({@code createdItems}).
     */
    void subscribe(double publishingMs, MonitoredItemCreateRequest[] items, int[] slots, int perCall,
            java.util.function.IntConsumer createdItems) throws Exception {
        CreateSubscriptionResponse created = session.request(new CreateSubscriptionRequest(session.header(),
                publishingMs, LIFETIME_COUNT, KEEP_ALIVE_COUNT, 0, true, (short) 0), CreateSubscriptionResponse.class)
                .get(SETUP_TIMEOUT_S, TimeUnit.SECONDS);
        check("CreateSubscription", created.responseHeader().serviceResult());
        long id = created.subscriptionId();
        revisedPublishingMs = created.revisedPublishingInterval();
        revisedKeepAliveCount = created.revisedMaxKeepAliveCount();
        for (int from = 0; from < items.length; from += perCall) {
            MonitoredItemCreateRequest[] call = Arrays.copyOfRange(items, from, Math.min(items.length,
                    from + perCall));
            CreateMonitoredItemsResponse response = session.request(new CreateMonitoredItemsRequest(session.header(),
                    id, TimestampsToReturn.Both, call), CreateMonitoredItemsResponse.class)
                    .get(SETUP_TIMEOUT_S, TimeUnit.SECONDS);
            check("CreateMonitoredItems", response.responseHeader().serviceResult());
            MonitoredItemCreateResult[] results = response.results();
            if (results == null || results.length != call.length) {
                throw new IllegalStateException("CreateMonitoredItems on subscription " + id + " returned "
                        + (results == null ? 0 : results.length) + " results for " + call.length + " items");
            }
            for (int i = 0; i < results.length; i++) {
                if (!results[i].statusCode().isGood()) {
                    throw new IllegalStateException("CreateMonitoredItems refused the item on "
                            + call[i].itemToMonitor().nodeId() + ": " + results[i].statusCode());
                }
                revisedSamplingMs = results[i].revisedSamplingInterval();
            }
            createdItems.accept(call.length);
        }
        tallies.put(id, new SubscriptionTally(id, slots, values));
    }

    private static void check(String service, StatusCode result) {
        if (!result.isGood()) {
            throw new IllegalStateException(service + " failed: " + result);
        }
    }

    /**
     * Sends {@code outstanding} Publish requests; each answered one is followed by the next until the
     * phase is STOP, when it counts down {@code stopped} instead.
     */
    void startPublishing(int outstanding, CountDownLatch stopped) {
        this.stopped = stopped;
        // a Publish may be held for a keep-alive interval: its timeout must be longer
        this.publishTimeoutMs = Math.max(10_000, 2 * keepAliveMs() + 5_000);
        for (int i = 0; i < outstanding; i++) {
            publish();
        }
    }

    private void publish() {
        if (metrics.stopping() || !session.channel().isOpen()) {
            stopped.countDown();
            return;
        }
        List<SubscriptionAcknowledgement> pending = new ArrayList<>();
        SubscriptionAcknowledgement ack;
        while ((ack = acks.poll()) != null) {
            pending.add(ack);
        }
        session.request(new PublishRequest(session.header(publishTimeoutMs),
                pending.toArray(new SubscriptionAcknowledgement[0])), PublishResponse.class)
                .whenComplete((response, failure) -> {
                    long now = System.nanoTime();
                    if (failure != null) {
                        metrics.error("Publish", failure);
                    } else if (received(response, now)) {
                        publish();
                        return;
                    }
                    // a server that refuses at once is not hammered in a tight loop; acknowledgements
                    // sent with a failed Publish are lost, harmless for the measurement
                    timer.newTimeout(t -> publish(), RETRY_DELAY_MS, TimeUnit.MILLISECONDS);
                });
    }

    /** Tallies a response; false when the Publish was refused. */
    private boolean received(PublishResponse response, long now) {
        StatusCode result = response.responseHeader().serviceResult();
        if (!result.isGood()) {
            metrics.error("Publish", result);
            return false;
        }
        if (response.results() != null) {
            for (StatusCode ackResult : response.results()) {
                if (!ackResult.isGood()) {
                    metrics.error("Acknowledge", ackResult);
                }
            }
        }
        NotificationMessage message = response.notificationMessage();
        ExtensionObject[] data = message == null ? null : message.notificationData();
        if (data == null || data.length == 0) {
            metrics.keepAlive();
            return true;
        }
        acks.add(new SubscriptionAcknowledgement(response.subscriptionId(), message.sequenceNumber()));
        SubscriptionTally tally = tallies.get(response.subscriptionId());
        if (tally != null) {
            tally.recordSequenceNumber(message.sequenceNumber());
        }
        for (ExtensionObject body : data) {
            Object decoded = body.decoded();
            if (decoded instanceof DataChangeNotification change) {
                if (change.monitoredItems() != null) {
                    metrics.notifications(change.monitoredItems().length);
                    if (tally != null) {
                        tally.recordDataChanges(change.monitoredItems(), now,
                                SubscriptionTally.epochNanos(Instant.now()));
                    }
                }
            } else if (decoded instanceof EventNotificationList list) {
                if (list.events() != null) {
                    metrics.notifications(list.events().length);
                    if (tally != null) {
                        tally.recordEvents(list.events(), now);
                    }
                }
            } else if (decoded instanceof StatusChangeNotification status) {
                metrics.error("StatusChange", status.status());
            } else {
                metrics.error("Publish:unexpected_" + (decoded == null ? body.encodingId() : decoded.getClass()
                        .getSimpleName()));
            }
        }
        if (tally == null) {
            metrics.error("Publish:unknown_subscription_" + response.subscriptionId());
        }
        return true;
    }
}
