package dev.opcua.stack.server.transport.uasc;

import static dev.opcua.stack.server.testing.GoldenFrames.CHANNEL_ID;
import static dev.opcua.stack.server.testing.GoldenFrames.ENDPOINT_URL;
import static dev.opcua.stack.server.testing.GoldenFrames.HEL;
import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.SecurityTokenRequestType;
import dev.opcua.stack.core.types.structured.ChannelSecurityToken;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import dev.opcua.stack.server.testing.EmbeddedConnection;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.ServerFrames;
import dev.opcua.stack.server.testing.SyncTestListener;
import dev.opcua.stack.server.testing.TestChunks;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The handler's timers and security tokens on EmbeddedChannel time: the Hello timeout (Part 6, 7.1.3),
 * token lifetimes, renewal and expiry (Part 4, 5.5.2 and Part 6, 6.7.4).
 */
class UascServerHandlerTimersAndTokensTest {

    private static final TransportQuotas QUOTAS = TransportQuotas.builder()
            .helloTimeout(Duration.ofSeconds(2))
            .securityTokenLifetime(Duration.ofMinutes(10))
            .build();

    private final ServerChannelSettings settings = EmbeddedConnection.settings(QUOTAS);
    private final SyncTestListener listener = new SyncTestListener();
    private final EmbeddedConnection connection = new EmbeddedConnection(settings, listener);
    private long sequenceNumber;
    private long requestId;

    @BeforeAll
    static void watchLeaks() {
        LeakWatch.install();
    }

    @AfterAll
    static void nothingLeaked() throws InterruptedException {
        LeakWatch.assertNoLeaks();
    }

    @AfterEach
    void everythingIsReleased() {
        connection.finish();
        assertThat(settings.counters().openConnections()).isZero();
        assertThat(settings.counters().secureChannels()).isZero();
    }

    @Test
    void a_connection_that_sends_no_hello_is_answered_with_bad_timeout_after_the_hello_timeout() {
        advance(1_999);
        assertThat(connection.channel.isActive()).isTrue();

        advance(1);

        assertError(StatusCodes.BadTimeout);
        assertThat(settings.counters().rejected(TransportRejection.HANDSHAKE_TIMEOUT)).isEqualTo(1);
    }

    @Test
    void a_connection_that_sends_no_open_after_its_hello_is_answered_with_bad_timeout_after_the_same_timeout() {
        connection.write(HEL).read();
        advance(1_999);
        assertThat(connection.channel.isActive()).isTrue();

        advance(1);

        assertError(StatusCodes.BadTimeout);
        assertThat(settings.counters().rejected(TransportRejection.HANDSHAKE_TIMEOUT)).isEqualTo(1);
    }

    @Test
    void an_open_channel_outlives_the_hello_timeout() {
        open(60_000);

        advance(5_000);

        assertThat(connection.channel.isActive()).isTrue();
    }

    @ParameterizedTest(name = "requested {0} ms, granted {1} ms")
    @CsvSource({"0, 600000", "1, 10000", "60000, 60000", "4294967295, 600000"})
    void the_requested_lifetime_is_clamped_to_the_servers_range(long requested, long granted) {
        ChannelSecurityToken token = open(requested);

        assertThat(token.revisedLifetime()).isEqualTo(granted);
    }

    @Test
    void a_renewed_token_is_used_by_the_server_once_the_client_uses_it() {
        open(60_000);
        ChannelSecurityToken renewed = renew();
        assertThat(renewed.tokenId()).isEqualTo(2);
        assertThat(renewed.channelId()).isEqualTo(CHANNEL_ID);

        assertThat(requestWithToken(1).tokenId()).as("old token still accepted and used").isEqualTo(1);
        assertThat(requestWithToken(2).tokenId()).as("server switches with the client").isEqualTo(2);

        sendWithToken(1);
        assertError(StatusCodes.BadSecureChannelTokenUnknown);
    }

    @Test
    void an_unused_renewed_token_takes_over_when_the_old_one_expires() {
        open(60_000);
        advance(45_000); // clients renew at 75 %
        renew();

        advance(30_000); // the old token's 60 s lifetime plus 25 % are over

        assertThat(connection.channel.isActive()).isTrue();
        assertThat(requestWithToken(2).tokenId()).isEqualTo(2);
        sendWithToken(1);
        assertError(StatusCodes.BadSecureChannelTokenUnknown);
    }

    @Test
    void a_token_is_accepted_during_a_quarter_of_its_lifetime_after_it_ends() {
        open(60_000);

        advance(74_999);

        assertThat(requestWithToken(1).tokenId()).isEqualTo(1);
    }

    @Test
    void a_channel_whose_token_expires_unrenewed_is_closed() {
        open(60_000);

        advance(75_000);

        assertError(StatusCodes.BadSecureChannelClosed);
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private void advance(long millis) {
        connection.advance(millis);
    }

    private ChannelSecurityToken open(long requestedLifetime) {
        connection.write(HEL).read();
        sequenceNumber = 1;
        requestId = 1;
        connection.write(TestChunks.open(0, TestChunks.NONE_URI, sequenceNumber, requestId, TestChunks.openRequest(
                SecurityTokenRequestType.Issue, MessageSecurityMode.None, requestedLifetime, 1)));
        return ServerFrames.chunk(connection.read()).body(OpenSecureChannelResponse.class).securityToken();
    }

    private ChannelSecurityToken renew() {
        connection.write(TestChunks.open(CHANNEL_ID, TestChunks.NONE_URI, ++sequenceNumber, ++requestId,
                TestChunks.openRequest(SecurityTokenRequestType.Renew, MessageSecurityMode.None, 60_000, requestId)));
        return ServerFrames.chunk(connection.read()).body(OpenSecureChannelResponse.class).securityToken();
    }

    private void sendWithToken(long tokenId) {
        connection.write(TestChunks.getEndpoints(CHANNEL_ID, tokenId, ++sequenceNumber, ++requestId, ENDPOINT_URL));
    }

    /** Sends a request under {@code tokenId} and returns the server's answer (a ServiceFault here). */
    private ServerFrames.Chunk requestWithToken(long tokenId) {
        sendWithToken(tokenId);
        ServerFrames.Chunk answer = ServerFrames.chunk(connection.read());
        assertThat(answer.type()).isEqualTo(MessageType.MSG);
        assertThat(answer.requestId()).isEqualTo(requestId);
        return answer;
    }

    private void assertError(int status) {
        List<byte[]> frames = connection.readAll();
        assertThat(frames).isNotEmpty();
        byte[] last = frames.get(frames.size() - 1);
        assertThat(ServerFrames.type(last)).isEqualTo(MessageType.ERR);
        assertThat(StatusCode.of(ServerFrames.errorStatus(last))).isEqualTo(StatusCode.of(status));
        assertThat(connection.channel.isActive()).isFalse();
    }
}
