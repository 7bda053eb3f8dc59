package dev.opcua.benchmarks.load;

/**
 * One answer of a bench server's stdout probe:
 * {@code STATS cpu_ns=<n> alloc_bytes=<n> [jit_ms=<n>] [simulated=<n>] [rejected=<n>]}.
 *
 * @param cpuNanos the server process's CPU time so far
 * @param allocatedBytes bytes allocated so far by the server's live threads; -1 when it cannot tell
 * @param jitMillis time its JIT compilers spent so far, -1 when the probe does not tell
 * @param simulatedValues values its {@code --simulate} thread set so far, -1 without one or when not told
 * @param rejectedRequests requests its request queue refused so far (BadServerTooBusy and the other
 *        admission refusals), -1 when the server does not tell
 */
record ServerStats(long cpuNanos, long allocatedBytes, long jitMillis, long simulatedValues, long rejectedRequests) {

    static final String PREFIX = "STATS ";

    ServerStats(long cpuNanos, long allocatedBytes) {
        this(cpuNanos, allocatedBytes, -1, -1, -1);
    }

    /** JIT compilation time between two answers in ms; -1 when either is missing or does not tell. */
    static long jitMillisBetween(ServerStats start, ServerStats end) {
        if (start == null || end == null || start.jitMillis < 0 || end.jitMillis < 0) {
            return -1;
        }
        return end.jitMillis - start.jitMillis;
    }

    /** Parses an answer line; throws IllegalArgumentException when a field is missing or malformed. */
    static ServerStats parse(String line) {
        if (!line.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a STATS line: " + line);
        }
        long cpu = -1;
        long alloc = -1;
        boolean allocTold = false; // -1: a server that cannot count its allocation (the open62541 peer)
        long jit = -1;
        long simulated = -1;
        long rejected = -1;
        for (String pair : line.substring(PREFIX.length()).trim().split("\\s+")) {
            int eq = pair.indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String key = pair.substring(0, eq);
            try {
                if (key.equals("cpu_ns")) {
                    cpu = Long.parseLong(pair.substring(eq + 1));
                } else if (key.equals("alloc_bytes")) {
                    alloc = Long.parseLong(pair.substring(eq + 1));
                    allocTold = alloc >= -1;
                } else if (key.equals("jit_ms")) {
                    jit = Long.parseLong(pair.substring(eq + 1));
                } else if (key.equals("simulated")) {
                    simulated = Long.parseLong(pair.substring(eq + 1));
                } else if (key.equals("rejected")) {
                    rejected = Long.parseLong(pair.substring(eq + 1));
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad value in STATS line: " + line, e);
            }
        }
        if (cpu < 0 || !allocTold) {
            throw new IllegalArgumentException("incomplete STATS line: " + line);
        }
        return new ServerStats(cpu, alloc, jit, simulated, rejected);
    }
}
