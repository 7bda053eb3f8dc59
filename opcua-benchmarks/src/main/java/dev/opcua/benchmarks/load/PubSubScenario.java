package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.proc.ProcessCpu;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.pubsub.config.DataSetReaderConfig;
import dev.opcua.stack.pubsub.config.DataSetWriterConfig;
import dev.opcua.stack.pubsub.config.MessageEncoding;
import dev.opcua.stack.pubsub.config.PubSubConnectionConfig;
import dev.opcua.stack.pubsub.config.PublishedDataSet;
import dev.opcua.stack.pubsub.config.PublishedField;
import dev.opcua.stack.pubsub.config.WriterGroupConfig;
import dev.opcua.stack.pubsub.message.PublisherId;
import dev.opcua.stack.pubsub.runtime.DataSetSource;
import dev.opcua.stack.pubsub.runtime.InMemoryDataSetSource;
import dev.opcua.stack.pubsub.runtime.PubSubService;
import dev.opcua.stack.pubsub.runtime.PubSubStatistics;
import dev.opcua.stack.pubsub.runtime.StandardMessageMappings;
import dev.opcua.stack.pubsub.transport.QualityOfService;
import dev.opcua.stack.pubsub.transport.mqtt.MqttSettings;
import dev.opcua.stack.pubsub.transport.mqtt.MqttTransport;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code pubsub} scenario (issue 39): one publisher {@link PubSubService} and {@code --subscribers} subscriber
 * PubSubServices, each with its own {@link MqttTransport} (its own MQTT connection and threads) to one broker, all in
 * this JVM. The publisher's writer group sends one data set of {@code --fields} fields (Double and UInt32 in turn)
 * every {@code fields / values-per-s} seconds as key frames (every field in every message), so that it offers
 * {@code --values-per-s} values a second; before each message the values are changed in its
 * {@link InMemoryDataSetSource} (on the publisher's thread). Each subscriber's DataSetReader hands the messages to a
 * {@link PubSubTally} that checks their sequence numbers and counts their values.
 *
 * <p>The run: the subscribers connect and subscribe, the publisher publishes {@code --warmup} seconds and then the
 * measured {@code --duration} seconds, stops, and the subscribers get up to {@code --drain} seconds for what is still
 * on its way. Losses and duplicates count the whole run: expected is every message the publisher sent times its
 * fields times the subscribers. Latency (from the DataSetMessage Timestamp, stamped by the publisher when it makes
 * the network message, to the subscriber's listener), CPU and bytes per message count the window only.
 *
 * <p>CPU, from the JVM's per-thread CPU clocks: the publisher's is its PubSubService thread (sampling, the value
 * changes, encoding, the hand-off) and its MQTT transport's threads ({@code opcua-mqtt-pub}, {@code
 * opcua-mqtt-pub-io-*}); the subscribers' is their MQTT threads ({@code opcua-mqtt-s*}: Netty I/O, decoding,
 * listeners) and their PubSubService threads; the whole JVM's and the broker's (when started here) from /proc.
 */
final class PubSubScenario {

    static final String DATA_SET = "Load";
    static final String GROUP = "load";
    static final String PUBLISHER_CLIENT = "pub";
    static final String SUBSCRIBER_CLIENT = "s";
    private static final int PUBLISHER_ID = 1;
    private static final int WRITER_ID = 1;
    private static final int GROUP_ID = 1;

    private PubSubScenario() {
    }

    /** Message and value counts of a run, and what follows from them. */
    record Counts(long published, int fields, int subscribers, long deliveredValues, long duplicates) {

        /** Values every subscriber should have received: every message sent, all its fields, to each. */
        long expected() {
            return published * fields * subscribers;
        }

        /** Values that did not arrive (never negative: a repeat is a duplicate, not a delivery). */
        long lost() {
            return Math.max(0, expected() - deliveredValues);
        }
    }

    /** The published data set: {@code f0 .. f(F-1)}, Double at even indices, UInt32 at odd ones. */
    static PublishedDataSet dataSet(int fields) {
        List<PublishedField> list = new ArrayList<>(fields);
        for (int i = 0; i < fields; i++) {
            list.add(PublishedField.of("f" + i, i % 2 == 0 ? BuiltinType.Double : BuiltinType.UInt32));
        }
        return new PublishedDataSet(DATA_SET, list);
    }

