package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.security.SecureRandom;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The HistoryRead continuation points of one session (Part 4, 7.9; Part 11, 6.3): where a read of a node
 * resumes, under an unguessable id, at most {@code max} at a time. When all are in use, a new one frees
 * the oldest (Part 4, 7.9: the server frees points of earlier requests when a new request needs one),
 * which then answers BadContinuationPointInvalid, as does a point used or released once already.
 * Thread-safe; kept in the session ({@link dev.opcua.stack.server.session.Session#attachment}), so it
 * ends with it.
 */
public final class HistoryContinuationPoints {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final int max;
    private final Map<ByteString, Point> points = new LinkedHashMap<>();

    /**
     * Where one read stops: the reader (one kind of details) and node it belongs to, and the reader's
     * state.
     */
    record Point(HistoryReader<?> reader, NodeId nodeId, Object state) {
    }

    public HistoryContinuationPoints(int max) {
        if (max < 1) {
            throw new IllegalArgumentException("at least one continuation point per session, was " + max);
        }
        this.max = max;
    }

    /** Stores a point, freeing the oldest when all are in use; returns its id. */
    synchronized ByteString store(Point point) {
        while (points.size() >= max) {
            Iterator<ByteString> oldest = points.keySet().iterator();
            oldest.next();
            oldest.remove();
        }
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        ByteString key = ByteString.wrap(id);
        points.put(key, point);
        return key;
    }

    /** Takes and forgets a point; null when the id is unknown, used or released. */
    synchronized Point take(ByteString id) {
        return id == null || id.isNull() ? null : points.remove(id);
    }

    /** Points held now. */
    public synchronized int size() {
        return points.size();
    }
}
