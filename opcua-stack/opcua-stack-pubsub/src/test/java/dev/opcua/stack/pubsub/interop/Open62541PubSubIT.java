package dev.opcua.stack.pubsub.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.JsonDataSetMessageContentMask;
import dev.opcua.stack.core.types.enumerated.JsonNetworkMessageContentMask;
import dev.opcua.stack.pubsub.config.DataSetReaderConfig;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedField;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.message.json.JsonLayout;
import dev.opcua.stack.pubsub.runtime.InMemoryDataSetSource;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.pubsub.runtime.ReceivedDataSet;
import dev.opcua.stack.pubsub.runtime.StandardMessageMappings;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.mqtt.MqttSettings;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTransport;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * PubSub over MQTT (Mosquitto) between our {@link PubSubService} and open62541 1.5.7's {@code pubsub_mqtt_publisher}
 * and {@code pubsub_mqtt_subscriber} (opcua-benchmarks/peers/open62541-1.5, built with {@code O6_PEERS=pubsub}),
 * in JSON and UADP, both directions. The peers are looked up in {@code -Dopen62541.pubsub.bin=DIR} (default
 * /tmp/o6ps/bin); the test is skipped when they or mosquitto are missing. Profile mqtt:
 * {@code mvn -B verify -Pmqtt -pl opcua-stack/opcua-stack-pubsub -Dit.test=Open62541PubSubIT}.
 */
class Open62541PubSubIT {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final int PUBLISHER_ID = 2234;
    private static final int WRITER_GROUP_ID = 100;
    private static final int WRITER_ID = 62541;

    @TempDir
    static Path dir;
    private static Path bin;
    private static Process mosquitto;
    private static int port;
    private final List<AutoCloseable> toClose = new ArrayList<>();
    private final List<Peer> peers = new ArrayList<>();

    /** The data set of the peers (pubsub_common.c), field order as there. */
    private static final PublishedDataSet LINE = new PublishedDataSet("Line", List.of(
            PublishedField.of("Counter", BuiltinType.UInt32),
            PublishedField.of("Temperature", BuiltinType.Double),
            PublishedField.of("Running", BuiltinType.Boolean),
            PublishedField.of("Label", BuiltinType.String)));

    /**
     * Our default JSON layout without the WriterGroupName and DataSetWriterName (what open62541 1.5.7 writes itself:
     * its JSON decoder answers BadDecodingError to a NetworkMessage that has them), with every field in the
     * {"UaType":..,"Value":..} form, the only one its decoder reads.
     */
    private static final JsonLayout O6_LAYOUT = new JsonLayout(
            JsonLayout.DEFAULT.networkMessageContentMask() & ~JsonNetworkMessageContentMask.WriterGroupName,
            JsonLayout.DEFAULT.dataSetMessageContentMask() & ~JsonDataSetMessageContentMask.DataSetWriterName)
            .withVariantFields();

