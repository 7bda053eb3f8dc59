package dev.opcua.stack.pubsub.transport.mqtt;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.MqttClientExecutorConfig;
import com.hivemq.client.mqtt.MqttClientSslConfig;
import com.hivemq.client.mqtt.MqttClientSslConfigBuilder;
import com.hivemq.client.mqtt.MqttClientTransportConfig;
import com.hivemq.client.mqtt.MqttClientTransportConfigBuilder;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.datatypes.MqttTopic;
import com.hivemq.client.mqtt.datatypes.MqttTopicFilter;
import com.hivemq.client.mqtt.exceptions.MqttSessionExpiredException;
import com.hivemq.client.mqtt.lifecycle.MqttClientDisconnectedContext;
import com.hivemq.client.mqtt.lifecycle.MqttClientReconnector;
import com.hivemq.client.mqtt.lifecycle.MqttDisconnectSource;
import dev.opcua.stack.core.Failures;
import dev.opcua.stack.pubsub.transport.MessageHandler;
import dev.opcua.stack.pubsub.transport.PubSubTransport;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.TransportException;
import dev.opcua.stack.pubsub.transport.TransportStatistics;
import io.reactivex.schedulers.Schedulers;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The MQTT transport of PubSub (Part 14, 7.3.5) on the HiveMQ MQTT client, MQTT 3.1.1 or 5.
 *
 * <p><b>Connection.</b> {@link #start()} connects once; a failure there is final (the future fails naming the
 * broker). After the first connection every loss is followed by reconnect attempts with exponential backoff
 * ({@link MqttSettings#reconnectInitialDelay()} doubling to {@link MqttSettings#reconnectMaxDelay()}, up to 20%
 * shorter at random so that many publishers do not all return at the same instant) until {@link #close()}.
 *
 * <p><b>Queue.</b> Messages published while disconnected wait in this transport's own queue of at most
 * {@link MqttSettings#maxQueuedMessages()}; when it is full the <em>oldest</em> message is dropped and counted in
 * {@link TransportStatistics#messagesDropped()} (PubSub data is periodic: after an outage the newest values matter).
 * The queue is sent in order once connected; the HiveMQ client only ever holds what was handed to it while
 * connected, so its own unbounded buffering is never used for an outage. A QoS 1 or 2 message the client gives back
 * because the connection was lost goes back to the front of the queue (it may then arrive twice, as QoS 1 allows);
 * a QoS 0 message on the wire when the connection drops is lost, as QoS 0 means.
 *
 * <p><b>Subscriptions</b> are remembered and made again after every connection, so they survive a broker restart and
 * a clean session: those made before the first connection by this transport, later ones by the HiveMQ client
 * (which also holds SUBSCRIBE and UNSUBSCRIBE while reconnecting). Incoming messages go to the handlers of every
 * matching filter.
 *
 * <p><b>Threads.</b> {@code opcua-mqtt-<clientId>} runs handlers and sends the queue; {@code
 * opcua-mqtt-<clientId>-io-<n>} is the client's Netty event loop. Both end in {@link #close()}.
 *
 * <p><b>Logging.</b> Connection state changes at INFO and WARN, never per message; repeated per-message problems
 * (drops, send failures, handler exceptions) are logged the first time and then every 1000th time.
 */
public final class MqttTransport implements PubSubTransport {

    private static final Logger log = LoggerFactory.getLogger(MqttTransport.class);
    private static final int LOG_EVERY = 1000;
    private static final long CLOSE_TIMEOUT_MILLIS = 5000;

    private final MqttSettings settings;
    private final String url;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}, like the decision to send at once or to queue. */
    private final Outbox outbox;
    private final Map<String, Subscription> subscriptions = new ConcurrentHashMap<>();
    private final AtomicBoolean startCalled = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private volatile boolean connected;
    private volatile boolean everConnected;
    private volatile String lastError;
    private volatile Thread callbackThread;

    private final LongAdder sent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder received = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final AtomicLong dropped = new AtomicLong();
    private final AtomicLong failures = new AtomicLong();
    private final AtomicLong handlerErrors = new AtomicLong();
    private final AtomicLong reconnects = new AtomicLong();

    private ExecutorService callbackExecutor;
    private ExecutorService ioExecutor;
    private volatile MqttClientAdapter client;

    public MqttTransport(MqttSettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.url = settings.brokerUrl();
        this.outbox = new Outbox(settings.maxQueuedMessages());
    }

    public MqttSettings settings() {
        return settings;
    }

    @Override
    public CompletableFuture<Void> start() {
        if (closed.get()) {
            return CompletableFuture.failedFuture(new IllegalStateException(closedMessage()));
        }
        if (!startCalled.compareAndSet(false, true)) {
            return started.copy();
        }
        String name = "opcua-mqtt-" + settings.clientId();
        // After close, the client still completes the QoS 1/2 publishes it had in flight; those completions have
        // nobody waiting and are discarded instead of ending as RxJava UndeliverableExceptions.
        callbackExecutor = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            callbackThread = t;
            return t;
        }, (task, executor) -> log.debug("MQTT transport for {} is closed: a late completion is discarded", url));
        ioExecutor = Executors.newCachedThreadPool(numbered(name + "-io-"));
        MqttClientBuilder builder = MqttClient.builder()
                .identifier(settings.clientId())
                .transportConfig(transportConfig())
                .executorConfig(MqttClientExecutorConfig.builder()
                        .nettyExecutor(ioExecutor)
                        .nettyThreads(1)
                        .applicationScheduler(Schedulers.from(callbackExecutor))
                        .build())
                .addConnectedListener(ctx -> onConnected())
                .addDisconnectedListener(this::onDisconnected);
        MqttClientAdapter c = settings.protocolVersion() == MqttProtocolVersion.V5
                ? new Mqtt5ClientAdapter(settings, builder, callbackExecutor, this::onMessage, this::onInboundEnded)
                : new Mqtt3ClientAdapter(settings, builder, callbackExecutor, this::onMessage, this::onInboundEnded);
        client = c;
        log.info("MQTT connecting to {} as {} (MQTT {}{})", url, settings.clientId(),
                settings.protocolVersion() == MqttProtocolVersion.V5 ? "5" : "3.1.1",
                settings.username().map(u -> ", user " + u).orElse(""));
        c.connect().whenComplete((v, e) -> {
            if (e == null) {
                started.complete(null);
            } else {
                String reason = c.describe(e);
                lastError = reason;
                log.warn("MQTT cannot connect to {}: {}", url, reason);
                started.completeExceptionally(new TransportException("cannot connect to MQTT broker " + url + ": "
                        + reason, Failures.unwrap(e)));
            }
        });
        return started.copy();
    }

    private MqttClientTransportConfig transportConfig() {
        BrokerAddress address = settings.address();
        long timeout = settings.connectTimeout().toMillis();
        MqttClientTransportConfigBuilder t = MqttClientTransportConfig.builder()
                .serverHost(address.host())
                .serverPort(address.port())
                .socketConnectTimeout(timeout, TimeUnit.MILLISECONDS)
                .mqttConnectTimeout(timeout, TimeUnit.MILLISECONDS);
        if (address.tls()) {
            MqttClientSslConfigBuilder ssl = MqttClientSslConfig.builder()
                    .handshakeTimeout(timeout, TimeUnit.MILLISECONDS);
            settings.keyManagerFactory().ifPresent(ssl::keyManagerFactory);
            if (settings.hostnameVerification()) {
                settings.trustManagerFactory().ifPresent(ssl::trustManagerFactory);
            } else {
                // both switches: HiveMQ's (no HTTPS identification requested) and Netty 4.2's default (HTTPS on)
                ssl.hostnameVerifier((host, session) -> true)
                        .trustManagerFactory(LenientHostnameTrust.wrap(settings.trustManagerFactory().orElse(null)));
            }
            t.sslConfig(ssl.build());
        }
        return t.build();
    }

    private void onConnected() {
        boolean again;
        synchronized (lock) {
            again = everConnected;
            everConnected = true;
            connected = true;
        }
        if (closed.get()) {
            client.disconnect();
            return;
        }
        if (again) {
            reconnects.incrementAndGet();
            log.info("MQTT reconnected to {} ({} messages queued)", url, queued());
            scheduleDrain(); // the client re-subscribes by itself, see onDisconnected
        } else {
            log.info("MQTT connected to {} as {}", url, settings.clientId());
            callbackExecutor.execute(() -> {
                // subscriptions made before the first connection; later ones went to the client at once
                subscriptions.values().forEach(this::sendSubscribe);
                drain();
            });
        }
    }

    private void onDisconnected(MqttClientDisconnectedContext ctx) {
        synchronized (lock) {
            connected = false;
        }
        if (closed.get() || ctx.getSource() == MqttDisconnectSource.USER) {
            return;
        }
        MqttClientAdapter c = client;
        String reason = c == null ? MqttFailures.describe(ctx.getCause()) : c.describe(ctx.getCause());
        lastError = reason;
        if (!everConnected) {
            return; // the first connection failed: start() reports it, and there is no retry
        }
        MqttClientReconnector reconnector = ctx.getReconnector();
        int attempt = reconnector.getAttempts();
        long delay = backoffMillis(attempt);
        if (attempt == 0) {
            log.warn("MQTT connection to {} lost ({}): {}; reconnecting in {} ms", url, ctx.getSource(), reason,
                    delay);
        } else {
            log.info("MQTT reconnect {} to {} failed: {}; next attempt in {} ms", attempt, url, reason, delay);
        }
        // The client re-subscribes what it subscribed when the session is gone (clean session, broker restart):
        // only then does it keep its message flows, the global one this transport listens on included; with
        // resubscribeIfSessionExpired(false) it ends them all and drops every later message ("No publish flow
        // registered"). Publishes it held are given back (republishIfSessionExpired false) and queued here again.
        reconnector.reconnect(true)
                .delay(delay, TimeUnit.MILLISECONDS)
                .resubscribeIfSessionExpired(true)
                .republishIfSessionExpired(false);
    }

    /** Exponential backoff from the initial to the max delay, with up to 20% taken off at random. */
    long backoffMillis(int attempt) {
        long initial = settings.reconnectInitialDelay().toMillis();
        long max = settings.reconnectMaxDelay().toMillis();
        long delay = attempt >= 31 ? max : Math.min(max, initial << attempt);
        if (delay < 0) {
            delay = max;
        }
        return Math.max(1, delay - ThreadLocalRandom.current().nextLong(delay / 5 + 1));
    }

    @Override
    public void publish(String topic, byte[] payload, QualityOfService qos, boolean retain) {
        MqttTopic checked = MqttNames.checkTopic(topic);
        Objects.requireNonNull(payload, "payload");
        Objects.requireNonNull(qos, "qos");
        if (closed.get()) {
            throw new IllegalStateException(closedMessage());
        }
        OutgoingMessage message = new OutgoingMessage(checked, payload.clone(), mqttQos(qos), retain);
        boolean drainNow;
        synchronized (lock) {
            if (connected && outbox.isEmpty()) {
                send(message);
                return;
            }
            countDropped(outbox.add(message));
            drainNow = connected;
        }
        if (drainNow) {
            scheduleDrain();
        }
    }

    /** Hands a message to the client; called with {@link #lock} held, so messages leave in order. */
    private void send(OutgoingMessage message) {
        client.publish(message).whenComplete((v, e) -> onSent(message, e));
    }

    private void onSent(OutgoingMessage message, Throwable failure) {
        if (failure == null) {
            sent.increment();
            bytesSent.add(message.payload().length);
            return;
        }
        if (MqttFailures.isConnectionLoss(failure) && !closed.get()) {
            boolean drainNow;
            synchronized (lock) {
                countDropped(outbox.putBack(message));
                // a session that expired is only noticed on a new connection, which may already be up
                drainNow = connected && Failures.unwrap(failure) instanceof MqttSessionExpiredException;
            }
            if (drainNow) {
                scheduleDrain();
            }
            return;
        }
        long n = failures.incrementAndGet();
        String reason = client.describe(failure);
        lastError = "publish to " + message.topic() + " failed: " + reason;
        if (n == 1 || n % LOG_EVERY == 0) {
            log.warn("MQTT publish to {} on {} failed ({} failures so far): {}", message.topic(), url, n, reason);
        }
    }

    private void countDropped(int n) {
        if (n == 0) {
            return;
        }
        long total = dropped.addAndGet(n);
        if (total == n || total / LOG_EVERY != (total - n) / LOG_EVERY) {
            log.warn("MQTT send queue for {} is full ({} messages): dropping the oldest, {} dropped so far", url,
                    settings.maxQueuedMessages(), total);
        }
    }

    private void scheduleDrain() {
        if (drainScheduled.compareAndSet(false, true)) {
            try {
                callbackExecutor.execute(() -> {
                    drainScheduled.set(false);
                    drain();
                });
            } catch (java.util.concurrent.RejectedExecutionException e) {
                drainScheduled.set(false); // closing
            }
        }
    }

    /** Sends what is queued now, in order, while connected; what arrives meanwhile schedules another drain. */
    private void drain() {
        int n;
        synchronized (lock) {
            n = outbox.size();
        }
        for (int i = 0; i < n; i++) {
            synchronized (lock) {
                if (!connected || closed.get()) {
                    return;
                }
                OutgoingMessage m = outbox.poll();
                if (m == null) {
                    return;
                }
                send(m);
            }
        }
    }

    @Override
    public CompletableFuture<Void> subscribe(String topicFilter, QualityOfService qos, MessageHandler handler) {
        MqttTopicFilter filter = MqttNames.checkFilter(topicFilter);
        Objects.requireNonNull(qos, "qos");
        Objects.requireNonNull(handler, "handler");
        if (closed.get()) {
            throw new IllegalStateException(closedMessage());
        }
        Subscription s = new Subscription(topicFilter, filter, mqttQos(qos), handler, new CompletableFuture<>());
        subscriptions.put(topicFilter, s);
        if (everConnected) {
            sendSubscribe(s); // the client holds it while reconnecting and sends it when connected again
        }
        return s.acknowledged().copy();
    }

    private void sendSubscribe(Subscription s) {
        MqttClientAdapter c = client;
        c.subscribe(s.filter(), s.qos()).whenComplete((v, e) -> {
            if (e == null) {
                s.acknowledged().complete(null);
            } else if (!MqttFailures.isConnectionLoss(e)) { // a lost one is made again on the next connection
                String reason = c.describe(e);
                lastError = "subscribe " + s.text() + " failed: " + reason;
                log.warn("MQTT subscription of {} on {} failed: {}", s.text(), url, reason);
                subscriptions.remove(s.text(), s);
                s.acknowledged().completeExceptionally(new TransportException("cannot subscribe '" + s.text()
                        + "' on MQTT broker " + url + ": " + reason, Failures.unwrap(e)));
            }
        });
    }

    @Override
    public CompletableFuture<Void> unsubscribe(String topicFilter) {
        MqttTopicFilter filter = MqttNames.checkFilter(topicFilter);
        Subscription s = subscriptions.remove(topicFilter);
        MqttClientAdapter c = client;
        if (s == null || c == null || !everConnected) {
            return CompletableFuture.completedFuture(null);
        }
        return c.unsubscribe(filter).handle((v, e) -> {
            if (e != null && !MqttFailures.isConnectionLoss(e)) {
                throw new TransportException("cannot unsubscribe '" + topicFilter + "' on MQTT broker " + url + ": "
                        + c.describe(e), Failures.unwrap(e));
            }
            return null;
        });
    }

    /** Runs on the callback thread. */
    private void onMessage(MqttTopic topic, byte[] payload) {
        received.increment();
        bytesReceived.add(payload.length);
        String text = topic.toString();
        for (Subscription s : subscriptions.values()) {
            if (s.filter().matches(topic)) {
                try {
                    s.handler().onMessage(text, payload);
                } catch (RuntimeException e) {
                    long n = handlerErrors.incrementAndGet();
                    if (n == 1 || n % LOG_EVERY == 0) {
                        log.warn("MQTT message handler for {} threw ({} times so far)", s.text(), n, e);
                    }
                }
            }
        }
    }

    private void onInboundEnded(Throwable cause) {
        if (!closed.get()) {
            lastError = "incoming messages ended: " + MqttFailures.describe(cause);
            log.warn("MQTT incoming message flow from {} ended: {}", url, MqttFailures.describe(cause));
        }
    }

    @Override
    public boolean isConnected() {
        return connected;
    }

    private int queued() {
        synchronized (lock) {
            return outbox.size();
        }
    }

    @Override
    public TransportStatistics statistics() {
        return new TransportStatistics(sent.sum(), received.sum(), dropped.get(), failures.get(), bytesSent.sum(),
                bytesReceived.sum(), reconnects.get(), connected, lastError, queued());
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        int unsent;
        synchronized (lock) {
            connected = false;
            unsent = outbox.clear();
        }
        MqttClientAdapter c = client;
        if (c != null) {
            try {
                c.disconnect().get(CLOSE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                log.debug("MQTT disconnect from {}: {}", url, MqttFailures.describe(e)); // was not connected
            } catch (TimeoutException e) {
                log.warn("MQTT disconnect from {} took longer than {} ms", url, CLOSE_TIMEOUT_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            c.close();
        }
        if (unsent > 0) {
            log.warn("MQTT transport for {} closed with {} unsent messages", url, unsent);
        }
        started.completeExceptionally(new IllegalStateException(closedMessage()));
        subscriptions.values().forEach(s -> s.acknowledged().completeExceptionally(
                new IllegalStateException(closedMessage())));
        subscriptions.clear();
        boolean self = Thread.currentThread() == callbackThread;
        shutdown(callbackExecutor, !self);
        shutdown(ioExecutor, !self);
        log.info("MQTT transport for {} closed", url);
    }

    private static void shutdown(ExecutorService executor, boolean await) {
        if (executor == null) {
            return;
        }
        executor.shutdown();
        if (!await) {
            return;
        }
        try {
            if (!executor.awaitTermination(CLOSE_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
                log.warn("MQTT transport threads did not end within {} ms", CLOSE_TIMEOUT_MILLIS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private String closedMessage() {
        return "the MQTT transport for " + url + " is closed";
    }

    private static MqttQos mqttQos(QualityOfService qos) {
        return switch (qos) {
            case AT_MOST_ONCE -> MqttQos.AT_MOST_ONCE;
            case AT_LEAST_ONCE -> MqttQos.AT_LEAST_ONCE;
            case EXACTLY_ONCE -> MqttQos.EXACTLY_ONCE;
        };
    }

    private static ThreadFactory numbered(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new Thread(r, prefix + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }

    @Override
    public String toString() {
        return "MqttTransport[" + url + ", " + settings.clientId() + (connected ? ", connected" : "") + "]";
    }

    private record Subscription(String text, MqttTopicFilter filter, MqttQos qos, MessageHandler handler,
            CompletableFuture<Void> acknowledged) {
    }
}
