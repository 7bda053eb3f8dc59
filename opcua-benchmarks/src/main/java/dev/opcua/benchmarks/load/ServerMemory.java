package dev.opcua.benchmarks.load;

import dev.opcua.benchmarks.proc.ProcessMemory;
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
        return server == null ? -1 : ProcessMemory.rssBytesOrUnknown(server.pid());
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
