package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Objects;

/**
 * The definition of one mirrored subscription as a {@link SessionStateStore} holds it, with the session and the
 * server that own it: what a partner needs to sample the subscription's items while it stands by (Part 4,
 * 6.6.2.4.5, HotAndMirrored: all servers of the set are active), without its queues or messages.
 *
 * @param sessionId the session the subscription belongs to
 * @param owner the ServerUri of the server serving the session
 * @param subscriptionId the SubscriptionId
 * @param definition the {@link MirroredSubscriptionCodec#encodeDefinition definition part}, as written: equal bytes
 *        mean an unchanged definition
 */
public record MirroredDefinition(NodeId sessionId, String owner, long subscriptionId, byte[] definition) {

    public MirroredDefinition {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(definition, "definition");
    }
}
