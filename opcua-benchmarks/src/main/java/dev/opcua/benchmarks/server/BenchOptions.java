package dev.opcua.benchmarks.server;

import java.nio.file.Path;

/**
 * Command-line options shared by {@link BenchServer} and {@link MiloBenchServer}.
 *
 * @param port TCP port, 0 for an ephemeral one
 * @param nodes number of Double variables {@code Var.0 .. Var.{N-1}}
 * @param host host name in the endpoint URL (the server binds 0.0.0.0)
 * @param threads maximum worker threads of the request pipeline (our server only)
 * @param maxQueued maximum queued requests (our server only)
 * @param pki PKI directory (own/, trusted/, issuers/, rejected/); when set, every security policy and
 *        mode is offered besides None, with the application certificate of {@code own/} (created on
 *        first start); null for SecurityPolicy None only
 * @param trustAllClients whether every client certificate is accepted without a trust list: for
 *        benchmarks only, so that load generators connect without manual trust steps
 * @param simulatedVariables {@code --simulate N,RATE}: the server itself changes {@code Var.0 .. Var.{N-1}}
 *        (see {@link ValueSimulator}); 0 when it does not simulate
 * @param simulatedRate values per second the simulation changes, all variables together; 0 without it
 * @param maxSessions {@code --max-sessions N} (our server only): sessions, and with them sockets, secure channels
 *        and subscriptions, the server admits at once; 0 for the limits of {@link BenchServer} and the stack's
 *        defaults (100 sessions, 1,000 connections)
 */
public record BenchOptions(int port, int nodes, String host, int threads, int maxQueued, Path pki,
        boolean trustAllClients, int simulatedVariables, int simulatedRate, int maxSessions) {

    public static final String USAGE = "options: --port N (default 4841, 0 = any free port), --nodes N (default 1000),"
            + " --host NAME (default localhost), --threads N (default 16), --max-queued N (default 2000),"
            + " --pki DIR (offer every security policy and mode; default: None only),"
            + " --trust-all-clients (accept any client certificate; benchmarking only),"
            + " --simulate N,RATE (the server changes Var.0 .. Var.N-1, RATE values per second in all; default: off),"
            + " --max-sessions N (sessions, connections and subscriptions admitted at once; default: the stack's)";

    public static final BenchOptions DEFAULT = new BenchOptions(4841, 1000, "localhost", 16, 2000, null, false);

    /** Options without simulation. */
    public BenchOptions(int port, int nodes, String host, int threads, int maxQueued, Path pki,
            boolean trustAllClients) {
        this(port, nodes, host, threads, maxQueued, pki, trustAllClients, 0, 0);
    }

    /** Options with the default session limits. */
    public BenchOptions(int port, int nodes, String host, int threads, int maxQueued, Path pki,
            boolean trustAllClients, int simulatedVariables, int simulatedRate) {
        this(port, nodes, host, threads, maxQueued, pki, trustAllClients, simulatedVariables, simulatedRate, 0);
    }

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
        if (trustAllClients && pki == null) {
            throw new IllegalArgumentException("--trust-all-clients needs --pki DIR: without it only None is offered");
        }
        if (simulatedVariables < 0 || simulatedVariables > nodes) {
            throw new IllegalArgumentException("--simulate N must be 1.." + nodes + " (--nodes), was "
                    + simulatedVariables);
        }
        if (maxSessions < 0) {
            throw new IllegalArgumentException("--max-sessions must be at least 1, was " + maxSessions);
        }
        if ((simulatedVariables == 0) != (simulatedRate == 0) || simulatedRate < 0) {
            throw new IllegalArgumentException("--simulate needs N and RATE both at least 1, was " + simulatedVariables
                    + "," + simulatedRate);
        }
    }

    /** These options admitting {@code value} sessions at once. */
    public BenchOptions withMaxSessions(int value) {
        return new BenchOptions(port, nodes, host, threads, maxQueued, pki, trustAllClients, simulatedVariables,
                simulatedRate, value);
    }

    /** Whether the server changes its variables itself. */
    public boolean simulates() {
        return simulatedVariables > 0;
    }

    public BenchOptions withPort(int value) {
        return new BenchOptions(value, nodes, host, threads, maxQueued, pki, trustAllClients, simulatedVariables,
                simulatedRate, maxSessions);
    }

    public BenchOptions withNodes(int value) {
        return new BenchOptions(port, value, host, threads, maxQueued, pki, trustAllClients, simulatedVariables,
                simulatedRate, maxSessions);
    }

    /** These options with a PKI directory and, when {@code trustAll}, every client certificate accepted. */
    public BenchOptions withPki(Path directory, boolean trustAll) {
        return new BenchOptions(port, nodes, host, threads, maxQueued, directory, trustAll, simulatedVariables,
                simulatedRate, maxSessions);
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
        Path pki = null;
        boolean trustAll = false;
        int simulatedVariables = 0;
        int simulatedRate = 0;
        int maxSessions = 0;
        for (int i = 0; i < args.length; i += 2) {
            String name = args[i];
            if (name.equals("--trust-all-clients")) { // a switch: no value follows
                trustAll = true;
                i--;
                continue;
            }
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
                case "--pki" -> pki = Path.of(value);
                case "--max-sessions" -> {
                    maxSessions = integer(name, value);
                    if (maxSessions < 1) {
                        throw new IllegalArgumentException("--max-sessions must be at least 1, was " + value + "; "
                                + USAGE);
                    }
                }
                case "--simulate" -> {
                    int comma = value.indexOf(',');
                    if (comma < 0) {
                        throw new IllegalArgumentException("--simulate needs N,RATE, was '" + value + "'; " + USAGE);
                    }
                    simulatedVariables = integer(name, value.substring(0, comma));
                    simulatedRate = integer(name, value.substring(comma + 1));
                    if (simulatedVariables < 1 || simulatedRate < 1) {
                        throw new IllegalArgumentException("--simulate needs N and RATE both at least 1, was '" + value
                                + "'; " + USAGE);
                    }
                }
                default -> throw new IllegalArgumentException("unknown option " + name + "; " + USAGE);
            }
        }
        try {
            return new BenchOptions(port, nodes, host, threads, maxQueued, pki, trustAll, simulatedVariables,
                    simulatedRate, maxSessions);
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
