package dev.opcua.stack.pubsub.transport.mqtt;

import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.datatypes.MqttTopic;
import com.hivemq.client.mqtt.datatypes.MqttTopicFilter;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5ConnAckException;
import com.hivemq.client.mqtt.mqtt5.exceptions.Mqtt5MessageException;
import com.hivemq.client.mqtt.mqtt5.message.auth.Mqtt5SimpleAuth;
import com.hivemq.client.mqtt.mqtt5.message.connect.Mqtt5Connect;
import com.hivemq.client.mqtt.mqtt5.message.connect.Mqtt5ConnectBuilder;
import com.hivemq.client.mqtt.mqtt5.message.subscribe.suback.Mqtt5SubAckReasonCode;
import dev.opcua.stack.core.Failures;
import io.reactivex.disposables.Disposable;
import io.reactivex.schedulers.Schedulers;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/** {@link MqttClientAdapter} over HiveMQ's MQTT 5 async client. */
final class Mqtt5ClientAdapter implements MqttClientAdapter {

    private final Mqtt5AsyncClient client;
    private final Disposable inbound;
    private final Mqtt5Connect connect;

    Mqtt5ClientAdapter(MqttSettings settings, MqttClientBuilder builder, Executor callbacks,
            BiConsumer<MqttTopic, byte[]> sink, Consumer<Throwable> ended) {
        this.client = builder.useMqttVersion5().buildAsync();
        // One flow for every incoming PUBLISH; the transport matches them to its subscriptions. Through the Rx API
        // because only that one can be cancelled: a live flow holds the client's event loop, which the client
        // otherwise never gives back after a failed first connection.
        this.inbound = client.toRx().publishes(MqttGlobalPublishFilter.ALL)
                .observeOn(Schedulers.from(callbacks), false, INBOUND_BUFFER)
                .subscribe(p -> sink.accept(p.getTopic(), p.getPayloadAsBytes()), ended::accept);
        Mqtt5ConnectBuilder c = Mqtt5Connect.builder()
                .keepAlive((int) settings.keepAlive().toSeconds())
                .cleanStart(settings.cleanSession())
                .sessionExpiryInterval(settings.sessionExpiry().toSeconds());
        settings.username().ifPresent(user -> {
            var auth = Mqtt5SimpleAuth.builder().username(user);
            c.simpleAuth(settings.password().map(p -> auth.password(p).build()).orElseGet(auth::build));
        });
        settings.will().ifPresent(w -> c.willPublish().topic(w.topic()).payload(w.payload())
                .qos(MqttQos.valueOf(w.qos().name())).retain(w.retain()).applyWillPublish());
        this.connect = c.build();
    }

    @Override
    public CompletableFuture<Void> connect() {
        return client.connect(connect).thenApply(ack -> null);
    }

    @Override
    public CompletableFuture<Void> publish(OutgoingMessage m) {
        return client.publishWith().topic(m.topic()).payload(m.payload()).qos(m.qos()).retain(m.retain()).send()
                .thenApply(result -> {
                    // MQTT 5 reports a PUBACK/PUBREC reason code in the result, not as a failed future
                    result.getError().ifPresent(e -> {
                        throw new CompletionException(e);
                    });
                    return null;
                });
    }

    @Override
    public CompletableFuture<Void> subscribe(MqttTopicFilter filter, MqttQos qos) {
        return client.subscribeWith().topicFilter(filter).qos(qos).send().thenApply(ack -> {
            for (Mqtt5SubAckReasonCode code : ack.getReasonCodes()) {
                if (code.isError()) {
                    throw new IllegalStateException("the broker refused the subscription of '" + filter + "': "
                            + code + ack.getReasonString().map(r -> " (" + r + ")").orElse(""));
                }
            }
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> unsubscribe(MqttTopicFilter filter) {
        return client.unsubscribeWith().topicFilter(filter).send().thenApply(ack -> null);
    }

    @Override
    public CompletableFuture<Void> disconnect() {
        return client.disconnect();
    }

    @Override
    public void close() {
        inbound.dispose();
    }

    @Override
    public String describe(Throwable failure) {
        Throwable t = Failures.unwrap(failure);
        if (t instanceof Mqtt5ConnAckException e) {
            return "the broker refused the connection: " + e.getMqttMessage().getReasonCode()
                    + e.getMqttMessage().getReasonString().map(r -> " (" + r + ")").orElse("");
        }
        if (t instanceof Mqtt5MessageException e) {
            return MqttFailures.describe(t) + " [" + e.getMqttMessage() + "]";
        }
        return MqttFailures.describe(t);
    }
}
