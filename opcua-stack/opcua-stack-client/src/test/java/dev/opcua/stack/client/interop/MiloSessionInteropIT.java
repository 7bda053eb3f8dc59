package dev.opcua.stack.client.interop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.client.discovery.DiscoveryClient;
import dev.opcua.stack.client.session.ClientIdentity;
import dev.opcua.stack.client.session.ClientSession;
import dev.opcua.stack.client.session.SessionOptions;
import dev.opcua.stack.client.session.TestCertificates;
import dev.opcua.stack.client.testing.MiloPeer;
import dev.opcua.stack.client.testing.MiloPeerServer;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.Certificates;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.ReadValueId;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our secure channel and {@link ClientSession} against an Eclipse Milo 1.1.2 server
 * ({@link MiloPeerServer}) over a real socket: for every security policy and mode both stacks
 * implement, GetEndpoints, OpenSecureChannel with Milo's certificate from the endpoint, CreateSession
 * and ActivateSession (Part 4, 5.6.2 and 5.6.3) and a Read of ServerStatus/State; user names with
 * encrypted passwords and X.509 users on the strongest policies; and a Milo certificate our validator
 * refuses.
 */
class MiloSessionInteropIT {

    private static final TransportQuotas QUOTAS = TransportQuotas.builder()
            .operationTimeout(Duration.ofSeconds(10)).build();
    private static final String CLIENT = "interop-client";
    private static final ReadValueId SERVER_STATE = new ReadValueId(NodeId.ns0(NodeIds.Server_ServerStatus_State),
            AttributeIds.Value, null, QualifiedName.NULL);
    /** ServerState Running (Part 5, 12.6). */
    private static final int RUNNING = 0;

    private static final ApplicationCertificate MILO_CERTIFICATE = TestCertificates.get("milo-server");
    private static final ApplicationCertificate CLIENT_CERTIFICATE = TestCertificates.get(CLIENT);
    private static final ApplicationCertificate USER_CERTIFICATE = TestCertificates.get("interop-user");

    @RegisterExtension
    static final MiloPeer PEER = MiloPeer.serverWithInteropCertificates(b -> b);

