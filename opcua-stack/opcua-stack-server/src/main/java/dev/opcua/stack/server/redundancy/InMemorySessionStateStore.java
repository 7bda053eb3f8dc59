package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.subscriptions.durable.DurableSubscriptionRecord;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A {@link SessionStateStore} in memory, for two servers of one JVM (tests, demonstrations): the parts are kept as
 * the bytes the mirror wrote, as a database keeps them, so that a takeover through it is a round trip through the
 * codecs. Nothing outlives the JVM.
 */
public final class InMemorySessionStateStore implements SessionStateStore {

    private static final class Row {
        byte[] session;
        ByteBuffer tokenHash;
        String owner;
        long version;
        final Map<Long, SubscriptionRow> subscriptions = new LinkedHashMap<>();
    }

    private static final class SubscriptionRow {
        byte[] definition;
        long nextSequenceNumber;
        long expiresAtMillis;
        byte[] queues;
        final Map<Long, byte[]> messages = new HashMap<>();
    }

    private final Map<NodeId, Row> rows = new HashMap<>();
    private final Map<ByteBuffer, NodeId> byToken = new HashMap<>();

    @Override
    public synchronized Set<NodeId> write(String owner, List<SessionChanges> changes) {
        Set<NodeId> ownedElsewhere = new HashSet<>();
        for (SessionChanges change : changes) {
            Row row = rows.get(change.sessionId());
            if (row != null && !row.owner.equals(owner)) {
                ownedElsewhere.add(change.sessionId());
                continue;
            }
            if (row == null && change.session() == null) {
                ownedElsewhere.add(change.sessionId()); // no longer stored: a partner took it and it ended there
                continue;
            }
            if (row == null) {
                row = new Row();
                row.owner = owner;
                rows.put(change.sessionId(), row);
            }
            if (change.session() != null) {
                if (row.tokenHash != null) {
                    byToken.remove(row.tokenHash);
                }
                row.session = change.session();
                row.tokenHash = ByteBuffer.wrap(change.tokenHash().clone());
                byToken.put(row.tokenHash, change.sessionId());
            }
            if (change.replace()) {
                row.subscriptions.clear();
            }
            change.removedSubscriptions().forEach(row.subscriptions::remove);
            for (SubscriptionChanges s : change.subscriptions()) {
                SubscriptionRow sub = row.subscriptions.get(s.subscriptionId());
                if (sub == null) {
                    if (s.definition() == null) {
                        throw new IllegalArgumentException("subscription " + s.subscriptionId() + " is not stored:"
                                + " its first write needs its definition");
                    }
                    sub = new SubscriptionRow();
                    row.subscriptions.put(s.subscriptionId(), sub);
                }
                if (s.definition() != null) {
                    sub.definition = s.definition();
                }
                if (s.queues() != null) {
                    sub.queues = s.queues();
                }
                sub.nextSequenceNumber = s.nextSequenceNumber();
                sub.expiresAtMillis = s.expiresAtMillis();
                s.acknowledged().forEach(sub.messages::remove);
                for (SubscriptionChanges.SentMessage message : s.sent()) {
                    sub.messages.put(message.sequenceNumber(), message.bytes());
                }
            }
        }
        return ownedElsewhere;
    }

    @Override
    public synchronized void remove(String owner, Collection<NodeId> sessionIds) {
        for (NodeId id : sessionIds) {
            Row row = rows.get(id);
            if (row != null && row.owner.equals(owner)) {
                rows.remove(id);
                byToken.remove(row.tokenHash);
            }
        }
    }

    @Override
    public synchronized StoredSession find(byte[] tokenHash) {
        NodeId id = byToken.get(ByteBuffer.wrap(tokenHash));
        Row row = id == null ? null : rows.get(id);
        if (row == null) {
            return null;
        }
        List<DurableSubscriptionRecord> subscriptions = new ArrayList<>(row.subscriptions.size());
        for (SubscriptionRow s : row.subscriptions.values()) {
            subscriptions.add(MirroredSubscriptionCodec.assemble(s.definition, s.nextSequenceNumber,
                    s.expiresAtMillis, s.queues, new ArrayList<>(s.messages.values())));
        }
        return new StoredSession(new MirroredSession(MirroredSessionCodec.decodeSession(row.session),
                tokenHash.clone(), subscriptions), row.owner, row.version);
    }

    @Override
    public synchronized boolean claim(NodeId sessionId, String owner, long version) {
        Row row = rows.get(sessionId);
        if (row == null || row.version != version) {
            return false;
        }
        row.owner = owner;
        row.version = version + 1;
        return true;
    }

    @Override
    public synchronized List<MirroredDefinition> definitionsOwnedByOthers(String owner) {
        List<MirroredDefinition> definitions = new ArrayList<>();
        for (Map.Entry<NodeId, Row> row : rows.entrySet()) {
            if (row.getValue().owner.equals(owner)) {
                continue;
            }
            for (Map.Entry<Long, SubscriptionRow> s : row.getValue().subscriptions.entrySet()) {
                definitions.add(new MirroredDefinition(row.getKey(), row.getValue().owner, s.getKey(),
                        s.getValue().definition));
            }
        }
        return definitions;
    }

    /** Sessions stored now. */
    public synchronized int size() {
        return rows.size();
    }

    /** The owner of a stored session; null when it is not stored. */
    public synchronized String owner(NodeId sessionId) {
        Row row = rows.get(sessionId);
        return row == null ? null : row.owner;
    }

    @Override
    public void close() {
    }
}