    @BeforeAll
    static void startMosquitto() throws Exception {
        bin = Path.of(System.getProperty("open62541.pubsub.bin", "/tmp/o6ps/bin"));
        assumeTrue(Files.isExecutable(bin.resolve("pubsub_mqtt_publisher"))
                        && Files.isExecutable(bin.resolve("pubsub_mqtt_subscriber")),
                "open62541 PubSub peers not found in " + bin + " (-Dopen62541.pubsub.bin=DIR); build them with "
                        + "O6_PEERS=pubsub opcua-benchmarks/peers/open62541-1.5/build.sh (see its README)");
        Optional<Path> binary = Stream.concat(
                        Stream.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator))
                                .filter(p -> !p.isEmpty()).map(p -> Path.of(p, "mosquitto")),
                        Stream.of(Path.of("/usr/sbin/mosquitto")))
                .filter(Files::isExecutable).findFirst();
        assumeTrue(binary.isPresent(), "mosquitto is not on the PATH nor /usr/sbin/mosquitto; install it (Debian: "
                + "apt-get install mosquitto) to run Open62541PubSubIT");
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        Path config = dir.resolve("mosquitto.conf");
        Path log = dir.resolve("mosquitto.log");
        Files.writeString(config, "listener " + port + " 127.0.0.1\nallow_anonymous true\npersistence false\n");
        mosquitto = new ProcessBuilder(binary.get().toString(), "-c", config.toString())
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        await().atMost(WAIT).pollInterval(Duration.ofMillis(50)).until(() -> {
            if (!mosquitto.isAlive()) {
                throw new IllegalStateException("mosquitto exited with " + mosquitto.exitValue() + ": "
                        + Files.readString(log));
            }
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port)) {
                return true;
            } catch (IOException e) {
                return false;
            }
        });
    }

    @AfterAll
    static void stopMosquitto() throws InterruptedException {
        if (mosquitto != null) {
            mosquitto.destroy();
            if (!mosquitto.waitFor(5, TimeUnit.SECONDS)) {
                mosquitto.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    @AfterEach
    void closeAll() throws Exception {
        for (Peer peer : peers) {
            peer.stop();
        }
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }

    private MqttTransport transport(String clientId) {
        return new MqttTransport(MqttSettings.builder("mqtt://127.0.0.1:" + port).clientId(clientId)
                .connectTimeout(Duration.ofSeconds(3)).reconnectDelay(Duration.ofMillis(100), Duration.ofMillis(500))
                .build());
    }

    private static String topic(MessageEncoding encoding) {
        return "o6it/" + encoding.name().toLowerCase() + "/" + UUID.randomUUID();
    }

    private static String encodingArg(MessageEncoding encoding) {
        return encoding.name().toLowerCase();
    }

    @ParameterizedTest
    @EnumSource(MessageEncoding.class)
    void open62541_publisher_to_our_reader(MessageEncoding encoding) throws Exception {
        String topic = topic(encoding);
        List<ReceivedDataSet> received = new CopyOnWriteArrayList<>();
        // JSON: no metadata (open62541's MetaDataVersion is seconds-based, and JSON names the fields); UADP: the
        // metadata names the fields, the messages carry no MetaDataVersion.
        DataSetReaderConfig reader = new DataSetReaderConfig("o6", PublisherId.ofUInt16(PUBLISHER_ID), null,
                WRITER_GROUP_ID, WRITER_ID, encoding, QualityOfService.AT_MOST_ONCE, topic,
                encoding == MessageEncoding.UADP ? LINE.metaData() : null, List.of());
        PubSubService service = PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                .connection(new PubSubConnectionConfig("sub", PublisherId.ofString("reader"), List.of(),
                        List.of(reader)), transport("o6it-sub-" + encoding))
                .listener("o6", received::add)
                .build();
        toClose.add(service);
        service.start().get(5, TimeUnit.SECONDS);

        Peer publisher = peer("pubsub_mqtt_publisher", "--broker", "opc.mqtt://127.0.0.1:" + port,
                "--encoding", encodingArg(encoding), "--publisher-id", Integer.toString(PUBLISHER_ID),
                "--writer-group-id", Integer.toString(WRITER_GROUP_ID), "--dataset-writer-id",
                Integer.toString(WRITER_ID), "--topic", topic, "--interval-ms", "200", "--count", "5");
        assertThat(publisher.waitFor(30)).as("publisher ends: %s", publisher.lines)
                .isTrue();
        assertThat(publisher.process.exitValue()).as("publisher exit: %s", publisher.lines).isZero();
        assertThat(publisher.lines).anyMatch(l -> l.startsWith("DONE sent=5"));

        await().atMost(WAIT).until(() -> received.size() >= 5);
        List<ReceivedDataSet> sorted = new ArrayList<>(received);
        sorted.sort(Comparator.comparingLong(d -> ((Number) d.fields().get("Counter").value().value()).longValue()));
        assertThat(sorted).hasSize(5);
        for (int n = 1; n <= 5; n++) {
            ReceivedDataSet d = sorted.get(n - 1);
            assertThat(d.dataSetWriterId()).isEqualTo(WRITER_ID);
            assertThat(d.publisherId()).hasToString("2234");
            assertThat(d.fields()).containsOnlyKeys("Counter", "Temperature", "Running", "Label");
            assertThat(d.fields().get("Counter").value()).isEqualTo(Variant.ofUInt32(n));
            assertThat(d.fields().get("Temperature").value()).isEqualTo(Variant.ofDouble(20.0 + n / 10.0));
            assertThat(d.fields().get("Running").value()).isEqualTo(Variant.ofBoolean(n % 2 == 1));
            assertThat(d.fields().get("Label").value()).isEqualTo(Variant.ofString("line-" + n));
        }
        assertThat(service.statistics().decodeErrors()).isZero();
    }

    @ParameterizedTest
    @EnumSource(MessageEncoding.class)
    void our_publisher_to_open62541_subscriber(MessageEncoding encoding) throws Exception {
        String topic = topic(encoding);
        Peer subscriber = peer("pubsub_mqtt_subscriber", "--broker", "opc.mqtt://127.0.0.1:" + port,
                "--encoding", encodingArg(encoding), "--publisher-id", Integer.toString(PUBLISHER_ID),
                "--writer-group-id", Integer.toString(WRITER_GROUP_ID), "--dataset-writer-id",
                Integer.toString(WRITER_ID), "--topic", topic, "--count", "3", "--timeout-s", "20", "--verbose");
        await().atMost(WAIT).until(() -> subscriber.lines.contains("READY") || !subscriber.process.isAlive());
        assertThat(subscriber.lines).as("subscriber output").contains("READY");

        InMemoryDataSetSource source = new InMemoryDataSetSource();
        WriterGroupConfig group = new WriterGroupConfig("o6-" + encoding, WRITER_GROUP_ID, Duration.ofMillis(200),
                null, encoding, QualityOfService.AT_MOST_ONCE, topic, null,
                List.of(DataSetWriterConfig.of("line", WRITER_ID, "Line")));
        // open62541 decodes only the {"UaType":..,"Value":..} field form: see LINE_AS_VARIANTS
        PublishedDataSet dataSet = LINE;
        PubSubService service = PubSubService.builder()
                .mappings(new StandardMessageMappings(CodecRegistry.standard(), EncodingLimits.DEFAULT, O6_LAYOUT))
                .dataSet(dataSet)
                .source(source.add(dataSet))
                .connection(new PubSubConnectionConfig("pub", PublisherId.ofUInt16(PUBLISHER_ID), List.of(group),
                        List.of()), transport("o6it-pub-" + encoding))
                .build();
        toClose.add(service);
        source.set("Line", "Counter", DataValue.of(Variant.ofUInt32(4711)));
        source.set("Line", "Temperature", DataValue.of(Variant.ofDouble(21.25)));
        source.set("Line", "Running", DataValue.of(Variant.ofBoolean(true)));
        source.set("Line", "Label", DataValue.of(Variant.ofString("ours-4711")));
        service.start().get(5, TimeUnit.SECONDS);

        assertThat(subscriber.waitFor(30)).as("subscriber ends: %s", subscriber.summary())
                .isTrue();
        assertThat(subscriber.lines.stream().filter(l -> l.startsWith("RECV ")).toList())
                .as("subscriber output: %s", subscriber.summary())
                .hasSizeGreaterThanOrEqualTo(3)
                .allMatch(l -> l.equals("RECV Counter=4711 Temperature=21.25 Running=true Label=ours-4711")
                        || (l.contains("Counter=4711") && l.contains("Label=ours-4711") && l.contains("Running=true")
                                && l.contains("Temperature=21.25")));
        assertThat(subscriber.process.exitValue()).as("subscriber exit: %s", subscriber.summary()).isZero();
        assertThat(subscriber.lines).anyMatch(l -> l.startsWith("DONE received=3"));
    }

    private Peer peer(String program, String... args) throws IOException {
        List<String> command = new ArrayList<>();
        command.add(bin.resolve(program).toString());
        command.addAll(List.of(args));
        Peer peer = new Peer(new ProcessBuilder(command).redirectErrorStream(true).start());
        peers.add(peer);
        return peer;
    }

    /** A peer process whose output lines are collected (and echoed for the report). */
    private static final class Peer {
        final Process process;
        final List<String> lines = new CopyOnWriteArrayList<>();
        private final Thread reader;

        Peer(Process process) {
            this.process = process;
            reader = new Thread(() -> {
                try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = in.readLine(); line != null; line = in.readLine()) {
                        lines.add(line);
                        System.out.println("[peer] " + line);
                    }
                } catch (IOException ignored) {
                    // the process ended
                }
            }, "open62541-peer-output");
            reader.setDaemon(true);
            reader.start();
        }

        /** The program's own lines (upper-case word first) without RAW dumps and open62541's log. */
        List<String> summary() {
            return lines.stream().filter(l -> !l.startsWith("[") && !l.startsWith("RAW ")).limit(40).toList();
        }

        /** Waits for the process and the last of its output. */
        boolean waitFor(long seconds) throws InterruptedException {
            boolean ended = process.waitFor(seconds, TimeUnit.SECONDS);
            if (ended) {
                reader.join(5000);
            }
            return ended;
        }

        void stop() throws InterruptedException {
            if (process.isAlive()) {
                process.destroy();
                if (!process.waitFor(5, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
                }
            }
        }
    }
}
