package dev.opcua.stack.pubsub.transport.mqtt;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTopics.Encoding;
import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link MqttTransport} against Eclipse Mosquitto, a broker other than the one of the unit tests, with MQTT 3.1.1
 * and 5 (Moquette 0.17 has no MQTT 5). Runs in the profile mqtt only:
 * {@code mvn -B verify -Pmqtt -pl opcua-stack/opcua-stack-pubsub}. Needs {@code mosquitto} on the PATH or in
 * /usr/sbin (Debian: {@code apt-get install mosquitto}); skipped without it.
 */
class MosquittoBrokerIT {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    static Path dir;
    private static Mosquitto mosquitto;
    private final List<AutoCloseable> toClose = new ArrayList<>();

    @BeforeAll
    static void startMosquitto() throws Exception {
        Optional<Path> binary = Stream.concat(
                        Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                                .filter(p -> !p.isEmpty()).map(p -> Path.of(p, "mosquitto")),
                        Stream.of(Path.of("/usr/sbin/mosquitto")))
                .filter(Files::isExecutable).findFirst();
        assumeTrue(binary.isPresent(), "mosquitto is not on the PATH nor /usr/sbin/mosquitto; install it (Debian: "
                + "apt-get install mosquitto) to run MosquittoBrokerIT");
        mosquitto = new Mosquitto(binary.get(), dir, EmbeddedMqttBroker.freePort());
        mosquitto.start();
    }

