package dev.opcua.benchmarks.load;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * A bench server's memory in a load window, for the RESULT line: its resident set size at the end of the
 * window, still under load ({@code server_rss_mb}), and the heap it keeps live once the load has stopped and it
 * collected garbage ({@code server_heap_after_gc_mb}, n/a for the open62541 peer, which has no such probe).
 *
 * @param rssBytes resident set size from /proc, bytes; -1 when unreadable or no child server
 * @param heapAfterGcBytes heap in use after a collection, bytes; -1 when the server has no {@code GC} probe
 */
record ServerMemory(long rssBytes, long heapAfterGcBytes) {

    static final ServerMemory NONE = new ServerMemory(-1, -1);

    /** The child's resident set size now: to be taken while the load still runs. */
    static long rssNow(ChildServer server) {
        return server == null ? -1 : rssBytes(server.pid());
    }

    /** Resident set size of a process from /proc/&lt;pid&gt;/status (VmRSS), bytes; -1 when unreadable. */
    static long rssBytes(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] parts = line.substring("VmRSS:".length()).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone
        }
        return -1;
    }

    /** Completes {@code rssBytes}, taken under load, with the heap after a collection, asked for now. */
    static ServerMemory after(ChildServer server, long rssBytes) throws InterruptedException {
        if (server == null) {
            return NONE;
        }
        Footprint footprint = server.footprint();
        return new ServerMemory(rssBytes, footprint == null ? -1 : footprint.heapUsed());
    }

    void putInto(Map<String, String> result) {
        result.put("server_rss_mb", mb(rssBytes));
        result.put("server_heap_after_gc_mb", mb(heapAfterGcBytes));
    }

    /** Bytes as MiB for a RESULT field, n/a when negative (not measured). */
    static String mb(long bytes) {
        return bytes < 0 ? "n/a" : LoadHarness.fmt(bytes / 1048576.0);
    }
}