    static Stream<Arguments> everyPolicyAndMode() {
        List<Arguments> cases = new ArrayList<>();
        cases.add(Arguments.of(SecurityPolicy.None, MessageSecurityMode.None));
        for (SecurityPolicy policy : SecurityPolicy.values()) {
            if (policy != SecurityPolicy.None && !policy.isEcc()) { // Milo 1.1.2 implements no ECC policy
                cases.add(Arguments.of(policy, MessageSecurityMode.Sign));
                cases.add(Arguments.of(policy, MessageSecurityMode.SignAndEncrypt));
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyPolicyAndMode")
    void an_anonymous_session_reads_the_server_state(SecurityPolicy policy, MessageSecurityMode mode) throws Exception {
        withSession(new EndpointSecurity(policy, mode), ClientIdentity.anonymous(), session -> {
            assertThat(session.userTokenPolicy().policyId()).isEqualTo("anonymous");
            assertServerStateIsRunning(session);
        });
    }

    @ParameterizedTest
    @EnumSource(value = SecurityPolicy.class, names = {"Basic256Sha256", "Aes256_Sha256_RsaPss"})
    void a_user_name_with_the_right_password_is_activated(SecurityPolicy policy) throws Exception {
        withSession(signAndEncrypt(policy), ClientIdentity.userName(MiloPeerServer.USER, MiloPeerServer.PASSWORD),
                session -> {
                    assertThat(session.userTokenPolicy().policyId()).isEqualTo(
                            policy == SecurityPolicy.Aes256_Sha256_RsaPss ? MiloPeerServer.USER_NAME_POLICY_PSS
                                    : "username");
                    assertServerStateIsRunning(session);
                });
    }

    @ParameterizedTest
    @EnumSource(value = SecurityPolicy.class, names = {"Basic256Sha256", "Aes256_Sha256_RsaPss"})
    void a_wrong_password_is_refused_with_bad_user_access_denied(SecurityPolicy policy) throws Exception {
        withChannel(signAndEncrypt(policy), (channel, security) -> {
            assertFailsWith(() -> ClientSession.open(channel, security,
                    options(ClientIdentity.userName(MiloPeerServer.USER, "wrong"))).get(10, TimeUnit.SECONDS),
                    StatusCodes.BadUserAccessDenied, "as user name 'user'");
            assertThat(channel.isOpen()).isTrue();
        });
    }

    @ParameterizedTest
    @EnumSource(value = SecurityPolicy.class, names = {"Basic256Sha256", "Aes256_Sha256_RsaPss"})
    void an_X509_user_is_activated(SecurityPolicy policy) throws Exception {
        withSession(signAndEncrypt(policy), ClientIdentity.x509(USER_CERTIFICATE), session -> {
            assertThat(session.userTokenPolicy().policyId()).isEqualTo(
                    policy == SecurityPolicy.Aes256_Sha256_RsaPss ? MiloPeerServer.CERTIFICATE_POLICY_PSS
                            : "certificate");
            assertServerStateIsRunning(session);
        });
    }

    @Test
    void an_X509_user_milo_does_not_know_is_refused_with_bad_identity_token_rejected() throws Exception {
        withChannel(signAndEncrypt(SecurityPolicy.Basic256Sha256), (channel, security) -> assertFailsWith(
                () -> ClientSession.open(channel, security, options(ClientIdentity.x509(CLIENT_CERTIFICATE)))
                        .get(10, TimeUnit.SECONDS),
                StatusCodes.BadIdentityTokenRejected, "as user certificate CN=interop-client,O=dev.opcua tests"));
    }

    @Test
    void a_user_name_on_a_none_channel_is_encrypted_for_the_token_policys_basic256_sha256() throws Exception {
        withSession(EndpointSecurity.NONE, ClientIdentity.userName(MiloPeerServer.USER, MiloPeerServer.PASSWORD),
                session -> {
                    assertThat(session.userTokenPolicy().securityPolicyUri())
                            .isEqualTo(SecurityPolicy.Basic256Sha256.uri());
                    assertServerStateIsRunning(session);
                });
    }

    @Test
    void a_session_changes_its_user_with_the_nonce_of_the_last_activation() throws Exception {
        withSession(signAndEncrypt(SecurityPolicy.Aes128_Sha256_RsaOaep), ClientIdentity.anonymous(), session -> {
            session.activate(ClientIdentity.userName(MiloPeerServer.USER, MiloPeerServer.PASSWORD))
                    .get(10, TimeUnit.SECONDS);
            assertServerStateIsRunning(session);
            session.activate(ClientIdentity.x509(USER_CERTIFICATE)).get(10, TimeUnit.SECONDS);
            assertServerStateIsRunning(session);
            assertThat(session.identity()).isInstanceOf(ClientIdentity.X509.class);
        });
    }

    @Test
    void milo_refuses_a_client_certificate_outside_its_trust_list() throws Exception {
        EndpointSecurity security = signAndEncrypt(SecurityPolicy.Basic256Sha256);
        ClientChannelSecurity trusted = channelSecurity(security, trustMilo());
        ClientChannelSecurity stranger = new ClientChannelSecurity(security, TestCertificates.get("interop-stranger"),
                trusted.serverCertificateChain(), trusted.serverValidator());

        assertFailsWith(() -> UaTcpClientChannel.connect(PEER.milo().endpointUrl(), QUOTAS, stranger, PEER.clientResources())
                .get(10, TimeUnit.SECONDS), StatusCodes.BadSecurityChecksFailed, "");
    }

    @Test
    void our_client_refuses_a_milo_certificate_its_validator_rejects() {
        EndpointSecurity security = signAndEncrypt(SecurityPolicy.Basic256Sha256);
        CertificateValidator untrusted = chain -> {
            throw new UaException(StatusCodes.BadCertificateUntrusted, "certificate "
                    + chain.get(0).getSubjectX500Principal().getName() + " (thumbprint "
                    + Certificates.hex(Certificates.thumbprint(chain.get(0))) + ") is not in the trust list");
        };

        assertFailsWith(() -> UaTcpClientChannel.connect(PEER.milo().endpointUrl(), QUOTAS,
                channelSecurity(security, untrusted), PEER.clientResources()).get(10, TimeUnit.SECONDS),
                StatusCodes.BadCertificateUntrusted, "CN=milo-server");
    }

    // --- helpers

    private interface SessionCheck {
        void accept(ClientSession session) throws Exception;
    }

    private interface ChannelCheck {
        void accept(UaTcpClientChannel channel, ClientChannelSecurity security) throws Exception;
    }

    /** GetEndpoints, then a channel of that security with Milo's certificate; closed afterwards. */
    private static void withChannel(EndpointSecurity security, ChannelCheck check) throws Exception {
        ClientChannelSecurity channelSecurity = channelSecurity(security, trustMilo());
        UaTcpClientChannel channel = UaTcpClientChannel.connect(PEER.milo().endpointUrl(), QUOTAS, channelSecurity,
                PEER.clientResources()).get(10, TimeUnit.SECONDS);
        try {
            check.accept(channel, channelSecurity);
        } finally {
            channel.close().get(10, TimeUnit.SECONDS);
        }
    }

    /** A channel as {@link #withChannel}, and on it a session of the identity; both closed afterwards. */
    private static void withSession(EndpointSecurity security, ClientIdentity identity, SessionCheck check)
            throws Exception {
        withChannel(security, (channel, channelSecurity) -> {
            ClientSession session = ClientSession.open(channel, channelSecurity, options(identity))
                    .get(10, TimeUnit.SECONDS);
            try {
                check.accept(session);
            } finally {
                session.close().get(10, TimeUnit.SECONDS);
            }
        });
    }

    private static void assertFailsWith(ThrowingCallable call, int status, String messagePart) {
        assertThatThrownBy(call)
                .isInstanceOf(ExecutionException.class)
                .cause()
                .isInstanceOf(UaException.class)
                .hasMessageContaining(messagePart)
                .satisfies((Consumer<Throwable>) e -> assertThat(((UaException) e).statusCode().value())
                        .as("status of %s", e).isEqualTo(status));
    }

    /** The security of Milo's endpoint as GetEndpoints describes it, its certificate included. */
    private static ClientChannelSecurity channelSecurity(EndpointSecurity security, CertificateValidator validator)
            throws Exception {
        EndpointDescription[] endpoints = DiscoveryClient.getEndpoints(PEER.milo().endpointUrl(), QUOTAS, PEER.clientResources())
                .get(10, TimeUnit.SECONDS);
        EndpointDescription endpoint = Arrays.stream(endpoints)
                .filter(e -> security.policy().uri().equals(e.securityPolicyUri()) && security.mode() == e.securityMode())
                .findFirst()
                .orElseThrow(() -> new AssertionError("Milo offers no endpoint " + security));
        assertThat(endpoint.endpointUrl()).isEqualTo(PEER.milo().endpointUrl());
        if (security.policy() == SecurityPolicy.None) {
            return new ClientChannelSecurity(EndpointSecurity.NONE, null, List.of(), validator);
        }
        return new ClientChannelSecurity(security, CLIENT_CERTIFICATE,
                Certificates.decodeChain(endpoint.serverCertificate().unsafeBytes()), validator);
    }

    /** Trusts Milo's certificate and no other. */
    private static CertificateValidator trustMilo() {
        return chain -> {
            if (!chain.get(0).equals(MILO_CERTIFICATE.certificate())) {
                throw new UaException(StatusCodes.BadCertificateUntrusted, "certificate "
                        + chain.get(0).getSubjectX500Principal().getName() + " is not Milo's");
            }
        };
    }

    private static SessionOptions options(ClientIdentity identity) {
        return SessionOptions.builder().applicationUri(TestCertificates.applicationUri(CLIENT))
                .applicationName("opcua-java interop client").sessionName("interop").identity(identity).build();
    }

    private static EndpointSecurity signAndEncrypt(SecurityPolicy policy) {
        return new EndpointSecurity(policy, MessageSecurityMode.SignAndEncrypt);
    }

    private static void assertServerStateIsRunning(ClientSession session) throws Exception {
        DataValue[] values = session.read(SERVER_STATE).get(10, TimeUnit.SECONDS);
        assertThat(values).hasSize(1);
        assertThat(values[0].statusCode().isGood()).as("status of ServerStatus/State: %s", values[0].statusCode())
                .isTrue();
        assertThat(values[0].value().value()).isEqualTo(RUNNING);
    }
}
