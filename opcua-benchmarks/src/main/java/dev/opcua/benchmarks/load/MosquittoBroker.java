package dev.opcua.benchmarks.load;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A mosquitto process the {@code pubsub} scenario starts for itself: on a free port of 127.0.0.1, with a
 * configuration generated into a temporary directory (anonymous, no persistence, the in-flight and queue limits of
 * {@link PubSubOptions}), its log beside it. Its CPU is read from /proc ({@link dev.opcua.benchmarks.proc.ProcessCpu}).
 */
final class MosquittoBroker implements AutoCloseable {

    private final Process process;
    private final int port;
    private final Path dir;
    private final String version;
    /** Stops the broker when the harness is killed (Ctrl-C, SIGTERM) before {@link #close()}. */
    private final Thread stopOnExit;

    private MosquittoBroker(Process process, int port, Path dir, String version) {
        this.process = process;
        this.port = port;
        this.dir = dir;
        this.version = version;
        this.stopOnExit = new Thread(process::destroyForcibly, "load-mosquitto-stop");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
    }

    /** The configuration file's text. */
    static String config(int port, int maxInflight, int maxQueued) {
        return "listener " + port + " 127.0.0.1\n"
                + "allow_anonymous true\n"
                + "persistence false\n"
                + "max_inflight_messages " + maxInflight + "\n"
                + "max_queued_messages " + maxQueued + "\n"
                // the queue limit counts messages; mosquitto 2.0 has no byte limit unless max_queued_bytes is set
                + "max_queued_bytes 0\n"
                + "log_type error\nlog_type warning\nlog_type notice\n"
                + "log_timestamp_format %Y-%m-%dT%H:%M:%S\n";
    }

    static MosquittoBroker start(String executable, int maxInflight, int maxQueued) throws IOException,
            InterruptedException {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        Path dir = Files.createTempDirectory("pubsub-mosquitto-");
        Path config = dir.resolve("mosquitto.conf");
        Files.writeString(config, config(port, maxInflight, maxQueued));
        Path log = dir.resolve("mosquitto.log");
        Process process = new ProcessBuilder(executable, "-c", config.toString()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            if (!process.isAlive()) {
                throw new IOException("mosquitto exited with " + process.exitValue() + ": "
                        + Files.readString(log).strip());
            }
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                break;
            } catch (IOException e) {
                if (System.nanoTime() > deadline) {
                    process.destroyForcibly();
                    throw new IOException("mosquitto did not listen on " + port + " within 10 s", e);
                }
                TimeUnit.MILLISECONDS.sleep(50);
            }
        }
        return new MosquittoBroker(process, port, dir, versionOf(executable));
    }

    /** {@code mosquitto-2.0.11} from the first line of {@code mosquitto -h}, or {@code mosquitto}. */
    static String versionOf(String executable) {
        try {
            Process p = new ProcessBuilder(executable, "-h").redirectErrorStream(true).start();
            String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor(5, TimeUnit.SECONDS);
            return parseVersion(text);
        } catch (IOException e) {
            return "mosquitto";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "mosquitto";
        }
    }

    /** {@code mosquitto version 2.0.11} to {@code mosquitto-2.0.11}. */
    static String parseVersion(String text) {
        String marker = "mosquitto version ";
        int at = text.indexOf(marker);
        if (at < 0) {
            return "mosquitto";
        }
        int end = at + marker.length();
        while (end < text.length() && !Character.isWhitespace(text.charAt(end))) {
            end++;
        }
        return "mosquitto-" + text.substring(at + marker.length(), end);
    }

    /**
     * The version a running broker announces on {@code $SYS/broker/version} (mosquitto retains it), as
     * {@code mosquitto-2.0.11}; {@code unknown} when nothing comes within 3 s.
     */
    static String ask(String url) {
        java.util.concurrent.CompletableFuture<String> version = new java.util.concurrent.CompletableFuture<>();
        try (dev.opcua.stack.pubsub.transport.mqtt.MqttTransport probe =
                new dev.opcua.stack.pubsub.transport.mqtt.MqttTransport(
                        dev.opcua.stack.pubsub.transport.mqtt.MqttSettings.builder(url).clientId("pub-version")
                                .build())) {
            probe.start().get(10, TimeUnit.SECONDS);
            probe.subscribe("$SYS/broker/version", dev.opcua.stack.pubsub.transport.QualityOfService.AT_MOST_ONCE,
                    (topic, payload) -> version.complete(new String(payload, StandardCharsets.UTF_8)));
            return parseVersion(version.get(3, TimeUnit.SECONDS));
        } catch (Exception e) {
            return "unknown";
        }
    }

    String url() {
        return "tcp://127.0.0.1:" + port;
    }

    long pid() {
        return process.pid();
    }

    String version() {
        return version;
    }

    Path log() {
        return dir.resolve("mosquitto.log");
    }

    @Override
    public void close() throws InterruptedException {
        try {
            Runtime.getRuntime().removeShutdownHook(stopOnExit);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook runs anyway
        }
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
