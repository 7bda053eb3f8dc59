package dev.opcua.stack.server.subscriptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSubscriptionRequest;
import dev.opcua.stack.core.types.structured.CreateSubscriptionResponse;
import dev.opcua.stack.core.types.structured.PublishRequest;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import dev.opcua.stack.core.types.structured.UserNameIdentityToken;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.session.SessionManager;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionStore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The subscription layer wired as a server wires it, with a real {@link SessionManager}, a virtual
 * publishing clock ({@link ManualScheduler}), fake monitored items ({@link FakeItems}) and
 * {@link CapturingChannel}s; requests are called directly, Publish goes through the parking as encoded
 * bytes.
 */
final class SubscriptionBench implements AutoCloseable {

    static final String URL = "opc.tcp://localhost:4840/";

    final ManualScheduler clock = new ManualScheduler();
    final SubscriptionStatistics statistics = new SubscriptionStatistics();
    final FakeItems items = new FakeItems(statistics);
    final SubscriptionManager manager;
    final SessionManager sessions;
    final SubscriptionServices services;
    private final AtomicLong requestIds = new AtomicLong(100);

    /** A client session: its channel and authentication token. */
    record Client(CapturingChannel channel, NodeId token, Session session) {
    }

    SubscriptionBench() {
        this(SubscriptionSettings.DEFAULT);
    }

    SubscriptionBench(SubscriptionSettings settings) {
        this(settings, false);
    }

    /** With {@code realTime}, the production scheduler and its {@code opcua-publisher} thread, not {@link #clock}. */
    SubscriptionBench(SubscriptionSettings settings, boolean realTime) {
        this(settings, realTime, null);
    }

    /** On {@link #clock}, durable subscriptions kept in {@code durable}. */
    SubscriptionBench(SubscriptionSettings settings, DurableSubscriptionStore durable) {
        this(settings, false, durable);
    }

    private SubscriptionBench(SubscriptionSettings settings, boolean realTime, DurableSubscriptionStore durable) {
        SubscriptionManager.Builder builder = SubscriptionManager.builder()
                .settings(settings)
                .statistics(statistics)
                .itemContainerFactory(items);
        if (durable != null) {
            builder.durableStore(durable);
        }
        if (!realTime) {
            builder.scheduler(clock);
        }
        manager = builder.build();
        DiscoveryServices discovery = DiscoveryServices.builder()
                .application("urn:test", "urn:test:product", "test")
                .endpointUrls(List.of(URL))
                .userTokenPolicies(List.of(DiscoveryServices.ANONYMOUS,
                        new UserTokenPolicy("username", UserTokenType.UserName, null, null, null)))
                .build();
        sessions = SessionManager.builder()
                .identityValidator(UserNameIdentityValidator.of(Map.of("alice", "a", "bob", "b"), true))
                .discoveryEndpoints(() -> discovery)
                .listener(manager)
                .build();
        services = new SubscriptionServices(manager, sessions::resolve, EncodingLimits.DEFAULT);
    }

    static RequestHeader header(NodeId token) {
        return new RequestHeader(token, null, 7, 0, null, 0, ExtensionObject.NULL);
    }

    static RequestHeader header(NodeId token, long timeoutHint) {
        return new RequestHeader(token, null, 7, 0, null, timeoutHint, ExtensionObject.NULL);
    }

    /** An activated session on a new channel with this id; {@code user} null for anonymous. */
    Client open(long channelId, String user) {
        CapturingChannel channel = new CapturingChannel(channelId);
        NodeId token = sessions.createSession(channel, new CreateSessionRequest(header(NodeId.NULL), null, null, URL,
                "s", ByteString.NULL, ByteString.NULL, 60_000, 0)).authenticationToken();
        ExtensionObject identity = user == null ? ExtensionObject.of(new AnonymousIdentityToken("anonymous"))
                : ExtensionObject.of(new UserNameIdentityToken("username", user,
                        ByteString.of(user.substring(0, 1).getBytes(StandardCharsets.UTF_8)), null));
        sessions.activateSession(channel, new ActivateSessionRequest(header(token), null, null, null, identity, null));
        return new Client(channel, token, sessions.resolve(channel, header(token)));
    }

    CreateSubscriptionResponse create(Client client, double interval, long lifetime, long keepAlive,
            long maxPerPublish) {
        return services.createSubscription(client.channel(), new CreateSubscriptionRequest(header(client.token()),
                interval, lifetime, keepAlive, maxPerPublish, true, (short) 0));
    }

    /** A subscription of 1 s, keep-alive count 3, lifetime 30, 100 notifications per message. */
    long create(Client client) {
        return create(client, 1000, 30, 3, 0).subscriptionId();
    }

    /** Sends a Publish with these acknowledgements, encoded, through the parking; returns its requestId. */
    long publish(Client client, SubscriptionAcknowledgement... acks) {
        return publish(client, 0, acks);
    }

    long publish(Client client, long timeoutHint, SubscriptionAcknowledgement... acks) {
        long requestId = requestIds.incrementAndGet();
        park(client.channel(), requestId, new PublishRequest(header(client.token(), timeoutHint), acks));
        return requestId;
    }

    /** Parks an encoded request and checks that the parking released the buffer. */
    void park(CapturingChannel channel, long requestId, UaStructure request) {
        ByteBuf buffer = Unpooled.buffer();
        new UaEncoder(CodecRegistry.standard(), buffer).writeMessage(request);
        services.publishParking().park(channel, requestId, buffer);
        assertThat(buffer.refCnt()).as("the parking releases the request").isZero();
    }

    static SubscriptionAcknowledgement ack(long subscriptionId, long sequenceNumber) {
        return new SubscriptionAcknowledgement(subscriptionId, sequenceNumber);
    }

    Subscription subscription(Client client, long id) {
        return manager.subscription(id);
    }

    @Override
    public void close() {
        sessions.close();
        manager.close();
    }
}
