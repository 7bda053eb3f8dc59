package dev.opcua.stack.server.interop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.server.transport.uasc.ServerChannelSecurity;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.TestCertificates;
import dev.opcua.stack.server.transport.UaTcpServer;
import java.security.KeyPair;
import java.security.Security;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.eclipse.milo.opcua.stack.core.encoding.DefaultEncodingContext;
import org.eclipse.milo.opcua.stack.core.encoding.EncodingContext;
import org.eclipse.milo.opcua.stack.core.security.SecurityPolicy;
import org.eclipse.milo.opcua.stack.core.types.builtin.ByteString;
import org.eclipse.milo.opcua.stack.core.types.builtin.DateTime;
import org.eclipse.milo.opcua.stack.core.types.builtin.LocalizedText;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UByte;
import org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.UInteger;
import org.eclipse.milo.opcua.stack.core.types.enumerated.ApplicationType;
import org.eclipse.milo.opcua.stack.core.types.enumerated.MessageSecurityMode;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.ApplicationDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.EndpointDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadRequest;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadResponse;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.RequestHeader;
import org.eclipse.milo.opcua.stack.core.types.structured.UserTokenPolicy;
import org.eclipse.milo.opcua.stack.transport.client.ClientApplicationContext;
import org.eclipse.milo.opcua.stack.transport.client.tcp.OpcTcpClientTransport;
import org.eclipse.milo.opcua.stack.transport.client.tcp.OpcTcpClientTransportConfig;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Eclipse Milo 1.1.2's client transport opens secure channels to our server with every security
 * policy and mode (Part 6, 6.7) and sends requests of one chunk and of many chunks; our server
 * echoes them, so each byte crosses Milo's crypto and ours in both directions.
 */
class MiloSecureChannelInteropIT {

    private static final TransportQuotas QUOTAS = TransportQuotas.builder().maxBufferSize(8192).build();

    private static ApplicationCertificate serverCertificate;
    private static ApplicationCertificate clientCertificate;
    private static ServiceDispatcher dispatcher;
    private static UaTcpServer server;

    @BeforeAll
    static void startServer() {
        LeakWatch.install();
        // Milo signs RSA-PSS through the BouncyCastle provider; our stack needs no provider registered.
        Security.addProvider(new BouncyCastleProvider());
        serverCertificate = TestCertificates.get("milo-channel-server");
        clientCertificate = TestCertificates.get("milo-channel-client");
        List<EndpointSecurity> endpoints = new ArrayList<>();
        matrix().forEach(a -> endpoints.add(new EndpointSecurity(
                dev.opcua.stack.core.security.SecurityPolicy.fromUri(((SecurityPolicy) a.get()[0]).getUri()),
                dev.opcua.stack.core.types.enumerated.MessageSecurityMode.valueOf(a.get()[1].toString()))));
        dispatcher = ServiceDispatcher.builder().minThreads(2).maxThreads(2)
                .registerSync(dev.opcua.stack.core.types.structured.ReadRequest.class, (channel, request) -> {
                    DataValue[] values = new DataValue[request.nodesToRead().length];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = DataValue.of(Variant.of(request.nodesToRead()[i].nodeId().identifier()));
                    }
                    return new dev.opcua.stack.core.types.structured.ReadResponse(
                            ResponseHeaders.good(request.requestHeader().requestHandle()), values, new DiagnosticInfo[0]);
                })
                .build();
        server = UaTcpServer.builder().bindAddress("127.0.0.1").port(0).ioThreads(2).transportQuotas(QUOTAS)
                .security(new ServerChannelSecurity(endpoints, serverCertificate, CertificateValidator.acceptAll()))
                .requestListener(dispatcher).build().start();
    }

    @AfterAll
    static void stopServer() throws InterruptedException {
        server.close();
        dispatcher.close();
        LeakWatch.assertNoLeaks();
    }

    static Stream<Arguments> matrix() {
        List<Arguments> cases = new ArrayList<>();
        cases.add(Arguments.of(SecurityPolicy.None, MessageSecurityMode.None));
        for (SecurityPolicy policy : List.of(SecurityPolicy.Basic128Rsa15, SecurityPolicy.Basic256,
                SecurityPolicy.Basic256Sha256, SecurityPolicy.Aes128_Sha256_RsaOaep, SecurityPolicy.Aes256_Sha256_RsaPss)) {
            cases.add(Arguments.of(policy, MessageSecurityMode.Sign));
            cases.add(Arguments.of(policy, MessageSecurityMode.SignAndEncrypt));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("matrix")
    void milo_exchanges_small_and_multi_chunk_messages(SecurityPolicy policy, MessageSecurityMode mode) throws Exception {
        String url = "opc.tcp://127.0.0.1:" + server.port() + "/";
        EndpointDescription endpoint = new EndpointDescription(url,
                new ApplicationDescription("urn:test:milo-channel-server", null, LocalizedText.english("server"),
                        ApplicationType.Server, null, null, new String[] {url}),
                policy == SecurityPolicy.None ? ByteString.NULL_VALUE : ByteString.of(serverCertificate.der().bytes()),
                mode, policy.getUri(), new UserTokenPolicy[0],
                "http://opcfoundation.org/UA-Profile/Transport/uatcp-uasc-uabinary", UByte.valueOf(0));
        OpcTcpClientTransport transport = new OpcTcpClientTransport(OpcTcpClientTransportConfig.newBuilder().build());
        try {
            transport.connect(context(endpoint)).get(10, TimeUnit.SECONDS);
            for (int size : new int[] {1, 7_000, 40_000}) {
                String payload = "m".repeat(size);
                ReadValueId[] ids = new ReadValueId[3];
                for (int i = 0; i < ids.length; i++) {
                    ids[i] = new ReadValueId(new NodeId(1, payload), UInteger.valueOf(13), null, null);
                }
                ReadRequest request = new ReadRequest(new RequestHeader(NodeId.NULL_VALUE, DateTime.now(),
                        UInteger.valueOf(size), UInteger.MIN, null, UInteger.valueOf(10_000), null),
                        0.0, TimestampsToReturn.Neither, ids);
                ReadResponse response = (ReadResponse) transport.sendRequestMessage(request).get(10, TimeUnit.SECONDS);
                assertThat(response.getResults()).hasSize(3);
                assertThat(response.getResults()[2].getValue().getValue()).isEqualTo(payload);
            }
        } finally {
            transport.disconnect().get(10, TimeUnit.SECONDS);
        }
    }

    private static ClientApplicationContext context(EndpointDescription endpoint) {
        KeyPair keys = new KeyPair(clientCertificate.certificate().getPublicKey(), clientCertificate.privateKey());
        return new ClientApplicationContext() {
            @Override
            public EndpointDescription getEndpoint() {
                return endpoint;
            }

            @Override
            public Optional<KeyPair> getKeyPair() {
                return Optional.of(keys);
            }

            @Override
            public Optional<X509Certificate> getCertificate() {
                return Optional.of(clientCertificate.certificate());
            }

            @Override
            public Optional<X509Certificate[]> getCertificateChain() {
                return Optional.of(new X509Certificate[] {clientCertificate.certificate()});
            }

            @Override
            public org.eclipse.milo.opcua.stack.core.security.CertificateValidator getCertificateValidator() {
                return (chain, applicationUri, hostNames) -> {
                };
            }

            @Override
            public EncodingContext getEncodingContext() {
                return DefaultEncodingContext.INSTANCE;
            }

            @Override
            public UInteger getRequestTimeout() {
                return UInteger.valueOf(10_000);
            }
        };
    }
}