    static int run(PubSubOptions o, PrintStream out, PrintStream err) throws Exception {
        // 100 subscribers log their connection at INFO; keep stderr to the warnings
        if (System.getProperty("org.slf4j.simpleLogger.log.dev.opcua.stack.pubsub") == null) {
            System.setProperty("org.slf4j.simpleLogger.log.dev.opcua.stack.pubsub", "warn");
        }
        MosquittoBroker started = null;
        try {
            String url = o.broker();
            String broker;
            if (o.startMosquitto()) {
                started = MosquittoBroker.start(o.mosquitto(), o.brokerInflight(), o.brokerQueued());
                url = started.url();
                broker = started.version();
                err.println("mosquitto pid " + started.pid() + " at " + url + ", max_inflight_messages "
                        + o.brokerInflight() + ", max_queued_messages " + o.brokerQueued() + ", log " + started.log());
            } else {
                broker = MosquittoBroker.ask(url);
            }
            return measure(o, url, broker, started, out, err);
        } finally {
            if (started != null) {
                started.close();
            }
        }
    }

    private static int measure(PubSubOptions o, String url, String broker, MosquittoBroker started, PrintStream out,
            PrintStream err) throws Exception {
        MessageEncoding encoding = o.json() ? MessageEncoding.JSON : MessageEncoding.UADP;
        QualityOfService qos = o.qos() == 0 ? QualityOfService.AT_MOST_ONCE : QualityOfService.AT_LEAST_ONCE;
        PublishedDataSet dataSet = dataSet(o.fields());
        Duration interval = o.publishingInterval();
        List<PubSubService> subscribers = new ArrayList<>();
        List<PubSubTally> tallies = new ArrayList<>();
        PubSubService publisher = null;
        try {
            long c0 = System.nanoTime();
            List<CompletableFuture<Void>> starts = new ArrayList<>();
            for (int i = 0; i < o.subscribers(); i++) {
                PubSubTally tally = new PubSubTally();
                DataSetReaderConfig reader = new DataSetReaderConfig("values", PublisherId.ofUInt16(PUBLISHER_ID),
                        GROUP, GROUP_ID, WRITER_ID, encoding, qos, null, dataSet.metaData(), List.of());
                PubSubService subscriber = PubSubService.builder()
                        .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                        .connection(new PubSubConnectionConfig("sub", PublisherId.ofString(SUBSCRIBER_CLIENT + i),
                                List.of(), List.of(reader)), transport(url, SUBSCRIBER_CLIENT + i))
                        .listener("values", tally)
                        .build();
                subscribers.add(subscriber);
                tallies.add(tally);
                starts.add(subscriber.start());
            }
            CompletableFuture.allOf(starts.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            // start() completes on CONNACK; the SUBSCRIBE follows on each transport's thread: give it time
            TimeUnit.SECONDS.sleep(2);
            err.printf(Locale.ROOT, "%d subscribers connected and subscribed in %.1f s%n", o.subscribers(),
                    (System.nanoTime() - c0) / 1e9);

            InMemoryDataSetSource values = new InMemoryDataSetSource().add(dataSet);
            ChangingSource source = new ChangingSource(values, dataSet);
            WriterGroupConfig group = new WriterGroupConfig(GROUP, GROUP_ID, interval, null, encoding, qos, null, null,
                    List.of(new DataSetWriterConfig("values", WRITER_ID, DATA_SET, 1, 0)));
            publisher = PubSubService.builder()
                    .mappings(new StandardMessageMappings(CodecRegistry.standard()))
                    .dataSet(dataSet)
                    .source(source)
                    .connection(new PubSubConnectionConfig("pub", PublisherId.ofUInt16(PUBLISHER_ID), List.of(group),
                            List.of()), transport(url, PUBLISHER_CLIENT))
                    .build();
            err.printf(Locale.ROOT, "pubsub: %s, QoS %d, %d subscribers, %d fields every %.3f ms = %d values/s offered,"
                    + " broker %s at %s, warmup %d s, measuring %d s%n", o.encodingName(), o.qos(), o.subscribers(),
                    o.fields(), interval.toNanos() / 1e6, o.valuesPerSecond(), broker, url, o.warmupS(), o.durationS());
            publisher.start().get(30, TimeUnit.SECONDS);
            long p0 = System.nanoTime();
            TimeUnit.SECONDS.sleep(o.warmupS());

            tallies.forEach(t -> t.recording(true));
            long t0 = System.nanoTime();
            long published0 = source.samples();
            PubSubStatistics stats0 = publisher.statistics();
            Map<Long, ThreadSample> threads0 = threadCpu();
            long proc0 = ProcessCpu.nanosOrUnknown(ProcessHandle.current().pid());
            long broker0 = started == null ? -1 : ProcessCpu.nanosOrUnknown(started.pid());
            long delivered0 = delivered(tallies);
            for (int s = 1; s <= o.durationS(); s++) {
                TimeUnit.SECONDS.sleep(1);
                err.printf(Locale.ROOT, "  %d s: %d messages published, %d values delivered%n", s,
                        source.samples() - published0, delivered(tallies) - delivered0);
            }
            long t1 = System.nanoTime();
            Map<Long, ThreadSample> threads1 = threadCpu();
            long proc1 = ProcessCpu.nanosOrUnknown(ProcessHandle.current().pid());
            long broker1 = started == null ? -1 : ProcessCpu.nanosOrUnknown(started.pid());
            PubSubStatistics stats1 = publisher.statistics();
            long published1 = source.samples();
            long delivered1 = delivered(tallies);
            tallies.forEach(t -> t.recording(false));

            publisher.setEnabled(GROUP, false);
            TimeUnit.NANOSECONDS.sleep(3 * interval.toNanos() + TimeUnit.MILLISECONDS.toNanos(50));
            long p1 = System.nanoTime();
            long published = source.samples();
            long expectedValues = published * o.fields() * o.subscribers();
            long drainStart = System.nanoTime();
            long last = -1;
            long lastChange = drainStart;
            while (true) {
                long now = delivered(tallies);
                if (now >= expectedValues || System.nanoTime() - drainStart > TimeUnit.SECONDS.toNanos(o.drainS())
                        || System.nanoTime() - lastChange > TimeUnit.SECONDS.toNanos(5)) {
                    break;
                }
                if (now != last) {
                    last = now;
                    lastChange = System.nanoTime();
                }
                TimeUnit.MILLISECONDS.sleep(50);
            }
            double drained = (System.nanoTime() - drainStart) / 1e9;

            LatencyHistogram latency = new LatencyHistogram();
            long duplicates = 0;
            long gaps = 0;
            long missing = 0;
            long untimed = 0;
            long deliveredValues = 0;
            long deliveredMessages = 0;
            for (PubSubTally t : tallies) {
                t.addLatencyTo(latency);
                duplicates += t.duplicates();
                gaps += t.gaps();
                missing += t.missing();
                untimed += t.untimed();
                deliveredValues += t.values();
                deliveredMessages += t.messages();
            }
            long decodeErrors = 0;
            long readerDrops = 0;
            for (PubSubService s : subscribers) {
                PubSubStatistics st = s.statistics();
                decodeErrors += st.decodeErrors();
                readerDrops += st.messagesDropped();
            }
            Counts counts = new Counts(published, o.fields(), o.subscribers(), deliveredValues, duplicates);
            double run = (p1 - p0) / 1e9;
            double window = (t1 - t0) / 1e9;
            long windowValues = (published1 - published0) * o.fields();
            long windowMessages = stats1.messagesSent() - stats0.messagesSent();
            Map<String, Long> cpu = cpuByRole(threads0, threads1, source.thread());
            long pubCpu = cpu.getOrDefault("publisher", 0L);
            long subCpu = cpu.getOrDefault("subscribers", 0L);
            long subValues = delivered1 - delivered0;

            Map<String, String> result = new LinkedHashMap<>();
            result.put("scenario", "pubsub");
            result.put("encoding", o.encodingName());
            result.put("qos", Integer.toString(o.qos()));
            result.put("subscribers", Integer.toString(o.subscribers()));
            result.put("fields", Integer.toString(o.fields()));
            result.put("publishing_ms", LoadHarness.fmt(interval.toNanos() / 1e6));
            result.put("duration_s", LoadHarness.fmt(window));
            result.put("values_per_s_offered", LoadHarness.fmt(published * o.fields() / run));
            // per subscriber, to compare with the offered rate; all subscribers together is subscribers times it
            result.put("values_per_s_delivered", LoadHarness.fmt(deliveredValues / run / o.subscribers()));
            result.put("messages_per_s", LoadHarness.fmt(published / run));
            result.put("published", Long.toString(published));
            result.put("delivered", Long.toString(deliveredValues));
            result.put("expected", Long.toString(counts.expected()));
            result.put("lost", Long.toString(counts.lost()));
            result.put("duplicates", Long.toString(duplicates));
            result.put("seq_gaps", Long.toString(gaps));
            result.put("drain_s", LoadHarness.fmt(drained));
            result.put("p50_ms", LoadHarness.fmt(latency.quantile(0.50) / 1e6));
            result.put("p99_ms", LoadHarness.fmt(latency.quantile(0.99) / 1e6));
            result.put("max_ms", LoadHarness.fmt(latency.max() / 1e6));
            result.put("publisher_cpu_us_per_value", windowValues == 0 ? "n/a"
                    : LoadHarness.fmt(pubCpu / 1e3 / windowValues));
            result.put("subscriber_cpu_us_per_value", subValues == 0 ? "n/a"
                    : LoadHarness.fmt(subCpu / 1e3 / subValues));
            result.put("jvm_cpu_pct", proc0 < 0 || proc1 < 0 ? "n/a"
                    : LoadHarness.fmt(100.0 * (proc1 - proc0) / (t1 - t0)));
            result.put("broker_cpu_pct", broker0 < 0 || broker1 < 0 ? "n/a"
                    : LoadHarness.fmt(100.0 * (broker1 - broker0) / (t1 - t0)));
            result.put("bytes_per_message", windowMessages == 0 ? "n/a"
                    : Long.toString((stats1.bytesSent() - stats0.bytesSent()) / windowMessages));
            result.put("publisher_drops", Long.toString(publisher.statistics().messagesDropped()));
            result.put("broker", broker);
            // this machine's run queue at the window's end: other processes on the cores show here
            result.put("loadavg_1m", loadAverage());

            err.printf(Locale.ROOT, "published %d messages (%d values each) in %.1f s; subscribers received %d messages,"
                    + " %d values of %d expected (lost %d, duplicates %d, %d sequence gaps skipping %d messages), "
                    + "drained in %.1f s%n", published, o.fields(), run, deliveredMessages, deliveredValues,
                    counts.expected(), counts.lost(), duplicates, gaps, missing, drained);
            err.printf(Locale.ROOT, "latency ms p50 %s p99 %s max %s (%d messages timed, %d without Timestamp)%n",
                    result.get("p50_ms"), result.get("p99_ms"), result.get("max_ms"), latency.count(), untimed);
            err.printf(Locale.ROOT, "CPU in the window, %% of one core: publisher %.1f, subscribers %.1f, other JVM "
                    + "threads (Java-visible) %.1f, whole JVM %s, broker %s%n", 100.0 * pubCpu / (t1 - t0),
                    100.0 * subCpu / (t1 - t0), 100.0 * cpu.getOrDefault("other", 0L) / (t1 - t0),
                    result.get("jvm_cpu_pct"), result.get("broker_cpu_pct"));
            err.println("busiest threads in the window, % of one core: " + busiest(threads0, threads1, t1 - t0));
            if (counts.lost() > 0 && missing == 0) {
                // no sequence number was skipped: what is missing is the tail, still queued at the broker or on its
                // way when the drain ended (a loss the broker made would leave a gap in the sequence)
                err.printf(Locale.ROOT, "note: no sequence gap: the %d values missing were still on their way after "
                        + "%.1f s of drain; a longer --drain (%d s) waits for them%n", counts.lost(), drained,
                        o.drainS());
            }
            if (decodeErrors > 0 || readerDrops > 0) {
                err.println("warning: the readers counted " + decodeErrors + " decode errors and " + readerDrops
                        + " dropped messages");
            }
            LoadHarness.printResult(result, out);
            return 0;
        } finally {
            if (publisher != null) {
                publisher.close();
            }
            subscribers.parallelStream().forEach(PubSubService::close);
        }
    }

    /** The first field of /proc/loadavg, n/a where it cannot be read. */
    static String loadAverage() {
        try {
            return java.nio.file.Files.readString(java.nio.file.Path.of("/proc/loadavg")).split(" ")[0];
        } catch (java.io.IOException | RuntimeException e) {
            return "n/a";
        }
    }

    private static MqttTransport transport(String url, String clientId) {
        return new MqttTransport(MqttSettings.builder(url).clientId(clientId).connectTimeout(Duration.ofSeconds(10))
                .build());
    }

    private static long delivered(List<PubSubTally> tallies) {
        long sum = 0;
        for (PubSubTally t : tallies) {
            sum += t.values();
        }
        return sum;
    }

    /**
     * The publisher's source: before each sample it changes every field (Double fields to the message number plus
     * a fraction, UInt32 fields to the message number) in the {@link InMemoryDataSetSource}, then samples it; it
     * counts the samples (one per message, every message a key frame) and remembers the publisher's thread.
     */
    static final class ChangingSource implements DataSetSource {

        private final InMemoryDataSetSource values;
        private final PublishedDataSet dataSet;
        private final String[] names;
        private final AtomicLong samples = new AtomicLong();
        private volatile Thread thread;

        ChangingSource(InMemoryDataSetSource values, PublishedDataSet dataSet) {
            this.values = values;
            this.dataSet = dataSet;
            this.names = dataSet.fields().stream().map(PublishedField::name).toArray(String[]::new);
        }

        @Override
        public CompletableFuture<DataValue[]> sample(PublishedDataSet set) {
            long k = samples.get();
            for (int i = 0; i < names.length; i++) {
                values.set(DATA_SET, names[i], DataValue.of(i % 2 == 0 ? Variant.ofDouble(k + i / 1000.0)
                        : Variant.ofUInt32(k & 0xFFFF_FFFFL)));
            }
            thread = Thread.currentThread();
            CompletableFuture<DataValue[]> sample = values.sample(set);
            samples.incrementAndGet();
            return sample;
        }

        long samples() {
            return samples.get();
        }

        Thread thread() {
            return thread;
        }
    }

    /** One live thread's name and CPU time so far. */
    record ThreadSample(String name, long nanos) {
    }

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    static Map<Long, ThreadSample> threadCpu() {
        Map<Long, ThreadSample> map = new HashMap<>();
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids);
        for (int i = 0; i < ids.length; i++) {
            long nanos = THREADS.getThreadCpuTime(ids[i]);
            if (infos[i] != null && nanos >= 0) {
                map.put(ids[i], new ThreadSample(infos[i].getThreadName(), nanos));
            }
        }
        return map;
    }

