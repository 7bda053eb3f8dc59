package dev.opcua.stack.pubsub.transport.mqtt;

import dev.opcua.stack.pubsub.transport.MessageHandler;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Collects what a subscription receives, and on which thread. */
final class Inbox implements MessageHandler {

    record Received(String topic, byte[] payload, String thread) {
        String text() {
            return new String(payload, StandardCharsets.UTF_8);
        }
    }

    final List<Received> messages = new CopyOnWriteArrayList<>();

    @Override
    public void onMessage(String topic, byte[] payload) {
        messages.add(new Received(topic, payload, Thread.currentThread().getName()));
    }

    List<String> texts() {
        return messages.stream().map(Received::text).toList();
    }

    List<String> topics() {
        return messages.stream().map(Received::topic).toList();
    }
}
