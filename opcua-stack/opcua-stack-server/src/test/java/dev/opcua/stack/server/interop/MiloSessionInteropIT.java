package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.discovery.DiscoveryServices;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.session.Identity;
import dev.opcua.stack.server.session.Session;
import dev.opcua.stack.server.session.SessionManager;
import dev.opcua.stack.server.session.UserNameIdentityValidator;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.MiloClients;
import dev.opcua.stack.server.transport.UaTcpServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.sdk.client.OpcUaSession;
import org.eclipse.milo.opcua.sdk.client.identity.AnonymousProvider;
import org.eclipse.milo.opcua.sdk.client.identity.IdentityProvider;
import org.eclipse.milo.opcua.sdk.client.identity.UsernameProvider;
import org.eclipse.milo.opcua.stack.core.StatusCodes;
import org.eclipse.milo.opcua.stack.core.UaException;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Eclipse Milo 1.1.2's client opens sessions on our server (Part 4, 5.6): CreateSession and
 * ActivateSession, anonymous and with a user name and password over SecurityPolicy None, and
 * CloseSession when it disconnects. Right after activating, Milo reads the NamespaceArray and
 * ServerArray; it only logs a warning when that fails, so no Read service is needed here (its
 * periodic keep-alive Read is pushed beyond the test's life).
 */
class MiloSessionInteropIT {

    /** How long the server may take to see Milo's session change, and how often the test looks. */
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration POLL = Duration.ofMillis(10);

    private static ServiceDispatcher dispatcher;
    private static SessionManager sessions;
    private static UaTcpServer server;
    private static String endpointUrl;

    @BeforeAll
    static void startServer() {
        LeakWatch.install();
        AtomicReference<DiscoveryServices> discovery = new AtomicReference<>();
        sessions = SessionManager.builder()
                .identityValidator(UserNameIdentityValidator.of(Map.of("alice", "secret"), true))
                .discoveryEndpoints(discovery::get)
                .build();
        ServiceDispatcher.Builder builder = ServiceDispatcher.builder().minThreads(2).maxThreads(4);
        builder.registerSync(dev.opcua.stack.core.types.structured.GetEndpointsRequest.class,
                (channel, request) -> discovery.get().getEndpoints(request));
        builder.registerSync(dev.opcua.stack.core.types.structured.FindServersRequest.class,
                (channel, request) -> discovery.get().findServers(request));
        dispatcher = sessions.registerWith(builder).build();
        server = UaTcpServer.builder().bindAddress("127.0.0.1").port(0).ioThreads(2).requestListener(dispatcher)
                .build().start();
        endpointUrl = "opc.tcp://localhost:" + server.port() + "/";
        discovery.set(DiscoveryServices.builder()
                .application("urn:dev.opcua:test:server", "urn:dev.opcua:stack", "dev.opcua session test server")
                .endpointUrls(List.of(endpointUrl))
                .userTokenPolicies(List.of(DiscoveryServices.ANONYMOUS,
                        new UserTokenPolicy("username", UserTokenType.UserName, null, null, null)))
                .build());
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        server.close();
        dispatcher.close();
        sessions.close();
        LeakWatch.assertNoLeaks();
    }

    private static OpcUaClient client(IdentityProvider identity) throws UaException {
        return MiloClients.createOverNone(endpointUrl, identity);
    }

    @Test
    void milo_creates_and_activates_an_anonymous_session_and_closes_it() throws Exception {
        long created = sessions.counters().sessionsCreated();
        long closed = sessions.counters().sessionsClosed();
        OpcUaClient client = client(new AnonymousProvider());
        try {
            client.connect();
            OpcUaSession session = client.getSession();

            assertThat(session.getSessionId().getNamespaceIndex().intValue()).isEqualTo(1);
            assertThat(session.getSessionTimeout()).isEqualTo(120_000d); // Milo asks for 2 min
            assertThat(sessions.sessions()).filteredOn(Session::isActivated).singleElement()
                    .satisfies(s -> assertThat(s.identity()).isEqualTo(Identity.ANONYMOUS));
            assertThat(sessions.counters().sessionsCreated()).isEqualTo(created + 1);
            // Milo read NamespaceArray and ServerArray, was refused (no Read service yet) and went on
            assertThat(dispatcher.statistics().service("ReadRequest").faults()).isPositive();
        } finally {
            client.disconnect();
        }
        await().atMost(WAIT).pollInterval(POLL).until(() -> sessions.counters().sessionsClosed() == closed + 1);
        assertThat(sessions.sessions()).noneMatch(Session::isActivated);
    }

    @Test
    void milo_activates_a_user_name_session_with_the_right_password() throws Exception {
        OpcUaClient client = client(new UsernameProvider("alice", "secret"));
        try {
            client.connect();

            assertThat(client.getSession().getAuthenticationToken().isNull()).isFalse();
            assertThat(sessions.sessions()).filteredOn(Session::isActivated).singleElement()
                    .satisfies(s -> assertThat(s.identity()).isEqualTo(Identity.user("alice")));
        } finally {
            client.disconnect();
        }
        await().atMost(WAIT).pollInterval(POLL)
                .until(() -> sessions.sessions().stream().noneMatch(Session::isActivated));
    }

    @Test
    void milo_is_refused_with_bad_user_access_denied_for_a_wrong_password() throws Exception {
        long failures = sessions.counters().failedAuthentications();
        OpcUaClient client = client(new UsernameProvider("alice", "wrong"));
        try {
            assertThatThrownBy(client::connect).satisfies(e -> {
                Throwable cause = e;
                while (!(cause instanceof UaException) && cause.getCause() != null) {
                    cause = cause.getCause();
                }
                assertThat(cause).isInstanceOf(UaException.class);
                assertThat(((UaException) cause).getStatusCode().getValue()).isEqualTo(StatusCodes.Bad_UserAccessDenied);
            });
            assertThat(sessions.counters().failedAuthentications()).isGreaterThan(failures);
            assertThat(sessions.sessions()).noneMatch(Session::isActivated);
        } finally {
            client.disconnect();
        }
    }
}
