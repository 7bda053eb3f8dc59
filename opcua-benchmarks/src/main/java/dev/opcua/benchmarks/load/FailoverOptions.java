package dev.opcua.benchmarks.load;

import static dev.opcua.benchmarks.load.OptionValues.atLeast;
import static dev.opcua.benchmarks.load.OptionValues.integer;

import java.util.Locale;

/**
 * Options of the {@code failover} scenario ({@link FailoverScenario}), which has options of its own.
 *
 * @param mode {@code cold}, {@code warm} or {@code hot}: the servers' RedundancySupport and the client's
 *        {@link dev.opcua.stack.client.redundancy.RedundancyMode}
 * @param items monitored variables {@code Var.0 .. Var.{items-1}}, one subscription
 * @param rate value changes per second on each server, all items together
 * @param kills how many times the active server is killed
 * @param warmupS seconds of steady notifications before the first kill
 * @param intervalS seconds of steady notifications between a failover's end and the next kill
 * @param settleS seconds after the first notification from the survivor before the kill's counts are taken
 * @param publishingMs requested publishing interval
 * @param queueSize each monitored item's queue size (discard oldest)
 * @param failoverTimeoutMs the client's {@code failoverTimeout}: how long it tries the lost server again
 * @param serviceLevelMs the client's {@code serviceLevelInterval}: how often it checks the set
 */
record FailoverOptions(String mode, int items, int rate, int kills, int warmupS, int intervalS, int settleS,
        int publishingMs, int queueSize, int failoverTimeoutMs, int serviceLevelMs) {

    static final String USAGE = "usage: --scenario failover [--mode cold|warm|hot (warm)] [--items N (1000)]"
            + " [--rate VALUES_PER_S (10000, all items together)] [--kills K (5)] [--warmup S (5)]"
            + " [--interval S (5)] [--settle S (3)] [--publishing-ms MS (100)] [--queue N (100)]"
            + " [--failover-timeout-ms MS (1000)] [--service-level-ms MS (250)]";

    FailoverOptions {
        if (!mode.equals("cold") && !mode.equals("warm") && !mode.equals("hot")) {
            throw new IllegalArgumentException("--mode must be cold, warm or hot, was " + mode);
        }
        atLeast("--items", items, 1);
        atLeast("--rate", rate, 1);
        atLeast("--kills", kills, 1);
        atLeast("--publishing-ms", publishingMs, 1);
        atLeast("--queue", queueSize, 1);
        atLeast("--service-level-ms", serviceLevelMs, 1);
        if (warmupS < 0 || intervalS < 0 || settleS < 0 || failoverTimeoutMs < 0) {
            throw new IllegalArgumentException("--warmup, --interval, --settle and --failover-timeout-ms must be 0 or more");
        }
    }

    static FailoverOptions parse(String... args) {
        String mode = "warm";
        int items = 1000;
        int rate = 10_000;
        int kills = 5;
        int warmup = 5;
        int interval = 5;
        int settle = 3;
        int publishing = 100;
        int queue = 100;
        int failoverTimeout = 1000;
        int serviceLevel = 250;
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + name);
            }
            String value = args[i + 1];
            switch (name) {
                case "--scenario" -> {
                    if (!value.equals("failover")) {
                        throw new IllegalArgumentException("not the failover scenario: " + value);
                    }
                }
                case "--mode" -> mode = value.toLowerCase(Locale.ROOT);
                case "--items" -> items = integer(name, value);
                case "--rate" -> rate = integer(name, value);
                case "--kills" -> kills = integer(name, value);
                case "--warmup" -> warmup = integer(name, value);
                case "--interval" -> interval = integer(name, value);
                case "--settle" -> settle = integer(name, value);
                case "--publishing-ms" -> publishing = integer(name, value);
                case "--queue" -> queue = integer(name, value);
                case "--failover-timeout-ms" -> failoverTimeout = integer(name, value);
                case "--service-level-ms" -> serviceLevel = integer(name, value);
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        return new FailoverOptions(mode, items, rate, kills, warmup, interval, settle, publishing, queue,
                failoverTimeout, serviceLevel);
    }
}
