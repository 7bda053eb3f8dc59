package dev.opcua.benchmarks.load;

/**
 * One answer of a bench server's stdout probe: {@code STATS cpu_ns=<n> alloc_bytes=<n>}.
 *
 * @param cpuNanos the server process's CPU time so far
 * @param allocatedBytes bytes allocated so far by the server's live threads
 */
record ServerStats(long cpuNanos, long allocatedBytes) {

    static final String PREFIX = "STATS ";

    /** Parses an answer line; throws IllegalArgumentException when a field is missing or malformed. */
    static ServerStats parse(String line) {
        if (!line.startsWith(PREFIX)) {
            throw new IllegalArgumentException("not a STATS line: " + line);
        }
        long cpu = -1;
        long alloc = -1;
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
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bad value in STATS line: " + line, e);
            }
        }
        if (cpu < 0 || alloc < 0) {
            throw new IllegalArgumentException("incomplete STATS line: " + line);
        }
        return new ServerStats(cpu, alloc);
    }
}
