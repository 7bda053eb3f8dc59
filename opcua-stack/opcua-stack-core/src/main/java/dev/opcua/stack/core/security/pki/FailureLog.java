package dev.opcua.stack.core.security.pki;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Remembers which (thumbprint, status) failures were already logged, so that a peer retrying every second
 * produces one log line, not thousands. Bounded: the least recently seen pairs are forgotten first.
 */
final class FailureLog {

    private final Map<String, Boolean> seen;

    FailureLog(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        this.seen = new LinkedHashMap<>(64, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, Boolean> eldest) {
                return size() > capacity;
            }
        };
    }

    /** True the first time this pair is seen (or the first time again after it was forgotten). */
    synchronized boolean firstTime(String thumbprintHex, int status) {
        return seen.put(thumbprintHex + '/' + Integer.toHexString(status), Boolean.TRUE) == null;
    }

    synchronized int size() {
        return seen.size();
    }
}
