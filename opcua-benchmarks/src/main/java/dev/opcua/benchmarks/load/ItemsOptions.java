package dev.opcua.benchmarks.load;

import static dev.opcua.benchmarks.load.OptionValues.atLeast;
import static dev.opcua.benchmarks.load.OptionValues.integer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Options of the {@code items} scenario ({@link ItemsScenario}), which has options of its own.
 *
 * @param server {@code ours}, {@code milo} or {@code open62541}: the bench server started as a child process
 * @param client {@code raw} (raw sessions of the harness), {@code ours} (one of our {@code OpcUaClient}s per
 *        session) or {@code milo} (one of Eclipse Milo's per session): what holds the items
 * @param sessions sessions, one subscription each
 * @param itemsPerSession data-change monitored items of each session's subscription
 * @param changesPerS values the server changes a second, all variables together
 * @param variables the variables {@code Var.0 .. Var.{variables-1}} the items monitor, item {@code i} (counted over
 *        all sessions) variable {@code i % variables}; every item has a variable of its own when equal to the items
 * @param samplingMs requested sampling interval of every item
 * @param publishingMs requested publishing interval of every subscription
 * @param queueSize requested queue size of every item (discard oldest)
 * @param perCall items per CreateMonitoredItems request at most; 0 for the server's MaxMonitoredItemsPerCall
 *        (capped at {@value #DEFAULT_PER_CALL} when the server has no limit)
 * @param warmupS seconds of changes before the window
 * @param durationS the window, seconds
 * @param serverHeap the child server's {@code -Xmx}, e.g. {@code 2g} (a JVM's only)
 * @param open62541 the open62541 peer's {@code bench_server} with {@code --server open62541} ({@code --open62541
 *        PATH}, else as {@link LoadOptions#peerExecutable()} finds it); null for the other servers
 */
record ItemsOptions(String server, String client, int sessions, int itemsPerSession, int changesPerS, int variables,
        int samplingMs, int publishingMs, int queueSize, int perCall, int warmupS, int durationS, String serverHeap,
        String open62541) {

    /** Items per CreateMonitoredItems request when the server sets no limit. */
    static final int DEFAULT_PER_CALL = 1000;
    /** The changes a second the goal asks for, the default when the variables allow it. */
    static final int GOAL_CHANGES_PER_S = 100_000;

    static final String USAGE = "usage: --scenario items [--server ours|milo|open62541 (ours)] [--open62541 PATH"
            + " ($O6_BUILD/bench_server, " + LoadOptions.OPEN62541_DEFAULT + ")] [--client raw|ours|milo (raw)]"
            + " [--sessions S (10)]"
            + " [--items-per-session N (1000)] [--changes-per-s R (100000, or the most the variables allow)]"
            + " [--variables V (S x N: a variable per item)] [--sampling-ms MS (1000)] [--publishing-ms MS (1000)]"
            + " [--queue N (1)] [--per-call N (0: the server's MaxMonitoredItemsPerCall)] [--warmup S (5)]"
            + " [--duration S (20)] [--server-heap SIZE (2g)]; a variable may change at most once per two sampling"
            + " intervals (R <= V x 1000 / (2 x sampling-ms)), so that every change is sampled";

    ItemsOptions {
        if (!server.equals("ours") && !server.equals("milo") && !server.equals("open62541")) {
            throw new IllegalArgumentException("--server must be ours, milo or open62541, was " + server);
        }
        if ((open62541 != null) != server.equals("open62541")) {
            throw new IllegalArgumentException("--open62541 PATH goes with --server open62541 (and only with it)");
        }
        if (!client.equals("raw") && !client.equals("ours") && !client.equals("milo")) {
            throw new IllegalArgumentException("--client must be raw, ours or milo, was " + client);
        }
        atLeast("--sessions", sessions, 1);
        atLeast("--items-per-session", itemsPerSession, 1);
        atLeast("--changes-per-s", changesPerS, 1);
        atLeast("--variables", variables, 1);
        atLeast("--sampling-ms", samplingMs, 1);
        atLeast("--publishing-ms", publishingMs, 1);
        atLeast("--queue", queueSize, 1);
        atLeast("--per-call", perCall, 0);
        atLeast("--warmup", warmupS, 0);
        atLeast("--duration", durationS, 1);
        long total = (long) sessions * itemsPerSession; // the fields are not set yet: no totalItems()
        if (total > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("--sessions x --items-per-session must be at most " + Integer.MAX_VALUE
                    + ", was " + total);
        }
        if (variables > total) {
            throw new IllegalArgumentException("--variables must be at most the items, " + total + ", was "
                    + variables);
        }
        if (changesPerS > maxChangesPerS(variables, samplingMs)) {
            throw new IllegalArgumentException("--changes-per-s " + changesPerS + " is more than " + variables
                    + " variables sampled every " + samplingMs + " ms can deliver without losing a change: at most "
                    + maxChangesPerS(variables, samplingMs) + " (one change per variable per two sampling intervals)");
        }
        if (!serverHeap.matches("[0-9]+[kmgKMG]?")) {
            throw new IllegalArgumentException("--server-heap must be a size such as 512m or 2g, was " + serverHeap);
        }
    }

    /** Changes a second that {@code variables} sampled every {@code samplingMs} take without losing one. */
    static int maxChangesPerS(int variables, int samplingMs) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, (long) variables * 1000 / (2L * samplingMs)));
    }

    /** Whether the arguments ask for this scenario. */
    static boolean asked(String[] args) {
        for (int i = 0; i + 1 < args.length; i++) {
            if (args[i].equals("--scenario") && args[i + 1].equals("items")) {
                return true;
            }
        }
        return false;
    }

    long totalItems() {
        return (long) sessions * itemsPerSession;
    }

    /** The variable item {@code k} of session {@code s} monitors. */
    int variableOf(int session, int k) {
        return (int) (((long) session * itemsPerSession + k) % variables);
    }

    /**
     * The child server's options: its variables, the held simulation (the JVMs' by a system property, the open62541
     * peer's by {@value ChildServer#PEER_HELD_SIMULATION}), room for the sessions.
     */
    List<String> serverOptions() {
        List<String> options = new ArrayList<>(List.of("--simulate", variables + "," + changesPerS));
        if (server.equals("ours") || server.equals("open62541")) {
            options.addAll(List.of("--max-sessions", Integer.toString(sessions + 10)));
        }
        if (server.equals("open62541")) {
            options.add(ChildServer.PEER_HELD_SIMULATION);
        }
        return options;
    }

    /** Whether the server is a JVM (ours, Milo's), with a heap and a GC log; the open62541 peer is not. */
    boolean jvmServer() {
        return !server.equals("open62541");
    }

    /** The namespace of the bench variables: the open62541 peer's differs from ours and Milo's. */
    String namespaceUri() {
        return server.equals("open62541") ? LoadOptions.PEER_NAMESPACE_URI
                : dev.opcua.benchmarks.server.BenchAddressSpace.NAMESPACE_URI;
    }

    static ItemsOptions parse(String... args) {
        String server = "ours";
        String client = "raw";
        int sessions = 10;
        int perSession = 1000;
        Integer changes = null;
        Integer variables = null;
        int sampling = 1000;
        int publishing = 1000;
        int queue = 1;
        int perCall = 0;
        int warmup = 5;
        int duration = 20;
        String heap = "2g";
        String open62541 = null;
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (name.equals("--help")) {
                throw new IllegalArgumentException("the items scenario's options:");
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + name);
            }
            String value = args[i + 1];
            switch (name) {
                case "--scenario" -> {
                    if (!value.equals("items")) {
                        throw new IllegalArgumentException("not the items scenario: " + value);
                    }
                }
                case "--server" -> server = value.toLowerCase(Locale.ROOT);
                case "--client" -> client = value.toLowerCase(Locale.ROOT);
                case "--sessions" -> sessions = integer(name, value);
                case "--items-per-session" -> perSession = integer(name, value);
                case "--changes-per-s" -> changes = integer(name, value);
                case "--variables" -> variables = integer(name, value);
                case "--sampling-ms" -> sampling = integer(name, value);
                case "--publishing-ms" -> publishing = integer(name, value);
                case "--queue" -> queue = integer(name, value);
                case "--per-call" -> perCall = integer(name, value);
                case "--warmup" -> warmup = integer(name, value);
                case "--duration" -> duration = integer(name, value);
                case "--server-heap" -> heap = value;
                case "--open62541" -> open62541 = value;
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        if (open62541 == null && server.equals("open62541")) {
            open62541 = LoadOptions.peerExecutable();
        }
        long total = (long) Math.max(1, sessions) * Math.max(1, perSession);
        int v = variables != null ? variables : (int) Math.min(Integer.MAX_VALUE, total);
        int r = changes != null ? changes : Math.min(GOAL_CHANGES_PER_S, maxChangesPerS(v, Math.max(1, sampling)));
        return new ItemsOptions(server, client, sessions, perSession, r, v, sampling, publishing, queue, perCall,
                warmup, duration, heap, open62541);
    }
}
