package dev.opcua.stack.server.subscriptions;

import static dev.opcua.stack.server.subscriptions.Notifications.assertFault;
import static dev.opcua.stack.server.subscriptions.Notifications.isKeepAlive;
import static dev.opcua.stack.server.subscriptions.SubscriptionBench.header;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.DeleteSubscriptionsRequest;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.server.subscriptions.CapturingChannel.Answer;
import dev.opcua.stack.server.subscriptions.SubscriptionBench.Client;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Publish requests parked in their session (Part 4, 5.13.5; DESIGN.md section 3): the queue limit,
 * timeouts, the session checks, the end of the session and of its subscriptions.
 */
class PublishParkingTest {

    private SubscriptionBench bench = new SubscriptionBench();
    private Client client = bench.open(1, "alice");

    @AfterEach
    void close() {
        bench.close();
    }

    private void use(SubscriptionSettings settings) {
        bench.close();
        bench = new SubscriptionBench(settings);
        client = bench.open(1, "alice");
    }

    @Test
    void beyond_the_limit_the_oldest_parked_request_is_answered_bad_too_many_publish_requests() {
        use(SubscriptionSettings.builder().maxPublishRequestsPerSession(2).build());
        bench.create(client);
        long first = bench.publish(client);
        bench.publish(client);
        assertThat(client.channel().count()).isZero();

        bench.publish(client);

        Answer answer = client.channel().single();
        assertThat(answer.requestId()).isEqualTo(first);
        assertFault(answer, StatusCodes.BadTooManyPublishRequests);
        assertThat(bench.statistics.publishRequestsRejected()).isEqualTo(1);
        assertThat(bench.statistics.parkedPublishRequests()).isEqualTo(2);
    }

    @Test
    void a_session_may_always_park_one_request_more_than_it_has_subscriptions() {
        use(SubscriptionSettings.builder().maxPublishRequestsPerSession(1).build());
        bench.create(client);
        bench.create(client);
        bench.publish(client);
        bench.publish(client);
        bench.publish(client);
        assertThat(client.channel().count()).isZero();

        bench.publish(client);

        assertFault(client.channel().single(), StatusCodes.BadTooManyPublishRequests);
    }

    @Test
    void a_session_without_subscriptions_is_answered_bad_no_subscription() {
        bench.publish(client);
        assertFault(client.channel().single(), StatusCodes.BadNoSubscription);

        long id = bench.create(client);
        long parked = bench.publish(client);
        bench.services.deleteSubscriptions(client.channel(), new DeleteSubscriptionsRequest(header(client.token()),
                new long[] {id}));

        Answer answer = client.channel().single();
        assertThat(answer.requestId()).isEqualTo(parked);
        assertFault(answer, StatusCodes.BadNoSubscription);
        bench.publish(client);
        assertFault(client.channel().single(), StatusCodes.BadNoSubscription);
        assertThat(bench.statistics.parkedPublishRequests()).isZero();
    }

    @Test
    void a_request_whose_timeout_hint_passes_is_answered_bad_timeout() {
        bench.create(client, 1000, 300, 100, 0); // keep-alive every 100 s
        bench.publish(client);
        bench.clock.advanceMillis(1000);
        client.channel().take(); // the first keep-alive
        long waiting = bench.publish(client, 1500);
        long patient = bench.publish(client);

        bench.clock.advanceMillis(1000);
        assertThat(client.channel().count()).isZero();
        bench.clock.advanceMillis(1000);

        Answer answer = client.channel().single();
        assertThat(answer.requestId()).isEqualTo(waiting);
        assertFault(answer, StatusCodes.BadTimeout);
        assertThat(bench.statistics.publishRequestsTimedOut()).isEqualTo(1);
        assertThat(bench.statistics.parkedPublishRequests()).isEqualTo(1);
        assertThat(patient).isGreaterThan(waiting);
    }

    @Test
    void requests_of_unknown_or_unactivated_sessions_or_of_another_channel_are_refused() {
        bench.create(client);
        CapturingChannel other = new CapturingChannel(2);
        bench.park(other, 1, new PublishRequest(header(client.token()), null));
        assertFault(other.single(), StatusCodes.BadSecureChannelIdInvalid);

        bench.park(other, 2, new PublishRequest(header(NodeId.string(0, "forged")), null));
        assertFault(other.single(), StatusCodes.BadSessionIdInvalid);

        NodeId created = bench.sessions.createSession(other, new CreateSessionRequest(header(NodeId.NULL), null, null,
                SubscriptionBench.URL, "s", ByteString.NULL, ByteString.NULL, 60_000, 0)).authenticationToken();
        bench.park(other, 3, new PublishRequest(header(created), null));
        assertFault(other.single(), StatusCodes.BadSessionNotActivated);
        assertThat(client.channel().count()).isZero();
    }

