package dev.opcua.stack.server.redundancy;

import java.util.Objects;

/**
 * A {@link MirroredSession} as found in a {@link SessionStateStore}, with the server that owns it and the
 * version of its ownership, which {@link SessionStateStore#claim} compares so that two servers never both claim
 * one session.
 *
 * @param session the session's state
 * @param owner the ServerUri of the server serving it
 * @param version incremented by every claim
 */
public record StoredSession(MirroredSession session, String owner, long version) {

    public StoredSession {
        Objects.requireNonNull(session, "session");
        Objects.requireNonNull(owner, "owner");
    }
}
