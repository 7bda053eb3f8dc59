package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Collection;
import java.util.List;
import java.util.Set;

/**
 * Where the servers of a HotAndMirrored redundant set (Part 4, 6.6.2.4.5; Part 5, 6.3.9
 * NonTransparentRedundancyType) keep their sessions and subscriptions, so that a partner can take a session over
 * when its client fails over: each session is stored with the ServerUri of its owner, and only the owner writes
 * it; a partner takes it with {@link #claim}, an atomic compare of the ownership's version, after which the
 * former owner's writes of it are refused and it drops the session.
 *
 * <p>Writes are incremental ({@link SessionChanges}): the session's part when it changed, each subscription's
 * definition when it changed, its counters, its items' queues, and its NotificationMessages appended when sent and
 * deleted when acknowledged; {@link #find} assembles the whole {@link MirroredSession} from them.
 *
 * <p>The server calls {@link #write} and {@link #remove} from one thread of its own ({@code
 * opcua-session-mirror}), never from an I/O thread, and {@link #find} and {@link #claim} from a service worker
 * during ActivateSession. A call that cannot reach the storage throws; the server keeps serving and writes again.
 * Implementations are thread-safe: {@code InMemorySessionStateStore} for one JVM, {@code JdbcSessionStateStore}
 * of opcua-stack-history-jdbc for PostgreSQL.
 */
public interface SessionStateStore extends AutoCloseable {

    /**
     * Applies these changes of sessions owned by {@code owner}, in one transaction where the storage has them: a
     * session not stored yet is stored (its changes then {@link SessionChanges#replace replace}); a session stored
     * for another owner (a partner claimed it) is not written, nor any of its subscriptions.
     *
     * @return the ids of the sessions not written because another server owns them
     */
    Set<NodeId> write(String owner, List<SessionChanges> changes);

    /** Forgets these sessions where {@code owner} owns them (closed, timed out). */
    void remove(String owner, Collection<NodeId> sessionIds);

    /** The session whose AuthenticationToken has this {@link MirroredSession#hash hash}; null when none. */
    StoredSession find(byte[] tokenHash);

    /**
     * Makes {@code owner} the owner of the session if its ownership still has {@code version} (what
     * {@link #find} returned): of two servers that claim it, one succeeds.
     *
     * @return whether this claim won
     */
    boolean claim(NodeId sessionId, String owner, long version);

    /**
     * The subscription definitions of every stored session that another server than {@code owner} owns, for
     * standby sampling ({@code StandbySampler}); read from the {@code opcua-standby-sampler} thread once a
     * refresh period.
     */
    List<MirroredDefinition> definitionsOwnedByOthers(String owner);

    /** Releases the store's resources; what is stored stays. */
    @Override
    void close();
}