    @AfterAll
    static void stopMosquitto() {
        if (mosquitto != null) {
            mosquitto.stop();
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private MqttTransport started(String url, MqttProtocolVersion version, UnaryOperator<MqttSettings.Builder> more)
            throws Exception {
        MqttTransport t = new MqttTransport(more.apply(MqttSettings.builder(url).protocolVersion(version)
                .connectTimeout(Duration.ofSeconds(2))
                .reconnectDelay(Duration.ofMillis(100), Duration.ofMillis(400))).build());
        toClose.add(t);
        t.start().get(5, TimeUnit.SECONDS);
        return t;
    }

    @ParameterizedTest
    @EnumSource(MqttProtocolVersion.class)
    void roundTripAtEveryQos(MqttProtocolVersion version) throws Exception {
        MqttTransport subscriber = started(mosquitto.url(), version, b -> b);
        MqttTransport publisher = started(mosquitto.url(), version, b -> b);
        String topic = "it/" + UUID.randomUUID();
        Inbox inbox = new Inbox();
        subscriber.subscribe(topic + "/+", QualityOfService.EXACTLY_ONCE, inbox).get(5, TimeUnit.SECONDS);
        java.util.Map<String, byte[]> sent = new java.util.HashMap<>();
        for (QualityOfService qos : QualityOfService.values()) {
            byte[] payload = new byte[10_000];
            ThreadLocalRandom.current().nextBytes(payload);
            sent.put(topic + "/" + qos, payload);
            publisher.publish(topic + "/" + qos, payload, qos, false);
        }
        await().atMost(WAIT).until(() -> inbox.messages.size() == 3);
        assertThat(inbox.topics()).containsExactlyInAnyOrderElementsOf(sent.keySet());
        for (Inbox.Received r : inbox.messages) {
            assertThat(r.payload()).as(r.topic()).isEqualTo(sent.get(r.topic()));
        }
        await().atMost(WAIT).until(() -> publisher.statistics().messagesSent() == 3);
    }

    @ParameterizedTest
    @EnumSource(MqttProtocolVersion.class)
    void retainedMessageReachesALateSubscriber(MqttProtocolVersion version) throws Exception {
        MqttTransport publisher = started(mosquitto.url(), version, b -> b);
        String topic = MqttTopics.metadata(Encoding.UADP, PublisherId.ofUInt32(7), "G" + UUID.randomUUID(), "W");
        publisher.publish(topic, "meta".getBytes(UTF_8), QualityOfService.AT_LEAST_ONCE, true);
        await().atMost(WAIT).until(() -> publisher.statistics().messagesSent() == 1);
        MqttTransport late = started(mosquitto.url(), version, b -> b);
        Inbox inbox = new Inbox();
        late.subscribe(topic, QualityOfService.AT_LEAST_ONCE, inbox).get(5, TimeUnit.SECONDS);
        await().atMost(WAIT).until(() -> inbox.messages.size() == 1);
        assertThat(inbox.texts()).containsExactly("meta");
        publisher.publish(topic, new byte[0], QualityOfService.AT_LEAST_ONCE, true);
    }

    @ParameterizedTest
    @EnumSource(MqttProtocolVersion.class)
    void queuedMessagesArriveAfterTheReconnectAndTheWillOnDeath(MqttProtocolVersion version) throws Exception {
        String topic = "it/" + UUID.randomUUID();
        String status = MqttTopics.status(Encoding.JSON, PublisherId.ofString("it-" + UUID.randomUUID()));
        MqttTransport subscriber = started(mosquitto.url(), version, b -> b);
        Inbox data = new Inbox();
        Inbox will = new Inbox();
        subscriber.subscribe(topic, QualityOfService.AT_LEAST_ONCE, data).get(5, TimeUnit.SECONDS);
        subscriber.subscribe(status, QualityOfService.AT_LEAST_ONCE, will).get(5, TimeUnit.SECONDS);
        try (TcpProxy proxy = new TcpProxy(mosquitto.port)) {
            MqttTransport publisher = started(proxy.url(), version, b -> b.will(new MqttWill(status,
                    "Error".getBytes(UTF_8), QualityOfService.AT_LEAST_ONCE, false)));
            proxy.block(true);
            proxy.cut();
            await().atMost(WAIT).until(() -> !publisher.isConnected() && will.messages.size() == 1);
            assertThat(will.texts()).containsExactly("Error");
            for (int i = 0; i < 20; i++) {
                publisher.publish(topic, ("m" + i).getBytes(UTF_8), QualityOfService.AT_LEAST_ONCE, false);
            }
            assertThat(publisher.statistics().queued()).isEqualTo(20);
            proxy.block(false);
            await().atMost(WAIT).until(() -> data.messages.size() == 20);
            assertThat(data.texts()).containsExactlyElementsOf(IntStream.range(0, 20).mapToObj(i -> "m" + i).toList());
            assertThat(publisher.statistics().reconnects()).isEqualTo(1);
        }
    }

    @ParameterizedTest
    @EnumSource(MqttProtocolVersion.class)
    void reconnectsAfterABrokerRestartAndSubscribesAgain(MqttProtocolVersion version) throws Exception {
        MqttTransport subscriber = started(mosquitto.url(), version, b -> b);
        MqttTransport publisher = started(mosquitto.url(), version, b -> b);
        String topic = "it/" + UUID.randomUUID();
        Inbox inbox = new Inbox();
        subscriber.subscribe(topic, QualityOfService.AT_LEAST_ONCE, inbox).get(5, TimeUnit.SECONDS);
        mosquitto.stop();
        await().atMost(WAIT).until(() -> !subscriber.isConnected() && !publisher.isConnected());
        mosquitto.start();
        await().atMost(WAIT).until(() -> subscriber.isConnected() && publisher.isConnected());
        await().atMost(WAIT).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            publisher.publish(topic, "after".getBytes(UTF_8), QualityOfService.AT_LEAST_ONCE, false);
            assertThat(inbox.messages).isNotEmpty();
        });
        assertThat(subscriber.statistics().reconnects()).isEqualTo(1);
    }

    /** A mosquitto process with its own configuration in a temporary directory. */
    private static final class Mosquitto {
        private final Path binary;
        private final Path config;
        private final Path log;
        private final int port;
        private Process process;

        Mosquitto(Path binary, Path dir, int port) throws IOException {
            this.binary = binary;
            this.port = port;
            this.config = dir.resolve("mosquitto.conf");
            this.log = dir.resolve("mosquitto.log");
            Files.writeString(config, "listener " + port + " 127.0.0.1\nallow_anonymous true\npersistence false\n");
        }

        String url() {
            return "mqtt://127.0.0.1:" + port;
        }

        void start() throws Exception {
            process = new ProcessBuilder(binary.toString(), "-c", config.toString())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
                if (!process.isAlive()) {
                    throw new IllegalStateException("mosquitto exited with " + process.exitValue() + ": "
                            + Files.readString(log));
                }
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    return true;
                } catch (IOException e) {
                    return false;
                }
            });
        }

        void stop() {
            if (process != null) {
                process.destroy();
                try {
                    if (!process.waitFor(5, TimeUnit.SECONDS)) {
                        process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                process = null;
            }
        }
    }
}
