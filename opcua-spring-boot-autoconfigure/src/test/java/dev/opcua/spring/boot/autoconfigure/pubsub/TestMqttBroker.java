package dev.opcua.spring.boot.autoconfigure.pubsub;

import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Properties;

/**
 * A real MQTT broker (Moquette) in the test JVM on a free port of 127.0.0.1, anonymous, without persistence, for
 * the tests of the PubSub starter and of the console's PubSub card.
 */
public final class TestMqttBroker implements AutoCloseable {

    private final Server server = new Server();
    private final int port;

    private TestMqttBroker(int port) {
        this.port = port;
    }

    /** A started broker. */
    public static TestMqttBroker start() {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Properties properties = new Properties();
        properties.setProperty("host", "127.0.0.1");
        properties.setProperty("port", Integer.toString(port));
        properties.setProperty("allow_anonymous", "true");
        properties.setProperty("persistence_enabled", "false");
        properties.setProperty("telemetry_enabled", "false");
        properties.setProperty("netty.epoll", "false");
        properties.setProperty("netty.mqtt.message_size", Integer.toString(1 << 20)); // Moquette's default is 8092
        TestMqttBroker broker = new TestMqttBroker(port);
        try {
            broker.server.startServer(new MemoryConfig(properties));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Moquette on port " + port, e);
        }
        return broker;
    }

    public int port() {
        return port;
    }

    /** {@code tcp://127.0.0.1:<port>}. */
    public String url() {
        return "tcp://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        server.stopServer();
    }
}
