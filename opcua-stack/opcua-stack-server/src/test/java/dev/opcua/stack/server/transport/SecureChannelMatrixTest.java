package dev.opcua.stack.server.transport;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.security.ApplicationCertificates;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.server.transport.uasc.ServerChannelSecurity;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.testing.TestCertificates;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our client against our server over every security policy and mode (Part 6, 6.7; the ECC policies'
 * handshake of 6.8.1 with the certificate of each curve), with messages
 * of one chunk and of many chunks in both directions (8 KiB chunks): the request echoes into the
 * response, so every byte went through signing/encryption and back.
 */
class SecureChannelMatrixTest {

    private static final TransportQuotas QUOTAS = TransportQuotas.builder().maxBufferSize(8192).build();

    private static ApplicationCertificates serverCertificates;
    private static ApplicationCertificates clientCertificates;
    private static ServiceDispatcher dispatcher;
    private static UaTcpServer server;

    @BeforeAll
    static void startServer() {
        serverCertificates = TestCertificates.all("matrix-server");
        clientCertificates = TestCertificates.all("matrix-client");
        List<EndpointSecurity> endpoints = EndpointSecurity.every();
        dispatcher = ServiceDispatcher.builder().minThreads(2).maxThreads(2)
                .registerSync(ReadRequest.class, (channel, request) -> echo(request))
                .build();
        server = UaTcpServer.builder().bindAddress("127.0.0.1").port(0).ioThreads(2).transportQuotas(QUOTAS)
                .security(new ServerChannelSecurity(endpoints, serverCertificates, CertificateValidator.acceptAll()))
                .requestListener(dispatcher).build().start();
    }

    @AfterAll
    static void stopServer() {
        server.close();
        dispatcher.close();
    }

    static Stream<Arguments> matrix() {
        List<Arguments> cases = new ArrayList<>();
        for (SecurityPolicy policy : SecurityPolicy.values()) {
            for (MessageSecurityMode mode : List.of(MessageSecurityMode.None, MessageSecurityMode.Sign,
                    MessageSecurityMode.SignAndEncrypt)) {
                if ((policy == SecurityPolicy.None) == (mode == MessageSecurityMode.None)) {
                    cases.add(Arguments.of(policy, mode));
                }
            }
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("matrix")
    void small_and_multi_chunk_messages_round_trip(SecurityPolicy policy, MessageSecurityMode mode) throws Exception {
        EndpointSecurity security = new EndpointSecurity(policy, mode);
        ClientChannelSecurity clientSecurity = policy == SecurityPolicy.None ? ClientChannelSecurity.NONE
                : new ClientChannelSecurity(security, clientCertificates.forPolicy(policy),
                        List.of(serverCertificates.forPolicy(policy).certificate()), CertificateValidator.acceptAll());
        UaTcpClientChannel channel = UaTcpClientChannel.connect("opc.tcp://127.0.0.1:" + server.port() + "/",
                QUOTAS, clientSecurity, ClientResources.shared()).get(10, TimeUnit.SECONDS);
        try {
            for (int size : new int[] {1, 100, 7_000, 40_000}) {
                String payload = "x".repeat(size);
                ReadResponse response = channel.request(request(payload, 3), ReadResponse.class)
                        .get(10, TimeUnit.SECONDS);
                assertThat(response.results()).hasSize(3);
                assertThat(response.results()[2].value().value()).isEqualTo(payload);
            }
        } finally {
            channel.close().get(5, TimeUnit.SECONDS);
        }
    }

    private static ReadRequest request(String payload, int count) {
        ReadValueId[] ids = new ReadValueId[count];
        for (int i = 0; i < count; i++) {
            ids[i] = new ReadValueId(NodeId.string(1, payload), 13, null, null);
        }
        return new ReadRequest(new RequestHeader(NodeId.NULL, DateTime.now(), 1, 0, null, 10_000,
                ExtensionObject.NULL), 0, TimestampsToReturn.Neither, ids);
    }

    private static ReadResponse echo(ReadRequest request) {
        DataValue[] values = new DataValue[request.nodesToRead().length];
        for (int i = 0; i < values.length; i++) {
            values[i] = DataValue.of(Variant.of(request.nodesToRead()[i].nodeId().identifier()));
        }
        return new ReadResponse(ResponseHeaders.good(request.requestHeader().requestHandle()), values,
                new DiagnosticInfo[0]);
    }
}