    /** The role of a thread: publisher, subscribers or other. */
    static String role(String name, String publisherThread) {
        if (name.equals(publisherThread) || name.equals("opcua-mqtt-" + PUBLISHER_CLIENT)
                || name.startsWith("opcua-mqtt-" + PUBLISHER_CLIENT + "-io-")) {
            return "publisher";
        }
        if (name.startsWith("opcua-mqtt-" + SUBSCRIBER_CLIENT) || name.startsWith("opcua-pubsub-")) {
            return "subscribers";
        }
        return "other";
    }

    /** CPU between two snapshots by role; a thread born in between counts from 0. */
    static Map<String, Long> cpuByRole(Map<Long, ThreadSample> a, Map<Long, ThreadSample> b, Thread publisher) {
        String publisherThread = publisher == null ? "" : publisher.getName();
        Map<String, Long> byRole = new HashMap<>();
        b.forEach((id, s) -> {
            ThreadSample before = a.get(id);
            byRole.merge(role(s.name(), publisherThread), s.nanos() - (before == null ? 0 : before.nanos()),
                    Long::sum);
        });
        return byRole;
    }

    /** The eight threads that used the most CPU between two snapshots. */
    private static String busiest(Map<Long, ThreadSample> a, Map<Long, ThreadSample> b, long elapsed) {
        List<Map.Entry<String, Long>> list = new ArrayList<>();
        b.forEach((id, s) -> {
            ThreadSample before = a.get(id);
            list.add(Map.entry(s.name(), s.nanos() - (before == null ? 0 : before.nanos())));
        });
        list.sort(Map.Entry.<String, Long>comparingByValue().reversed());
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < Math.min(8, list.size()); i++) {
            text.append(i == 0 ? "" : ", ").append(list.get(i).getKey()).append(' ')
                    .append(String.format(Locale.ROOT, "%.1f", 100.0 * list.get(i).getValue() / elapsed));
        }
        return text.toString();
    }
}
