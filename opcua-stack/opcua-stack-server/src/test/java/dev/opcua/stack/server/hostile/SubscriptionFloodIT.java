package dev.opcua.stack.server.hostile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.MonitoringMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsRequest;
import dev.opcua.stack.core.types.structured.CreateMonitoredItemsResponse;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.CreateSubscriptionResponse;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateRequest;
import dev.opcua.stack.core.types.structured.MonitoredItemCreateResult;
import dev.opcua.stack.core.types.structured.MonitoringParameters;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import dev.opcua.stack.server.subscriptions.SubscriptionSettings;
import dev.opcua.stack.server.subscriptions.SubscriptionStatistics;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.TestSessions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Publish, subscription and monitored-item floods past the limits (Part 4, 5.13.5, 5.13.2 and 5.12.2):
 * BadTooManyPublishRequests for the oldest parked Publish, BadTooManySubscriptions, and
 * BadTooManyMonitoredItems per item, each counted in the subscription statistics, while the
 * well-behaved client reads.
 */
class SubscriptionFloodIT {

    private static final int MAX_PUBLISH_REQUESTS = 3;
    private static final int MAX_SUBSCRIPTIONS_PER_SESSION = 2;
    private static final int MAX_ITEMS_PER_SUBSCRIPTION = 5;

    private static HostileServer server;

    private UaTcpClientChannel flooder;
    private NodeId session;

    @BeforeAll
    static void start() throws Exception {
        LeakWatch.install();
        server = HostileServer.start(b -> b.subscriptionSettings(SubscriptionSettings.builder()
                .maxPublishRequestsPerSession(MAX_PUBLISH_REQUESTS)
                .maxSubscriptionsPerSession(MAX_SUBSCRIPTIONS_PER_SESSION)
                .maxMonitoredItemsPerSubscription(MAX_ITEMS_PER_SUBSCRIPTION)
                .build())).withGoodClient();
    }

    @AfterAll
    static void stop() throws Exception {
        server.close();
        LeakWatch.assertNoLeaks();
    }

    @BeforeEach
    void connectFlooder() throws Exception {
        flooder = server.connect();
        session = TestSessions.open(flooder, server.endpointUrl());
    }

    @AfterEach
    void closeFlooder() throws Exception {
        server.assertGoodClientServed();
        flooder.close().get(10, TimeUnit.SECONDS);
    }

    private SubscriptionStatistics statistics() {
        return server.server().statistics().subscriptions();
    }

    @Test
    void a_publish_flood_pushes_out_the_oldest_parked_requests_with_too_many_publish_requests() throws Exception {
        long before = statistics().publishRequestsRejected();
        createSubscription().get(20, TimeUnit.SECONDS);
        List<CompletableFuture<PublishResponse>> flood = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            flood.add(flooder.request(new PublishRequest(TestSessions.header(session),
                    new SubscriptionAcknowledgement[0]), PublishResponse.class));
        }
        server.assertGoodClientServed();

        HostileServer.await("the flood beyond the parking places was refused",
                () -> statistics().publishRequestsRejected() - before >= 12 - MAX_PUBLISH_REQUESTS - 1);
        HostileServer.await("every refusal reached the client", () -> refusedCount(flood)
                == statistics().publishRequestsRejected() - before);
        assertThat(flood.stream().map(ServiceCalls::serviceResult))
                .as("each Publish is parked, answered, or refused as too many")
                .allMatch(status -> status == -1 || status == StatusCodes.Good
                        || status == StatusCodes.BadTooManyPublishRequests);
    }

    @Test
    void subscriptions_past_the_sessions_limit_are_refused_with_too_many_subscriptions() throws Exception {
        long before = statistics().subscriptionsRejected();
        List<CompletableFuture<CreateSubscriptionResponse>> flood = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            flood.add(createSubscription());
        }
        CompletableFuture.allOf(flood.stream().map(f -> f.handle((r, e) -> null))
                .toArray(CompletableFuture[]::new)).get(20, TimeUnit.SECONDS);

        assertThat(flood.stream().filter(f -> ServiceCalls.serviceResult(f) == StatusCodes.Good))
                .hasSize(MAX_SUBSCRIPTIONS_PER_SESSION);
        assertThat(flood.stream().filter(f -> ServiceCalls.serviceResult(f) == StatusCodes.BadTooManySubscriptions))
                .hasSize(5 - MAX_SUBSCRIPTIONS_PER_SESSION);
        assertThat(statistics().subscriptionsRejected() - before).isEqualTo(5 - MAX_SUBSCRIPTIONS_PER_SESSION);
    }

    @Test
    void monitored_items_past_the_subscriptions_limit_are_refused_with_too_many_monitored_items() throws Exception {
        long before = statistics().monitoredItemsRejected();
        long subscriptionId = createSubscription().get(20, TimeUnit.SECONDS).subscriptionId();
        MonitoredItemCreateRequest[] items = new MonitoredItemCreateRequest[8];
        for (int i = 0; i < items.length; i++) {
            items[i] = new MonitoredItemCreateRequest(new ReadValueId(NodeId.ns0(NodeIds.Server_ServerStatus_State),
                    AttributeIds.Value, null, QualifiedName.NULL), MonitoringMode.Reporting,
                    new MonitoringParameters(i, 1_000, null, 1, true));
        }

        MonitoredItemCreateResult[] results = flooder.request(new CreateMonitoredItemsRequest(
                TestSessions.header(session), subscriptionId, TimestampsToReturn.Neither, items),
                CreateMonitoredItemsResponse.class).get(20, TimeUnit.SECONDS).results();

        assertThat(Arrays.stream(results).filter(r -> r.statusCode().isGood())).hasSize(MAX_ITEMS_PER_SUBSCRIPTION);
        assertThat(Arrays.stream(results).filter(r -> r.statusCode().value() == StatusCodes.BadTooManyMonitoredItems))
                .hasSize(items.length - MAX_ITEMS_PER_SUBSCRIPTION);
        assertThat(statistics().monitoredItemsRejected() - before).isEqualTo(items.length - MAX_ITEMS_PER_SUBSCRIPTION);
    }

    private CompletableFuture<CreateSubscriptionResponse> createSubscription() {
        // 1 s publishing, keep-alive every 10 s: Publish requests stay parked during the test
        return flooder.request(new CreateSubscriptionRequest(TestSessions.header(session), 1_000, 300, 10, 0, true,
                (short) 0), CreateSubscriptionResponse.class);
    }

    private static long refusedCount(List<CompletableFuture<PublishResponse>> flood) {
        return flood.stream().filter(f -> ServiceCalls.serviceResult(f) == StatusCodes.BadTooManyPublishRequests)
                .count();
    }
}
