package dev.opcua.stack.client.transport.uasc;

import io.netty.util.collection.LongObjectHashMap;
import java.util.ArrayList;
import java.util.List;

/**
 * The requests of one client channel waiting for their responses, by RequestId: a map of primitive
 * longs under the instance's lock, so that registering and matching a request boxes nothing and
 * allocates no node (a ConcurrentHashMap of Long cost 48 bytes per request). Callers hold the lock
 * only for the map operation itself.
 */
final class PendingRequests {

    private final LongObjectHashMap<ClientPendingRequest> byId = new LongObjectHashMap<>(64);

    /** Registers {@code p} under {@code id}; false when the id is taken. */
    synchronized boolean putIfAbsent(long id, ClientPendingRequest p) {
        if (byId.containsKey(id)) {
            return false;
        }
        byId.put(id, p);
        return true;
    }

    /** Removes and returns the request of {@code id}; null when none is pending. */
    synchronized ClientPendingRequest remove(long id) {
        return byId.remove(id);
    }

    /** Removes {@code p} if it is still registered under {@code id}. */
    synchronized boolean remove(long id, ClientPendingRequest p) {
        if (byId.get(id) != p) {
            return false;
        }
        byId.remove(id);
        return true;
    }

    /** Removes and returns every pending request. */
    synchronized List<ClientPendingRequest> drain() {
        List<ClientPendingRequest> all = new ArrayList<>(byId.values());
        byId.clear();
        return all;
    }

    /** Removes and returns the requests whose deadline is at or before {@code now} (System.nanoTime). */
    synchronized List<ClientPendingRequest> removeExpired(long now) {
        List<ClientPendingRequest> expired = null;
        for (ClientPendingRequest p : byId.values()) {
            if (p.deadline() - now <= 0) {
                if (expired == null) {
                    expired = new ArrayList<>();
                }
                expired.add(p);
            }
        }
        if (expired == null) {
            return List.of();
        }
        for (ClientPendingRequest p : expired) {
            byId.remove(p.requestId());
        }
        return expired;
    }

    /** The earliest deadline of the pending requests; {@link RequestDeadlines#NONE} when none is pending. */
    synchronized long earliestDeadline() {
        long earliest = RequestDeadlines.NONE;
        for (ClientPendingRequest p : byId.values()) {
            if (earliest == RequestDeadlines.NONE || p.deadline() - earliest < 0) {
                earliest = p.deadline();
            }
        }
        return earliest;
    }
}
