package dev.opcua.benchmarks.load;

/**
 * Command-line options of {@link LoadHarness}.
 *
 * @param scenario {@code read}, {@code write}, {@code browse} or {@code connect}
 * @param values values (nodes) per request
 * @param sessions sessions, each on its own secure channel
 * @param inflight requests each session keeps outstanding (closed loop)
 * @param nodes variables {@code Var.0 .. Var.{nodes-1}} the requests spread over
 * @param durationS measurement window in seconds
 * @param warmupS warmup before the window in seconds
 * @param url endpoint of a running server, or null when {@code server} is set
 * @param server {@code ours} or {@code milo}: started as a child process; null when {@code url} is set
 */
public record LoadOptions(String scenario, int values, int sessions, int inflight, int nodes, int durationS,
        int warmupS, String url, String server) {

    public static final String USAGE = "usage: LoadHarness (--url opc.tcp://host:port/ | --server ours|milo)"
            + " [--scenario read|write|browse|connect] [--values K (1)] [--sessions N (20)] [--inflight N (1)]"
            + " [--nodes N (1000)] [--duration S (10)] [--warmup S (3)]";

    public LoadOptions {
        if (!scenario.equals("read") && !scenario.equals("write") && !scenario.equals("browse")
                && !scenario.equals("connect")) {
            throw new IllegalArgumentException("--scenario must be read, write, browse or connect, was " + scenario);
        }
        atLeast("--values", values, 1);
        atLeast("--sessions", sessions, 1);
        atLeast("--inflight", inflight, 1);
        atLeast("--nodes", nodes, 1);
        atLeast("--duration", durationS, 1);
        atLeast("--warmup", warmupS, 0);
        if ((url == null) == (server == null)) {
            throw new IllegalArgumentException("give exactly one of --url and --server");
        }
        if (server != null && !server.equals("ours") && !server.equals("milo")) {
            throw new IllegalArgumentException("--server must be ours or milo, was " + server);
        }
        if (url != null && !url.startsWith("opc.tcp://")) {
            throw new IllegalArgumentException("--url must start with opc.tcp://, was " + url);
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
                default -> throw new IllegalArgumentException("unknown option " + name);
            }
        }
        return new LoadOptions(scenario, values, sessions, inflight, nodes, duration, warmup, url, server);
    }

    private static void atLeast(String name, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(name + " must be at least " + min + ", was " + value);
        }
    }

    private static int integer(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " needs an integer, was '" + value + "'", e);
        }
    }
}
