package dev.opcua.benchmarks.load;

import static dev.opcua.benchmarks.load.OptionValues.atLeast;
import static dev.opcua.benchmarks.load.OptionValues.integer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * Command-line options of the {@code pubsub} scenario of {@link LoadHarness} (see {@link PubSubScenario}): one
 * publisher and {@code --subscribers} subscriber PubSubServices over an MQTT broker.
 *
 * @param broker the broker URL ({@code tcp://host:port}), or null with {@code startMosquitto}
 * @param startMosquitto {@code --start-mosquitto}: the harness starts {@code mosquitto} on a free port of 127.0.0.1
 *        with a generated configuration ({@link MosquittoBroker}) and stops it afterwards
 * @param mosquitto the mosquitto executable for {@code --start-mosquitto} ({@code --mosquitto PATH})
 * @param brokerInflight {@code --start-mosquitto}: the broker's {@code max_inflight_messages} (QoS 1 messages in
 *        flight to one client; 0 for no limit)
 * @param brokerQueued {@code --start-mosquitto}: the broker's {@code max_queued_messages} (QoS 1 messages queued for
 *        one client beyond those in flight; mosquitto drops the newest beyond it, even at QoS 1)
 * @param subscribers subscriber PubSubServices, each on its own MQTT connection
 * @param valuesPerSecond values the publisher offers per second: {@code fields} per message
 * @param fields fields of the published data set, Double and UInt32 in turn
 * @param json {@code --encoding json} (true) or {@code uadp}
 * @param qos 0 (at most once) or 1 (at least once), of the writer group and of every reader
 * @param durationS the measured window in seconds (latency, CPU, bytes)
 * @param warmupS publishing before the window in seconds (counted for losses, not for latency or CPU)
 * @param drainS after the publisher stopped, how long the subscribers may take to receive what is still on its
 *        way, at most
 */
public record PubSubOptions(String broker, boolean startMosquitto, String mosquitto, int brokerInflight,
        int brokerQueued, int subscribers, int valuesPerSecond, int fields, boolean json, int qos, int durationS,
        int warmupS, int drainS) {

    public static final String DEFAULT_MOSQUITTO = "/usr/sbin/mosquitto";

    public static final String USAGE = "usage: LoadHarness --scenario pubsub (--broker tcp://HOST:PORT"
            + " | --start-mosquitto [--mosquitto PATH (mosquitto on the PATH, else " + DEFAULT_MOSQUITTO + ")]"
            + " [--broker-inflight N (0: no limit)] [--broker-queued N (100000)])"
            + " [--subscribers N (10)] [--values-per-s V (10000)] [--fields F (100)] [--encoding json|uadp (json)]"
            + " [--qos 0|1 (1)] [--duration S (10)] [--warmup S (3)] [--drain S (30)];"
            + " the writer group publishes all F fields every F/V seconds (100 fields at 10000 values/s: every 10 ms)";

    public PubSubOptions {
        if ((broker == null) == !startMosquitto) {
            throw new IllegalArgumentException("give exactly one of --broker and --start-mosquitto");
        }
        if (broker != null && !broker.startsWith("tcp://") && !broker.startsWith("mqtt://")) {
            throw new IllegalArgumentException("--broker must start with tcp:// or mqtt://, was " + broker);
        }
        atLeast("--broker-inflight", brokerInflight, 0);
        atLeast("--broker-queued", brokerQueued, 0);
        atLeast("--subscribers", subscribers, 1);
        atLeast("--values-per-s", valuesPerSecond, 1);
        atLeast("--fields", fields, 1);
        if (qos != 0 && qos != 1) {
            throw new IllegalArgumentException("--qos must be 0 or 1, was " + qos);
        }
        atLeast("--duration", durationS, 1);
        atLeast("--warmup", warmupS, 0);
        atLeast("--drain", drainS, 1);
        // the compact constructor sees its parameters, not yet the fields the accessors read
        long intervalNanos = intervalNanos(fields, valuesPerSecond);
        if (intervalNanos < 1_000_000) {
            throw new IllegalArgumentException("--fields " + fields + " at --values-per-s " + valuesPerSecond
                    + " needs a publishing interval of " + intervalNanos / 1e6
                    + " ms; a writer group publishes at most every 1 ms: give more fields or fewer values");
        }
    }

    /** Parses {@code --name value} pairs and the flag {@code --start-mosquitto}; the first two are the scenario's. */
    public static PubSubOptions parse(String... args) {
        String broker = null;
        boolean start = false;
        String mosquitto = null;
        int inflight = 0;
        int queued = 100_000;
        int subscribers = 10;
        int values = 10_000;
        int fields = 100;
        String encoding = "json";
        int qos = 1;
        int duration = 10;
        int warmup = 3;
        int drain = 30;
        for (int i = 0; i < args.length; i++) {
            String name = args[i];
            if (name.equals("--start-mosquitto")) {
                start = true;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + name);
            }
            String value = args[++i];
            switch (name) {
                case "--scenario" -> {
                    if (!value.equals("pubsub")) {
                        throw new IllegalArgumentException("PubSubOptions are the pubsub scenario's, not " + value);
                    }
                }
                case "--broker" -> broker = value;
                case "--mosquitto" -> mosquitto = value;
                case "--broker-inflight" -> inflight = integer(name, value);
                case "--broker-queued" -> queued = integer(name, value);
                case "--subscribers" -> subscribers = integer(name, value);
                case "--values-per-s" -> values = integer(name, value);
                case "--fields" -> fields = integer(name, value);
                case "--encoding" -> encoding = value.toLowerCase(Locale.ROOT);
                case "--qos" -> qos = integer(name, value);
                case "--duration" -> duration = integer(name, value);
                case "--warmup" -> warmup = integer(name, value);
                case "--drain" -> drain = integer(name, value);
                default -> throw new IllegalArgumentException("unknown option of --scenario pubsub: " + name);
            }
        }
        if (!encoding.equals("json") && !encoding.equals("uadp")) {
            throw new IllegalArgumentException("--encoding must be json or uadp, was " + encoding);
        }
        if (mosquitto != null && !start) {
            throw new IllegalArgumentException("--mosquitto PATH goes with --start-mosquitto");
        }
        if (start && mosquitto == null) {
            mosquitto = onPath("mosquitto");
        }
        return new PubSubOptions(broker, start, mosquitto, inflight, queued, subscribers, values, fields,
                encoding.equals("json"), qos, duration, warmup, drain);
    }

    /** The writer group's publishing interval: one message of {@code fields} values every fields/V seconds. */
    public Duration publishingInterval() {
        return Duration.ofNanos(intervalNanos(fields, valuesPerSecond));
    }

    private static long intervalNanos(int fields, int valuesPerSecond) {
        return fields * 1_000_000_000L / valuesPerSecond;
    }

    /** {@code encoding=...} of the RESULT line. */
    public String encodingName() {
        return json ? "json" : "uadp";
    }

    private static String onPath(String executable) {
        String path = System.getenv("PATH");
        if (path != null) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, executable))) {
                    return Path.of(dir, executable).toString();
                }
            }
        }
        return DEFAULT_MOSQUITTO;
    }
}
