package dev.opcua.benchmarks.load;

import static dev.opcua.benchmarks.load.OptionValues.atLeast;
import static dev.opcua.benchmarks.load.OptionValues.integer;
import static dev.opcua.benchmarks.load.OptionValues.number;

import dev.opcua.benchmarks.server.BenchAddressSpace;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Command-line options of {@link LoadHarness}.
 *
 * @param scenario {@code read}, {@code write}, {@code browse}, {@code connect}, {@code sub}, {@code events},
 *        {@code flood}, {@code churn} or {@code sessions} (many idle secure sessions, see {@link SessionsScenario})
 * @param values values (nodes) per request
 * @param sessions sessions, each on its own secure channel (for {@code sub} and {@code events}: subscriber
 *        sessions; the writer has one more)
 * @param inflight requests each session keeps outstanding (closed loop)
 * @param nodes variables {@code Var.0 .. Var.{nodes-1}} the requests spread over
 * @param durationS measurement window in seconds
 * @param warmupS warmup before the window in seconds
 * @param url endpoint of a running server, or null when {@code server} is set
 * @param server {@code ours}, {@code milo} or {@code open62541}: started as a child process; null when
 *        {@code url} is set
 * @param security the security policy and mode of every channel ({@code --security none|sign|encrypt} with
 *        {@code --policy NAME}); {@link EndpointSecurity#NONE} by default
 * @param subscriptions {@code sub}, {@code events}: subscriptions per subscriber session
 * @param items {@code sub}: data-change monitored items per subscription, over distinct variables,
 *        continuing where the previous subscription stopped and wrapping over {@code nodes} (100 unless
 *        given); {@code events}: event items on the Server object per subscription (1 unless given)
 * @param publishingMs {@code sub}, {@code events}: requested publishing interval in milliseconds
 * @param samplingMs {@code sub}: requested sampling interval of every item in milliseconds (0: the
 *        server's fastest); the publishing interval unless given
 * @param writeRate {@code sub}: values the writer writes per second, all sessions together, 0 for the
 *        default: every monitored variable once per (revised) publishing interval; {@code events}:
 *        events it has the server emit per second, 0 for the default {@value #DEFAULT_EVENT_RATE}
 * @param serverChanges {@code sub} with {@code --changes server}: the server changes the monitored variables
 *        itself ({@code --simulate} of the bench servers, at the rate the writer would write) and no writer
 *        session writes, so that server CPU is the notification path's alone; {@code --changes writer} (the
 *        default) writes them with Write requests
 * @param client the client under test: {@code ours} ({@link dev.opcua.stack.client.OpcUaClient}, the default),
 *        {@code milo} (Eclipse Milo 1.1.2's client) or {@code raw} (requests sent on raw client sessions, what the
 *        harness did before it had a client; {@code sub} subscribes through the subscription API of ours or
 *        Milo's, its writer on a raw session; {@code events} runs on raw sessions with {@code ours} and is refused
 *        with {@code milo})
 * @param namespace the URI of the namespace the bench variables and methods are in; its index is read from the
 *        server's NamespaceArray (Part 5, 6.3.1)
 * @param quietRate {@code flood}: Reads of one value per second that each quiet session sends (paced, one
 *        outstanding at a time)
 * @param floodInflight {@code flood}: Reads the flooding session keeps outstanding (closed loop, each answer,
 *        BadServerTooBusy included, sends the next at once)
 * @param floodClient {@code flood}: {@code session} (the flooder is a raw session of the harness's client, closed
 *        loop, {@code --flood-inflight}) or {@code raw} ({@link RawFlooder}: a hand-opened connection that
 *        writes one pre-encoded Read again and again without waiting for answers, so that one client core
 *        offers a server core far more than it can serve)
 * @param browseBench {@code browse}: whether each Browse reads the Bench folder of the bench namespace
 *        ({@code --browse bench}: the node every bench server serves alike, open62541's reduced namespace 0
 *        included) instead of the Server object and the Objects folder ({@code --browse standard}, the default)
 * @param cycles {@code churn}: session cycles (connect, create, activate, close) in all
 * @param cuts {@code churn}: connections that send a cut-short handshake and close
 * @param soak {@code soak}: rate, settle time, sample interval and report directory ({@link SoakOptions})
 * @param open62541 {@code --server open62541}: the {@code bench_server} executable built by
 *        {@code opcua-benchmarks/peers/open62541/build.sh} ({@code --open62541 PATH}, else
 *        {@code $O6_BUILD/bench_server}, else {@value #OPEN62541_DEFAULT}); null for the other servers
 */
public record LoadOptions(String scenario, int values, int sessions, int inflight, int nodes, int durationS,
        int warmupS, String url, String server, EndpointSecurity security, int subscriptions, int items,
        int publishingMs, int samplingMs, int writeRate, boolean serverChanges, String client, String namespace,
        int quietRate, int floodInflight, String floodClient, boolean browseBench, int cycles, int cuts,
        String open62541, SoakOptions soak) {

    /** The clients {@code --client} selects from. */
    public static final List<String> CLIENTS = List.of("ours", "milo", "raw");

    /** The policy of {@code --security sign|encrypt} when {@code --policy} is not given. */
    public static final SecurityPolicy DEFAULT_POLICY = SecurityPolicy.Basic256Sha256;

    /**
     * Where {@code build.sh} of the open62541 peer puts its server unless {@code O6_BUILD} says otherwise,
     * relative to the repository root the harness runs in.
     */
    public static final String OPEN62541_DEFAULT = "opcua-benchmarks/target/open62541/bench_server";

    /**
     * The open62541 peer's {@code bench_server} when none is given: {@code $O6_BUILD/bench_server}, else {@link
     * #OPEN62541_DEFAULT}.
     */
    static String peerExecutable() {
        String build = System.getenv("O6_BUILD");
        return build != null && !build.isBlank() ? build + "/bench_server" : OPEN62541_DEFAULT;
    }

    /** The namespace URI of the open62541 peer's bench layout (ours and Milo's serve {@code urn:bench}). */
    public static final String PEER_NAMESPACE_URI = "urn:peer:bench";

    /** Events per second of the {@code events} scenario without {@code --write-rate}. */
    public static final int DEFAULT_EVENT_RATE = 1000;

    public static final String USAGE = "usage: LoadHarness (--url opc.tcp://host:port/ | --server ours|milo|open62541"
            + " [--open62541 PATH ($O6_BUILD/bench_server, " + OPEN62541_DEFAULT + ")])"
            + " [--scenario read|write|browse|connect|sub|events|flood|churn] [--values K (1)] [--sessions N (20)]"
            + " [--inflight N (1)]"
            + " [--nodes N (1000)] [--duration S (10)] [--warmup S (3)] [--security none|sign|encrypt (none)]"
            + " [--policy " + String.join("|", policyNames()) + " (" + DEFAULT_POLICY + ")]"
            + " [--client ours|milo|raw (ours)] [--namespace URI (" + BenchAddressSpace.NAMESPACE_URI + "; "
            + PEER_NAMESPACE_URI + " with --server open62541)];"
            + " sub, events: [--subscriptions S (1)] [--items K (sub 100, events 1)] [--publishing-ms P (100)]"
            + " [--sampling-ms MS (P)] [--write-rate W (sub: every item once per publishing interval;"
            + " events: " + DEFAULT_EVENT_RATE + " events/s)]; sub: [--changes writer|server (writer)];"
            + " browse: [--browse standard|bench (standard: Server object and Objects folder)];"
            + " flood (raw sessions; session 1 floods, the others are quiet): [--quiet-rate R (50 Reads/s per quiet"
            + " session)] [--flood-inflight F (1000)] [--flood-client session|raw (session)];"
            + " churn (raw sessions, --server ours|milo): [--cycles C (100000)]"
            + " [--cuts K (10000)]; sessions (raw sessions, --server ours, the server changes the values):"
            + " --items (10) --publishing-ms (1000) --sampling-ms (P/2);"
            + " soak (raw sessions, --server ours|milo; --duration is its length):"
            + " [--rate OPS (0: 80 % of the capacity measured first)] [--settle S (600)] [--sample S (10)]"
            + " [--report DIR (" + SoakOptions.DEFAULT_REPORT + ")];"
            + " pubsub (PubSub over MQTT, no OPC UA server): options of its own, printed by --scenario pubsub alone;"
            + " items (S sessions x N monitored items): options of its own, printed by --scenario items --help";

    public LoadOptions {
        Objects.requireNonNull(security, "security");
        if (!scenario.equals("read") && !scenario.equals("write") && !scenario.equals("browse")
                && !scenario.equals("connect") && !scenario.equals("sub") && !scenario.equals("events")
                && !scenario.equals("flood") && !scenario.equals("churn") && !scenario.equals("sessions")
                && !scenario.equals("soak")) {
            throw new IllegalArgumentException("--scenario must be read, write, browse, connect, sub, events, flood, "
                    + "churn, sessions or soak, was " + scenario);
        }
        atLeast("--values", values, 1);
        atLeast("--sessions", sessions, 1);
        atLeast("--inflight", inflight, 1);
        atLeast("--nodes", nodes, 1);
        atLeast("--duration", durationS, 1);
        atLeast("--warmup", warmupS, 0);
        atLeast("--subscriptions", subscriptions, 1);
        atLeast("--items", items, 1);
        atLeast("--publishing-ms", publishingMs, 1);
        atLeast("--sampling-ms", samplingMs, 0);
        atLeast("--write-rate", writeRate, 0);
        atLeast("--quiet-rate", quietRate, 1);
        atLeast("--flood-inflight", floodInflight, 1);
        if (!floodClient.equals("session") && !floodClient.equals("raw")) {
            throw new IllegalArgumentException("--flood-client must be session or raw, was " + floodClient);
        }
        atLeast("--cycles", cycles, 0);
        atLeast("--cuts", cuts, 0);
        if (scenario.equals("flood") && sessions < 2) {
            throw new IllegalArgumentException("--scenario flood needs --sessions of at least 2 (one floods), was "
                    + sessions);
        }
        if ((url == null) == (server == null)) {
            throw new IllegalArgumentException("give exactly one of --url and --server");
        }
        if (server != null && !server.equals("ours") && !server.equals("milo") && !server.equals("open62541")) {
            throw new IllegalArgumentException("--server must be ours, milo or open62541, was " + server);
        }
        if ((open62541 != null) != "open62541".equals(server)) {
            throw new IllegalArgumentException("--open62541 PATH goes with --server open62541 (and only with it)");
        }
        if (serverChanges && "open62541".equals(server)) {
            throw new IllegalArgumentException("--changes server needs a bench server that simulates its values; "
                    + "the open62541 peer does not: use --changes writer");
        }
        if (url != null && !url.startsWith("opc.tcp://")) {
            throw new IllegalArgumentException("--url must start with opc.tcp://, was " + url);
        }
        if (serverChanges && !scenario.equals("sub") && !scenario.equals("sessions")) {
            throw new IllegalArgumentException("--changes server needs --scenario sub, was " + scenario);
        }
        if (scenario.equals("sessions") && (!serverChanges || !"ours".equals(server))) {
            // the changes, the heap per session and the session limits (--max-sessions) come from our bench server
            // in a child JVM
            throw new IllegalArgumentException("--scenario sessions needs --server ours (it changes the values, takes "
                    + "--max-sessions and reports its heap), was " + (server == null ? "--url " + url : server));
        }
        if (!CLIENTS.contains(client)) {
            throw new IllegalArgumentException("--client must be ours, milo or raw, was " + client);
        }
        if (client.equals("milo") && scenario.equals("events")) {
            throw new IllegalArgumentException("--client milo runs read, write, browse, connect and sub; " + scenario
                    + " runs with --client ours or raw (on raw sessions)");
        }
        if (namespace == null || namespace.isBlank()) {
            throw new IllegalArgumentException("--namespace needs a URI");
        }
        if (values > nodes) {
            throw new IllegalArgumentException("--values (" + values + ") must not exceed --nodes (" + nodes + ")");
        }
    }

    /** Parses {@code --name value} pairs; an IllegalArgumentException names the bad option. */
    public static LoadOptions parse(String... args) {
        String scenario = "read";
        int values = 1;
        int sessions = 20;
        int inflight = 1;
        int nodes = 1000;
        int duration = 10;
        int warmup = 3;
        String url = null;
        String server = null;
        String mode = "none";
        String policy = null;
        int subscriptions = 1;
        Integer items = null;
        Integer publishingMs = null;
        Integer samplingMs = null;
        int writeRate = 0;
        String changes = "writer";
        String client = "ours";
        String namespace = null;
        String open62541 = null;
        String browse = "standard";
        int cycles = 100_000;
        int cuts = 10_000;
        int quietRate = 50;
        int floodInflight = 1000;
        String floodClient = "session";
        SoakOptions soak = SoakOptions.DEFAULT;
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + name);
            }
            String value = args[i + 1];
            switch (name) {
                case "--scenario" -> scenario = value;
                case "--values" -> values = integer(name, value);
                case "--sessions" -> sessions = integer(name, value);
                case "--inflight" -> inflight = integer(name, value);
                case "--nodes" -> nodes = integer(name, value);
                case "--duration" -> duration = integer(name, value);
                case "--warmup" -> warmup = integer(name, value);
                case "--url" -> url = value;
                case "--server" -> server = value;
                case "--security" -> mode = value;
                case "--policy" -> policy = value;
                case "--subscriptions" -> subscriptions = integer(name, value);
                case "--items" -> items = integer(name, value);
                case "--publishing-ms" -> publishingMs = integer(name, value);
                case "--sampling-ms" -> samplingMs = integer(name, value);
                case "--write-rate" -> {
                    writeRate = integer(name, value);
                    // 0 stands for the default in the record: an explicit rate must write something
                    atLeast(name, writeRate, 1);
                }
                case "--changes" -> changes = value;
                case "--client" -> client = value;
                case "--namespace" -> namespace = value;
                case "--quiet-rate" -> quietRate = integer(name, value);
                case "--flood-inflight" -> floodInflight = integer(name, value);
                case "--flood-client" -> floodClient = value;
                case "--open62541" -> open62541 = value;
                case "--browse" -> browse = value;
                case "--cycles" -> cycles = integer(name, value);
                case "--cuts" -> cuts = integer(name, value);
                case "--rate" -> soak = soak.withRate(number(name, value));
                case "--settle" -> soak = soak.withSettle(integer(name, value));
                case "--sample" -> soak = soak.withSample(integer(name, value));
                case "--report" -> soak = soak.withReport(value);
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        if (!browse.equals("standard") && !browse.equals("bench")) {
            throw new IllegalArgumentException("--browse must be standard or bench, was " + browse);
        }
        boolean peer = "open62541".equals(server);
        if (peer && open62541 == null) {
            open62541 = peerExecutable();
        }
        if (namespace == null) {
            namespace = peer ? PEER_NAMESPACE_URI : BenchAddressSpace.NAMESPACE_URI;
        }
        boolean manySessions = scenario.equals("sessions");
        if (manySessions) {
            // the server changes the values (no writer among thousands of sessions); sampled twice per change, so
            // that a late sample never merges two changes and every change is delivered
            changes = "server";
            publishingMs = publishingMs == null ? 1000 : publishingMs;
            samplingMs = samplingMs == null ? Math.max(1, publishingMs / 2) : samplingMs;
        }
        int publishing = publishingMs == null ? 100 : publishingMs;
        return new LoadOptions(scenario, values, sessions, inflight, nodes, duration, warmup, url, server,
                security(mode, policy), subscriptions, items != null ? items : scenario.equals("events") ? 1
                        : manySessions ? 10 : 100,
                publishing,
                samplingMs == null ? publishing : samplingMs, writeRate, serverChanges(changes), client, namespace,
                quietRate, floodInflight, floodClient, browse.equals("bench"), cycles, cuts, open62541, soak);
    }

    private static boolean serverChanges(String changes) {
        return switch (changes) {
            case "writer" -> false;
            case "server" -> true;
            default -> throw new IllegalArgumentException("--changes must be writer or server, was " + changes);
        };
    }

    /**
     * {@code sub}: values changed per second, all monitored variables together: {@code --write-rate}, or
     * every monitored variable once per requested publishing interval.
     */
    public int changesPerSecond() {
        return writeRate > 0 ? writeRate : (int) Math.max(1, Math.round(monitoredNodes() * 1000.0 / publishingMs));
    }

    /** Extra options of a child bench server: {@code --simulate N,RATE} for {@code --changes server}. */
    public List<String> childServerOptions() {
        List<String> options = new ArrayList<>();
        if (serverChanges) {
            options.addAll(List.of("--simulate", monitoredNodes() + "," + changesPerSecond()));
        }
        if (scenario.equals("sessions")) {
            // room for every session (and its channel and subscriptions): configuration, not the server's default;
            // and a tenth more for sessions whose handshake timed out on the client after CreateSession: the server
            // holds them until their timeout
            options.addAll(List.of("--max-sessions", Integer.toString(sessions + sessions / 10 + 10)));
        }
        return options;
    }

    /** {@code sub}: monitored items of all subscriber sessions together. */
    public long monitoredItems() {
        return (long) sessions * subscriptions * items;
    }

    /**
     * {@code sub}: distinct variables the items monitor, {@code Var.0 .. Var.{n-1}}: every one of
     * {@code nodes} once the items wrap over them.
     */
    public int monitoredNodes() {
        return (int) Math.min(nodes, monitoredItems());
    }

    /**
     * Whether the scenario runs on raw client sessions: {@code --client raw}, {@code events} with
     * {@code --client ours} (the harness drives no event items through the client's API yet), and
     * {@code flood} (its flooder must not be slowed by a client's own bounds) and {@code churn}.
     */
    public boolean rawSessions() {
        return client.equals("raw") || scenario.equals("events") || scenario.equals("flood")
                || scenario.equals("churn") || scenario.equals("sessions") || scenario.equals("soak");
    }

    /** {@code client=...} of the RESULT line: the client that runs the scenario ({@code raw} on raw sessions). */
    public String clientName() {
        return rawSessions() ? "raw" : client;
    }

    /** {@code security=...} of the RESULT line: {@code None}, or policy and mode as in {@code Basic256Sha256/Sign}. */
    public String securityName() {
        return security.policy() == SecurityPolicy.None ? "None" : security.toString();
    }

    /** The endpoint security of {@code --security} and {@code --policy}. */
    private static EndpointSecurity security(String mode, String policyName) {
        MessageSecurityMode securityMode = switch (mode.toLowerCase(Locale.ROOT)) {
            case "none" -> MessageSecurityMode.None;
            case "sign" -> MessageSecurityMode.Sign;
            case "encrypt" -> MessageSecurityMode.SignAndEncrypt;
            default -> throw new IllegalArgumentException("--security must be none, sign or encrypt, was " + mode);
        };
        if (securityMode == MessageSecurityMode.None) {
            if (policyName != null) {
                // a silently ignored policy would make a None run pass for a secured one
                throw new IllegalArgumentException("--policy " + policyName + " needs --security sign or encrypt");
            }
            return EndpointSecurity.NONE;
        }
        if (policyName == null) {
            return new EndpointSecurity(DEFAULT_POLICY, securityMode);
        }
        SecurityPolicy policy = SecurityPolicy.fromNameOrUri(policyName);
        if (policy == null || policy == SecurityPolicy.None) {
            throw new IllegalArgumentException("--policy must be one of " + String.join(", ", policyNames())
                    + " (or its URI), was " + policyName + (policy == null ? "" : "; for None use --security none"));
        }
        return new EndpointSecurity(policy, securityMode);
    }

    /** The names {@code --policy} accepts: every policy of the stack but None. */
    private static List<String> policyNames() {
        List<String> names = new ArrayList<>();
        for (SecurityPolicy p : SecurityPolicy.values()) {
            if (p != SecurityPolicy.None) {
                names.add(p.name());
            }
        }
        return names;
    }
}
