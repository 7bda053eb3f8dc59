package dev.opcua.stack.history.jdbc.state;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.history.jdbc.TestPostgres;
import dev.opcua.stack.server.redundancy.MirroredSession;
import dev.opcua.stack.server.redundancy.StoredSession;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.session.SessionSnapshot;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** {@link JdbcSessionStateStore} on a real PostgreSQL: the ownership rules two servers of a set rely on. */
class JdbcSessionStateStoreIT {

    private static MirroredSession session(NodeId token) {
        return new MirroredSession(new SessionSnapshot(NodeId.guid(1, UUID.randomUUID()), "line 1", null,
                "opc.tcp://localhost:4840/", 60_000, 0, null, EndpointSecurity.NONE, Identity.user("operator"), 3,
                ByteString.wrap(new byte[32])), Session.tokenHash(token), List.of());
    }

    @Test
    void of_two_servers_claiming_one_session_one_wins_and_the_loser_may_no_longer_write_it() throws Exception {
        JdbcSessionStateStore store = JdbcSessionStateStore.open(TestPostgres.dataSource(), "claims_it");
        NodeId token = NodeId.opaque(0, ByteString.wrap(UUID.randomUUID().toString().getBytes()));
        MirroredSession mirrored = session(token);
        assertThat(store.write("urn:a", List.of(mirrored))).isEmpty();

        StoredSession found = store.find(Session.tokenHash(token));
        assertThat(found.owner()).isEqualTo("urn:a");
        assertThat(found.session().session()).isEqualTo(mirrored.session());
        assertThat(store.claim(mirrored.sessionId(), "urn:b", found.version())).as("the first claim").isTrue();
        assertThat(store.claim(mirrored.sessionId(), "urn:c", found.version())).as("a second with the same version")
                .isFalse();

        assertThat(store.write("urn:a", List.of(mirrored))).as("A learns that B owns it")
                .containsExactly(mirrored.sessionId());
        store.remove("urn:a", List.of(mirrored.sessionId()));
        assertThat(store.find(Session.tokenHash(token)).owner()).as("A cannot remove B's session").isEqualTo("urn:b");
        store.remove("urn:b", List.of(mirrored.sessionId()));
        assertThat(store.find(Session.tokenHash(token))).isNull();
    }
}
