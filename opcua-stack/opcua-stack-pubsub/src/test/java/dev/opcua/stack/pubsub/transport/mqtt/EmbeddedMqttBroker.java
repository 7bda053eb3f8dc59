package dev.opcua.stack.pubsub.transport.mqtt;

import io.moquette.broker.ISslContextCreator;
import io.moquette.broker.Server;
import io.moquette.broker.config.MemoryConfig;
import io.moquette.broker.security.IAuthenticator;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLException;

/**
 * A Moquette broker in the test JVM on a free port of 127.0.0.1: in-memory (no persistence, no telemetry),
 * anonymous by default, optionally with one user and password, optionally TLS only. Moquette 0.17 speaks MQTT
 * 3.1.1 only; MQTT 5 is tested against Mosquitto ({@code MosquittoBrokerIT}, profile mqtt). {@link #stop()} and
 * {@link #start()} again keep the port, to test reconnecting.
 */
public final class EmbeddedMqttBroker implements AutoCloseable {

    private final Properties properties = new Properties();
    private final IAuthenticator authenticator;
    private final ISslContextCreator sslContextCreator;
    private final int port;
    private final boolean tls;
    private Server server;

    private EmbeddedMqttBroker(String username, String password, KeyManagerFactory tlsKeys) {
        this.port = freePort();
        this.tls = tlsKeys != null;
        properties.setProperty("host", "127.0.0.1");
        properties.setProperty("port", tls ? "disabled" : Integer.toString(port));
        if (tls) {
            properties.setProperty("ssl_port", Integer.toString(port));
        }
        properties.setProperty("allow_anonymous", Boolean.toString(username == null));
        properties.setProperty("persistence_enabled", "false");
        properties.setProperty("telemetry_enabled", "false");
        properties.setProperty("netty.epoll", "false");
        properties.setProperty("netty.mqtt.message_size", Integer.toString(1 << 20)); // default 8092 bytes
        this.authenticator = username == null ? null
                : (clientId, user, pass) -> username.equals(user) && pass != null
                        && Arrays.equals(password.getBytes(java.nio.charset.StandardCharsets.UTF_8), pass);
        this.sslContextCreator = tlsKeys == null ? null : () -> {
            try {
                return SslContextBuilder.forServer(tlsKeys).build();
            } catch (SSLException e) {
                throw new IllegalStateException(e);
            }
        };
    }

    /** An anonymous plain broker, started. */
    public static EmbeddedMqttBroker anonymous() {
        return new EmbeddedMqttBroker(null, null, null).start();
    }

    /** A plain broker that accepts only this user and password, started. */
    static EmbeddedMqttBroker withCredentials(String username, String password) {
        return new EmbeddedMqttBroker(username, password, null).start();
    }

    /** An anonymous TLS-only broker with this server key and certificate, started. */
    static EmbeddedMqttBroker withTls(KeyManagerFactory keys) {
        return new EmbeddedMqttBroker(null, null, keys).start();
    }

    public EmbeddedMqttBroker start() {
        if (server != null) {
            return this;
        }
        Server s = new Server();
        try {
            s.startServer(new MemoryConfig(properties), List.of(), sslContextCreator, authenticator, null);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start Moquette on port " + port, e);
        }
        server = s;
        return this;
    }

    public void stop() {
        if (server != null) {
            server.stopServer();
            server = null;
        }
    }

    public int port() {
        return port;
    }

    public String url() {
        return (tls ? "mqtts" : "mqtt") + "://127.0.0.1:" + port;
    }

    @Override
    public void close() {
        stop();
    }

    static int freePort() {
        try (ServerSocket s = new ServerSocket(0)) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
