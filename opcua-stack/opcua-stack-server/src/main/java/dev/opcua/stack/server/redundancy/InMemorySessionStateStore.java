package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.builtin.NodeId;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link SessionStateStore} in memory, for two servers of one JVM (tests, demonstrations): sessions are kept
 * encoded ({@link MirroredSessionCodec}), as a database keeps them, so that a takeover through it is a round trip
 * through the codec. Nothing outlives the JVM.
 */
public final class InMemorySessionStateStore implements SessionStateStore {

    private record Row(byte[] bytes, ByteBuffer tokenHash, String owner, long version) {
    }

    private final Map<NodeId, Row> rows = new ConcurrentHashMap<>();
    private final Map<ByteBuffer, NodeId> byToken = new ConcurrentHashMap<>();

    @Override
    public synchronized Set<NodeId> write(String owner, List<MirroredSession> sessions) {
        Set<NodeId> ownedElsewhere = new HashSet<>();
        for (MirroredSession session : sessions) {
            Row previous = rows.get(session.sessionId());
            if (previous != null && !previous.owner().equals(owner)) {
                ownedElsewhere.add(session.sessionId());
                continue;
            }
            ByteBuffer hash = ByteBuffer.wrap(session.tokenHash().clone());
            rows.put(session.sessionId(), new Row(MirroredSessionCodec.encode(session), hash, owner,
                    previous == null ? 0 : previous.version()));
            byToken.put(hash, session.sessionId());
        }
        return ownedElsewhere;
    }

    @Override
    public synchronized void remove(String owner, Collection<NodeId> sessionIds) {
        for (NodeId id : sessionIds) {
            Row row = rows.get(id);
            if (row != null && row.owner().equals(owner)) {
                rows.remove(id);
                byToken.remove(row.tokenHash());
            }
        }
    }

    @Override
    public synchronized StoredSession find(byte[] tokenHash) {
        NodeId id = byToken.get(ByteBuffer.wrap(tokenHash));
        Row row = id == null ? null : rows.get(id);
        return row == null ? null : new StoredSession(MirroredSessionCodec.decode(row.bytes()), row.owner(),
                row.version());
    }

    @Override
    public synchronized boolean claim(NodeId sessionId, String owner, long version) {
        Row row = rows.get(sessionId);
        if (row == null || row.version() != version) {
            return false;
        }
        rows.put(sessionId, new Row(row.bytes(), row.tokenHash(), owner, version + 1));
        return true;
    }

    /** Sessions stored now. */
    public synchronized int size() {
        return rows.size();
    }

    /** The owner of a stored session; null when it is not stored. */
    public synchronized String owner(NodeId sessionId) {
        Row row = rows.get(sessionId);
        return row == null ? null : row.owner();
    }

    @Override
    public void close() {
    }
}
