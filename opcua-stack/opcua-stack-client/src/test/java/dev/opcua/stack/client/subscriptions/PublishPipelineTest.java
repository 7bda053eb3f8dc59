package dev.opcua.stack.client.subscriptions;

import static dev.opcua.stack.client.subscriptions.ScriptedInvoker.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.PublishResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The Publish requests of {@link PublishPipeline}: how many stay outstanding, what each failure does, the
 * timeoutHint, and the watchdog of a silent server; the test plays the server request by request.
 */
class PublishPipelineTest extends ScriptedServerFixture {

    @Test
    void the_pipeline_keeps_one_more_publish_than_subscriptions_at_least_two_and_refills_in_pairs() {
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
    void responses_with_more_notifications_are_counted() {
        ClientSubscription s = subscribe(1);
        ClientMonitoredItem item = dataItem(s, 11, new ArrayList<>());
        server.take(PublishRequest.class).answer(new PublishResponse(header(), 1, null, true, message(1, item, 1),
                null, null));
        publish(data(1, 2, null, item, 2));
        assertThat(subscriptions.moreNotificationsResponses()).isEqualTo(1);
        assertThat(subscriptions.publishPipelineEmptied()).as("two of three answered").isZero();
    }

    @Test
    void a_response_that_left_no_publish_outstanding_is_counted() {
        subscriptions = newSubscriptions(SubscriptionSettings.builder().maxPublishRequests(1).build());
        subscribe(1);
        publish(keepAlive(1, 1, null));
        publish(keepAlive(1, 1, null));
        assertThat(subscriptions.publishPipelineEmptied()).as("each answer left none until the next was sent")
                .isEqualTo(2);
        assertThat(subscriptions.moreNotificationsResponses()).isZero();
    }

    @Test
    void a_good_publish_answer_over_the_session_in_use_is_the_keep_alives_evidence_until_publishing_pauses() {
        assertThat(subscriptions.lastPublishAnsweredNanos()).as("none yet").isEqualTo(Long.MIN_VALUE);
        subscribe(1);
        publish(keepAlive(1, 1, null));
        long answered = subscriptions.lastPublishAnsweredNanos();
        assertThat(answered).as("stamped with the clock when answered").isEqualTo(timer.nanoTime());

        server.take(PublishRequest.class).fail(StatusCodes.BadTimeout);
        assertThat(subscriptions.lastPublishAnsweredNanos()).as("a failure is no sign of life").isEqualTo(answered);

        subscriptions.connectionLost();
        assertThat(subscriptions.lastPublishAnsweredNanos()).as("paused: the session may be gone")
                .isEqualTo(Long.MIN_VALUE);
        publish(keepAlive(1, 1, null));
        assertThat(subscriptions.lastPublishAnsweredNanos()).as("the answer of a request sent before the pause")
                .isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void at_the_maximum_the_pipeline_refills_one_at_a_time() {
        subscriptions = newSubscriptions(SubscriptionSettings.builder().maxPublishRequests(2).build());
        subscribe(1);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(2);
        publish(keepAlive(1, 1, null));
        assertThat(server.pending(PublishRequest.class)).isEqualTo(2);
        assertThat(server.sent(PublishRequest.class)).hasSize(3);
    }

    @Test
    void the_number_of_publish_requests_never_exceeds_the_setting() {
        subscriptions = newSubscriptions(SubscriptionSettings.builder().maxPublishRequests(2).build());
        subscribe(1);
        subscribe(2);
        subscribe(3);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(2);
    }

    @Test
    void bad_too_many_publish_requests_caps_the_pipeline_at_what_the_server_still_holds_and_sends_no_replacement() {
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
    void bad_timeout_sends_the_publish_again_at_once() {
        subscribe(1);
        server.take(PublishRequest.class).fail(StatusCodes.BadTimeout);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(2);
    }

    @Test
    void another_failure_sends_the_publish_again_after_the_retry_delay() {
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
    void bad_no_subscription_stops_the_pipeline_until_a_subscription_is_created() {
        subscribe(1);
        failPublishes(StatusCodes.BadNoSubscription);
        assertThat(server.pending(PublishRequest.class)).isZero();

        subscribe(2);
        assertThat(server.pending(PublishRequest.class)).isEqualTo(4);
    }

    @Test
    void a_session_the_server_no_longer_knows_is_reported_once_and_publishing_pauses() {
        subscribe(1);
        List<StatusCode> reported = new ArrayList<>();
        subscriptions.setOnSessionInvalid(reported::add);

        failPublishes(StatusCodes.BadSessionIdInvalid);

        assertThat(reported).containsExactly(StatusCode.of(StatusCodes.BadSessionIdInvalid));
        assertThat(server.pending(PublishRequest.class)).isZero();
    }

    @Test
    void the_publish_timeout_hint_is_twice_the_keep_alive_period_when_that_exceeds_the_request_timeout() {
        subscribe(1); // 100 ms × 10 × 2 = 2 s > 1 s request timeout
        assertThat(server.take(PublishRequest.class).timeoutMillis).isEqualTo(2000);
        assertThat(server.sent(PublishRequest.class).get(0).requestHeader().timeoutHint()).isEqualTo(2000);
    }

    @Test
    void the_watchdog_reports_a_silent_server_once_after_the_keep_alive_period_and_the_margin() {
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
    void the_watchdog_sleeps_while_the_connection_is_lost() {
        subscribe(1);
        AtomicInteger silent = new AtomicInteger();
        subscriptions.setOnServerSilent(silent::incrementAndGet);
        subscriptions.connectionLost();
        timer.advance(60_000);
        assertThat(silent).hasValue(0);
        assertThat(timer.pending()).isZero();
    }

    @Test
    void answers_to_publish_requests_sent_before_a_pause_do_not_count_against_the_new_ones() {
        subscribe(1);
        List<ScriptedInvoker.Call> beforeThePause = List.of(server.take(PublishRequest.class),
                server.take(PublishRequest.class), server.take(PublishRequest.class));
        subscriptions.connectionLost();
        subscriptions.sessionReactivated().join();
        assertThat(server.pending(PublishRequest.class)).isEqualTo(3);

        beforeThePause.get(0).answer(keepAlive(1, 1, null));
        beforeThePause.get(1).fail(StatusCodes.BadTimeout);

        assertThat(subscriptions.publishRequestsOutstanding()).isEqualTo(3);
        assertThat(server.pending(PublishRequest.class)).as("nothing sent for them").isEqualTo(3);
        assertThat(subscriptions.keepAlivesReceived()).as("the answer is still used").isEqualTo(1);
    }
}
