package dev.opcua.stack.server.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.subscriptions.CapturingChannel.Answer;
import dev.opcua.stack.server.subscriptions.SubscriptionBench.Client;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * CloseSession (Part 4, 5.7.4.1) through the dispatcher: the session's outstanding Publish requests are
 * answered BadSessionClosed after the CloseSession response, so the client has that response before it
 * reacts to them.
 */
class CloseSessionOrderTest {

    private final SubscriptionBench bench = new SubscriptionBench();
    private final Client client = bench.open(1, "alice");
    private final ServiceDispatcher dispatcher = bench.sessions.registerWith(ServiceDispatcher.builder()).build();

    @AfterEach
    void close() {
        dispatcher.close();
        bench.close();
    }

    @Test
    void the_close_session_response_goes_out_before_the_parked_publish_requests_are_failed() {
        long subscriptionId = bench.create(client);
        long first = bench.publish(client);
        long second = bench.publish(client);
        ByteBuf request = Unpooled.buffer();
        new UaEncoder(CodecRegistry.standard(), request).writeMessage(
                new CloseSessionRequest(SubscriptionBench.header(client.token()), true));

        dispatcher.onRequest(client.channel(), 900, request);

        await().atMost(Duration.ofSeconds(5)).until(() -> client.channel().count() == 3);
        List<Answer> answers = client.channel().take();
        assertThat(answers.get(0).requestId()).isEqualTo(900);
        assertThat(answers.get(0).message()).isInstanceOf(CloseSessionResponse.class);
        assertThat(answers.subList(1, 3)).extracting(Answer::requestId).containsExactly(first, second);
        assertThat(answers.subList(1, 3)).allSatisfy(a -> assertThat(a.faultStatus())
                .isEqualTo(StatusCodes.BadSessionClosed));
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(bench.manager.subscription(subscriptionId))
                .as("deleted with the session").isNull());
    }
}
