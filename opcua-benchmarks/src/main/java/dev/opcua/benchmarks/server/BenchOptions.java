package dev.opcua.benchmarks.server;

/**
 * Command-line options shared by {@link BenchServer} and {@link MiloBenchServer}.
 *
 * @param port TCP port, 0 for an ephemeral one
 * @param nodes number of Double variables {@code Var.0 .. Var.{N-1}}
 * @param host host name in the endpoint URL (the server binds 0.0.0.0)
 * @param threads maximum worker threads of the request pipeline (our server only)
 * @param maxQueued maximum queued requests (our server only)
 */
public record BenchOptions(int port, int nodes, String host, int threads, int maxQueued) {

    public static final String USAGE = "options: --port N (default 4841, 0 = any free port), --nodes N (default 1000),"
            + " --host NAME (default localhost), --threads N (default 16), --max-queued N (default 2000)";

    public static final BenchOptions DEFAULT = new BenchOptions(4841, 1000, "localhost", 16, 2000);

    public BenchOptions {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("--port must be 0..65535, was " + port);
        }
        if (nodes < 1) {
            throw new IllegalArgumentException("--nodes must be at least 1, was " + nodes);
        }
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("--host must not be empty");
        }
        if (threads < 1) {
            throw new IllegalArgumentException("--threads must be at least 1, was " + threads);
        }
        if (maxQueued < 1) {
            throw new IllegalArgumentException("--max-queued must be at least 1, was " + maxQueued);
        }
    }

    public BenchOptions withPort(int value) {
        return new BenchOptions(value, nodes, host, threads, maxQueued);
    }

    public BenchOptions withNodes(int value) {
        return new BenchOptions(port, value, host, threads, maxQueued);
    }

    /**
     * Parses {@code --name value} pairs.
     *
     * @throws IllegalArgumentException naming the bad option and listing the valid ones
     */
    public static BenchOptions parse(String... args) {
        int port = DEFAULT.port;
        int nodes = DEFAULT.nodes;
        String host = DEFAULT.host;
        int threads = DEFAULT.threads;
        int maxQueued = DEFAULT.maxQueued;
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("missing value for " + name + "; " + USAGE);
            }
            String value = args[i + 1];
            switch (name) {
                case "--port" -> port = integer(name, value);
                case "--nodes" -> nodes = integer(name, value);
                case "--host" -> host = value;
                case "--threads" -> threads = integer(name, value);
                case "--max-queued" -> maxQueued = integer(name, value);
                default -> throw new IllegalArgumentException("unknown option " + name + "; " + USAGE);
            }
        }
        try {
            return new BenchOptions(port, nodes, host, threads, maxQueued);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(e.getMessage() + "; " + USAGE, e);
        }
    }

    private static int integer(String name, String value) {
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " needs an integer, was '" + value + "'; " + USAGE, e);
        }
    }
}