    @Test
    void an_undecodable_request_is_answered_with_the_decoders_status_and_released() {
        ByteBuf truncated = Unpooled.buffer();
        new dev.opcua.stack.core.encoding.binary.UaEncoder(dev.opcua.stack.core.encoding.CodecRegistry.standard(),
                truncated).writeMessage(new PublishRequest(header(client.token()), null));
        ByteBuf cut = truncated.retainedSlice(0, truncated.readableBytes() - 2);
        truncated.release();

        bench.services.publishParking().park(client.channel(), 9, cut);

        assertThat(cut.refCnt()).isZero();
        Answer answer = client.channel().single();
        assertThat(answer.requestId()).isEqualTo(9);
        assertFault(answer, StatusCodes.BadDecodingError);
    }

    @Test
    void closing_the_session_answers_parked_requests_and_deletes_its_subscriptions_when_asked() {
        long id = bench.create(client);
        bench.items.of(id).add(1);
        bench.publish(client);
        assertThat(bench.statistics.monitoredItems()).isEqualTo(1);

        bench.sessions.closeSession(client.channel(), new CloseSessionRequest(header(client.token()), true));

        assertFault(client.channel().single(), StatusCodes.BadSessionClosed);
        assertThat(bench.manager.subscriptionCount()).isZero();
        assertThat(bench.items.of(id).deleteAllCalls).isEqualTo(1);
        assertThat(bench.statistics.monitoredItems()).isZero();
        assertThat(bench.statistics.parkedPublishRequests()).isZero();
    }

    @Test
    void closing_the_session_without_delete_subscriptions_keeps_them_until_their_lifetime_ends() {
        long id = bench.create(client, 1000, 3, 1, 0).subscriptionId();
        bench.sessions.closeSession(client.channel(), new CloseSessionRequest(header(client.token()), false));
        assertThat(bench.manager.subscriptionCount()).isEqualTo(1);
        assertThat(bench.items.of(id).deleteAllCalls).isZero();

        bench.clock.advanceMillis(3000);

        assertThat(bench.manager.subscriptionCount()).isZero();
        assertThat(bench.items.of(id).deleteAllCalls).isEqualTo(1);
        assertThat(bench.statistics.latePublishes()).as("no session, nothing late").isZero();
    }

    @Test
    void requests_of_a_closed_channel_are_dropped_and_those_of_a_channel_the_session_left_are_refused() {
        long id = bench.create(client);
        bench.publish(client);
        client.channel().close();
        CapturingChannel second = new CapturingChannel(2);
        bench.sessions.activateSession(second, new ActivateSessionRequest(header(client.token()), null, null, null,
                ExtensionObject.of(new UserNameIdentityToken("username", "alice",
                        ByteString.of("a".getBytes(StandardCharsets.UTF_8)), null)), null));
        bench.clock.advanceMillis(1000);
        assertThat(client.channel().count()).as("nobody listens on a closed channel").isZero();
        assertThat(bench.subscription(client, id).state()).isEqualTo(Subscription.State.LATE);

        CapturingChannel third = new CapturingChannel(3);
        long onSecond = 41;
        bench.park(second, onSecond, new PublishRequest(header(client.token()), null));
        bench.clock.runDue();
        assertThat(isKeepAlive(second.single().publish().notificationMessage())).isTrue();
        bench.park(second, 42, new PublishRequest(header(client.token()), null));
        bench.sessions.activateSession(third, new ActivateSessionRequest(header(client.token()), null, null, null,
                ExtensionObject.of(new UserNameIdentityToken("username", "alice",
                        ByteString.of("a".getBytes(StandardCharsets.UTF_8)), null)), null));
        bench.park(third, 43, new PublishRequest(header(client.token()), null));

        bench.clock.advanceMillis(3000); // the next keep-alive is due

        assertFault(second.single(), StatusCodes.BadSecureChannelIdInvalid);
        List<Answer> answers = third.take();
        assertThat(answers).hasSize(1);
        assertThat(answers.get(0).requestId()).isEqualTo(43);
        assertThat(isKeepAlive(answers.get(0).publish().notificationMessage())).isTrue();
    }
}
