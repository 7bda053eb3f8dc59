package dev.opcua.sample.client;

import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Properties;

/**
 * A Moquette MQTT broker in the test JVM on a free port of 127.0.0.1, anonymous and in memory, in place of the
 * Mosquitto the demo uses (docs/OPERATIONS.md): the sample plant publishes the line to it, the sample client
 * in the profile {@code pubsub} reads from it.
 */
final class MqttBroker implements AutoCloseable {

    private final int port = SamplePlants.freePort();
    private final Server server = new Server();

    private MqttBroker() {
        Properties properties = new Properties();
        properties.setProperty("host", "127.0.0.1");
        properties.setProperty("port", Integer.toString(port));
        properties.setProperty("allow_anonymous", "true");
        properties.setProperty("persistence_enabled", "false");
        properties.setProperty("telemetry_enabled", "false");
        properties.setProperty("netty.epoll", "false");
        properties.setProperty("netty.mqtt.message_size", Integer.toString(1 << 20));
        try {
            server.startServer(new MemoryConfig(properties), List.of(), null, null, null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Moquette on port " + port, e);
        }
    }

    static MqttBroker start() {
        return new MqttBroker();
    }

    /** As the applications' {@code opcua.pubsub.mqtt.broker-url}. */
    String url() {
        return "tcp://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        server.stopServer();
    }
}
