package dev.opcua.stack.pubsub.transport.mqtt;

import com.hivemq.client.mqtt.MqttClientBuilder;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.datatypes.MqttTopic;
import com.hivemq.client.mqtt.datatypes.MqttTopicFilter;
import com.hivemq.client.mqtt.mqtt3.Mqtt3AsyncClient;
import com.hivemq.client.mqtt.mqtt3.exceptions.Mqtt3ConnAckException;
import com.hivemq.client.mqtt.mqtt3.exceptions.Mqtt3SubAckException;
import com.hivemq.client.mqtt.mqtt3.message.auth.Mqtt3SimpleAuth;
import com.hivemq.client.mqtt.mqtt3.message.connect.Mqtt3Connect;
import com.hivemq.client.mqtt.mqtt3.message.connect.Mqtt3ConnectBuilder;
import com.hivemq.client.mqtt.mqtt3.message.subscribe.suback.Mqtt3SubAckReturnCode;
import dev.opcua.stack.core.Failures;
import io.reactivex.disposables.Disposable;
import io.reactivex.schedulers.Schedulers;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/** {@link MqttClientAdapter} over HiveMQ's MQTT 3.1.1 async client. */
final class Mqtt3ClientAdapter implements MqttClientAdapter {

    private final Mqtt3AsyncClient client;
    private final Disposable inbound;
    private final Mqtt3Connect connect;

    Mqtt3ClientAdapter(MqttSettings settings, MqttClientBuilder builder, Executor callbacks,
            BiConsumer<MqttTopic, byte[]> sink, Consumer<Throwable> ended) {
        this.client = builder.useMqttVersion3().buildAsync();
        // One flow for every incoming PUBLISH; the transport matches them to its subscriptions. Through the Rx API
        // because only that one can be cancelled: a live flow holds the client's event loop, which the client
        // otherwise never gives back after a failed first connection.
        this.inbound = client.toRx().publishes(MqttGlobalPublishFilter.ALL)
                .observeOn(Schedulers.from(callbacks), false, INBOUND_BUFFER)
                .subscribe(p -> sink.accept(p.getTopic(), p.getPayloadAsBytes()), ended::accept);
        Mqtt3ConnectBuilder c = Mqtt3Connect.builder()
                .keepAlive((int) settings.keepAlive().toSeconds())
                .cleanSession(settings.cleanSession());
        settings.username().ifPresent(user -> {
            var auth = Mqtt3SimpleAuth.builder().username(user);
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
                .thenApply(p -> null);
    }

    @Override
    public CompletableFuture<Void> subscribe(MqttTopicFilter filter, MqttQos qos) {
        return client.subscribeWith().topicFilter(filter).qos(qos).send().thenApply(ack -> {
            if (ack.getReturnCodes().contains(Mqtt3SubAckReturnCode.FAILURE)) {
                throw new IllegalStateException("the broker refused the subscription of '" + filter + "'");
            }
            return null;
        });
    }

    @Override
    public CompletableFuture<Void> unsubscribe(MqttTopicFilter filter) {
        return client.unsubscribeWith().topicFilter(filter).send();
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
        if (t instanceof Mqtt3ConnAckException e) {
            return "the broker refused the connection: " + e.getMqttMessage().getReturnCode();
        }
        if (t instanceof Mqtt3SubAckException e) {
            return "the broker refused the subscription: " + e.getMqttMessage().getReturnCodes();
        }
        return MqttFailures.describe(t);
    }
}
