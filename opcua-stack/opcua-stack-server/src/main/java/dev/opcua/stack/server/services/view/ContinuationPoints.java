package dev.opcua.stack.server.services.view;

import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.structured.ReferenceDescription;
import java.security.SecureRandom;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Browse continuation points of one owner (Part 4, 7.9): the references a Browse could not
 * return yet, under an unguessable id, at most {@code max} at a time (MaxBrowseContinuationPoints).
 * Thread-safe; the session issue keeps one instance per session.
 */
public final class ContinuationPoints {

    private static final SecureRandom RANDOM = new SecureRandom();

    private final int max;
    private final Map<ByteString, Remaining> points = new LinkedHashMap<>();

    /** References still to return and how many a response may carry. */
    record Remaining(ReferenceDescription[] references, int maxPerResponse) {
    }

    public ContinuationPoints(int max) {
        this.max = max;
    }

    /** Stores the remaining references; returns their id, or null when all points are in use. */
    synchronized ByteString store(Remaining remaining) {
        if (points.size() >= max) {
            return null;
        }
        byte[] id = new byte[16];
        RANDOM.nextBytes(id);
        ByteString key = ByteString.wrap(id);
        points.put(key, remaining);
        return key;
    }

    /** Takes and forgets the references of a point; null when the id is unknown. */
    synchronized Remaining take(ByteString id) {
        return id == null ? null : points.remove(id);
    }

    public synchronized int size() {
        return points.size();
    }
}
