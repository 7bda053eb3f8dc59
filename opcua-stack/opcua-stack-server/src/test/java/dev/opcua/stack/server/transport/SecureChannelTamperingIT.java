package dev.opcua.stack.server.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.opcua.stack.client.transport.ClientResources;
import dev.opcua.stack.client.transport.UaTcpClientChannel;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.messages.ErrorMessage;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.ApplicationCertificate;
import dev.opcua.stack.core.security.CertificateValidator;
import dev.opcua.stack.client.transport.uasc.ClientChannelSecurity;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.security.crypto.EccChunkCrypto;
import dev.opcua.stack.server.transport.uasc.ServerChannelSecurity;
import dev.opcua.stack.core.security.pki.PkiCertificateValidator;
import dev.opcua.stack.core.security.pki.PkiDirectory;
import dev.opcua.stack.core.security.pki.ValidationOptions;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.client.transport.uasc.UascClientHandler;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.server.services.ServiceDispatcher;
import dev.opcua.stack.server.testing.LeakWatch;
import dev.opcua.stack.server.testing.TestCertificates;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.util.ReferenceCountUtil;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our server refuses tampered secure conversation traffic from our client (Part 6, 6.7.6 checks of
 * SecureChannelId, TokenId, SequenceNumber and the chunk's security; 6.7.4 OpenSecureChannel checks):
 * each refusal is an ERR with the status the spec gives (Part 6, 7.1.5), the pending request fails
 * with that status, the connection closes and no service handler sees the tampered request.
 *
 * <p>The client's MSG frames and token renewals are altered on the wire by a handler put at the
 * socket end of the client pipeline, after they were signed and encrypted; ERR frames are recorded
 * before the client handler consumes them. Part 4, 5.5.2 tokens expire here within seconds: a server
 * whose own token lifetime quota is one second grants one second (below its usual 10 s floor).
 */
class SecureChannelTamperingIT {

    private static final TransportQuotas QUOTAS = TransportQuotas.builder().maxBufferSize(8192)
            .operationTimeout(Duration.ofSeconds(5)).build();
    /** Tokens of one second: the server caps the 10 s floor of granted lifetimes at its own quota. */
    private static final TransportQuotas SHORT_TOKENS = QUOTAS.toBuilder()
            .securityTokenLifetime(Duration.ofSeconds(1)).build();
    private static final EndpointSecurity BASIC256SHA256_SIGN =
            new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.Sign);
    private static final EndpointSecurity BASIC256SHA256_ENCRYPT =
            new EndpointSecurity(SecurityPolicy.Basic256Sha256, MessageSecurityMode.SignAndEncrypt);
    private static final EndpointSecurity PSS_SIGN =
            new EndpointSecurity(SecurityPolicy.Aes256_Sha256_RsaPss, MessageSecurityMode.Sign);
    private static final EndpointSecurity PSS_ENCRYPT =
            new EndpointSecurity(SecurityPolicy.Aes256_Sha256_RsaPss, MessageSecurityMode.SignAndEncrypt);
    /** Offset of a body byte of a MSG chunk: message header (12), TokenId (4), sequence header (8), then 20 in. */
    private static final int BODY_BYTE = 44;

    private static final AtomicInteger reads = new AtomicInteger();
    /** Read calls per SecureChannelId: a late Read of an earlier test's channel must not count for the next test. */
    private static final ConcurrentHashMap<Long, AtomicInteger> readsByChannel = new ConcurrentHashMap<>();
    private static final AtomicReference<CertificateValidator> clientValidator = new AtomicReference<>();
    private static final AtomicReference<List<X509Certificate>> validatedChain = new AtomicReference<>();

    private static ApplicationCertificate serverCertificate;
    private static ApplicationCertificate otherServerCertificate;
    private static ApplicationCertificate clientCertificate;
    private static ServiceDispatcher dispatcher;
    /** Basic256Sha256 and Aes256_Sha256_RsaPss, Sign and SignAndEncrypt. */
    private static UaTcpServer server;
    /** Basic256Sha256 SignAndEncrypt only, tokens of one second. */
    private static UaTcpServer shortTokenServer;
    /** ECC_nistP256 SignAndEncrypt only, tokens of one second. */
    private static UaTcpServer eccShortTokenServer;
    private static final EndpointSecurity ECC_ENCRYPT =
            new EndpointSecurity(SecurityPolicy.ECC_nistP256, MessageSecurityMode.SignAndEncrypt);

    @BeforeAll
    static void startServers() {
        LeakWatch.install();
        // Shared with SecureChannelMatrixTest: one key generation per JVM.
        serverCertificate = TestCertificates.get("matrix-server");
        clientCertificate = TestCertificates.get("matrix-client");
        otherServerCertificate = TestCertificates.get("tamper-other-server");
        dispatcher = ServiceDispatcher.builder().minThreads(2).maxThreads(2)
                .registerSync(ReadRequest.class, (channel, request) -> {
                    reads.incrementAndGet();
                    readsByChannel.computeIfAbsent(channel.secureChannelId(), id -> new AtomicInteger()).incrementAndGet();
                    return echo(request);
                })
                .build();
        CertificateValidator validator = chain -> {
            validatedChain.set(chain);
            clientValidator.get().validate(chain);
        };
        server = UaTcpServer.builder().bindAddress("127.0.0.1").port(0).ioThreads(2).transportQuotas(QUOTAS)
                .security(new ServerChannelSecurity(List.of(BASIC256SHA256_SIGN, BASIC256SHA256_ENCRYPT, PSS_SIGN,
                        PSS_ENCRYPT), serverCertificate, validator))
                .requestListener(dispatcher).build().start();
        shortTokenServer = UaTcpServer.builder().bindAddress("127.0.0.1").port(0).ioThreads(1)
                .transportQuotas(SHORT_TOKENS)
                .security(new ServerChannelSecurity(List.of(BASIC256SHA256_ENCRYPT), serverCertificate, validator))
                .requestListener(dispatcher).build().start();
        eccShortTokenServer = UaTcpServer.builder().bindAddress("127.0.0.1").port(0).ioThreads(1)
                .transportQuotas(SHORT_TOKENS)
                .security(new ServerChannelSecurity(List.of(ECC_ENCRYPT),
                        TestCertificates.get("matrix-server", CertificateType.ECC_NIST_P256), validator))
                .requestListener(dispatcher).build().start();
    }

    @AfterAll
    static void stopServers() throws InterruptedException {
        server.close();
        shortTokenServer.close();
        eccShortTokenServer.close();
        dispatcher.close();
        LeakWatch.assertNoLeaks();
    }

    @BeforeEach
    void reset() {
        reads.set(0);
        clientValidator.set(CertificateValidator.acceptAll());
        validatedChain.set(null);
    }

    // ---- MSG tampering -----------------------------------------------------------------------------

    /** What is done to the next MSG frame, and the status the server must answer with. */
    enum Tamper {
        BIT_IN_BODY(StatusCodes.BadSecurityChecksFailed, (frame, start) -> flip(frame, start + BODY_BYTE)),
        BIT_IN_SIGNATURE(StatusCodes.BadSecurityChecksFailed, (frame, start) -> flip(frame, frame.writerIndex() - 1)),
        FINAL_CHUNK_MADE_INTERMEDIATE(StatusCodes.BadSecurityChecksFailed,
                (frame, start) -> frame.setByte(start + 3, 'C')), // a valid chunk type only the signature protects
        BIT_IN_SEQUENCE_HEADER(StatusCodes.BadSecurityChecksFailed, (frame, start) -> flip(frame, start + 20)),
        BIT_IN_SECURE_CHANNEL_ID(StatusCodes.BadTcpSecureChannelUnknown, (frame, start) -> flip(frame, start + 8)),
        UNKNOWN_TOKEN_ID(StatusCodes.BadSecureChannelTokenUnknown,
                (frame, start) -> frame.setIntLE(start + 12, frame.getIntLE(start + 12) + 1000)),
        LAST_BLOCK_CUT_OFF(StatusCodes.BadSecurityChecksFailed, (frame, start) -> {
            frame.writerIndex(frame.writerIndex() - 16); // one AES block; the size field follows
            frame.setIntLE(start + 4, frame.writerIndex() - start);
        });

        final int status;
        final BiConsumer<ByteBuf, Integer> change;

        Tamper(int status, BiConsumer<ByteBuf, Integer> change) {
            this.status = status;
            this.change = change;
        }

        /** Flips one bit of a byte. */
        private static void flip(ByteBuf frame, int index) {
            frame.setByte(index, frame.getByte(index) ^ 0x10);
        }
    }

    static Stream<Arguments> tampering() {
        return Stream.of(BASIC256SHA256_SIGN, BASIC256SHA256_ENCRYPT, PSS_SIGN, PSS_ENCRYPT)
                .flatMap(security -> Stream.of(Tamper.values()).map(tamper -> Arguments.of(security, tamper)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("tampering")
    void a_tampered_request_is_refused_with_an_error_and_never_reaches_the_service(EndpointSecurity security,
            Tamper tamper) throws Exception {
        UaTcpClientChannel channel = connect(server, security, QUOTAS);
        Wire wire = Wire.on(channel);
        try {
            assertThat(read(channel).get(5, TimeUnit.SECONDS).results()).hasSize(1); // the channel works
            assertThat(readsOn(channel)).isEqualTo(1);

            wire.nextMessage(frame -> {
                tamper.change.accept(frame, frame.readerIndex());
                return List.of(frame);
            });
            UaException failure = failure(read(channel));

            assertThat(failure.statusCode()).isEqualTo(StatusCode.of(tamper.status));
            assertThat(failure.getMessage()).contains("server sent Error");
            assertThat(wire.error().get(5, TimeUnit.SECONDS).status()).isEqualTo(StatusCode.of(tamper.status));
            assertClosed(channel);
            assertThat(readsOn(channel)).as("Read calls").isEqualTo(1);
        } finally {
            wire.release();
            channel.close().get(5, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("endpoints")
    void a_frame_written_twice_is_refused_as_a_replayed_sequence_number(EndpointSecurity security) throws Exception {
        UaTcpClientChannel channel = connect(server, security, QUOTAS);
        Wire wire = Wire.on(channel);
        try {
            wire.nextMessage(frame -> List.of(frame.retainedDuplicate(), frame));
            CompletableFuture<ReadResponse> response = read(channel);

            assertThat(wire.error().get(5, TimeUnit.SECONDS).status())
                    .isEqualTo(StatusCode.of(StatusCodes.BadSequenceNumberInvalid));
            assertClosed(channel);
            // The copy is never served; the original may be, unless the ERR closed the channel first.
            assertThat(readsOn(channel)).as("Read calls").isLessThanOrEqualTo(1);
            try {
                response.get(5, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
                assertThat(((UaException) e.getCause()).statusCode())
                        .isEqualTo(StatusCode.of(StatusCodes.BadSequenceNumberInvalid));
            }
        } finally {
            wire.release();
            channel.close().get(5, TimeUnit.SECONDS);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("endpoints")
    void an_earlier_frame_replayed_in_place_of_a_request_is_refused(EndpointSecurity security) throws Exception {
        UaTcpClientChannel channel = connect(server, security, QUOTAS);
        Wire wire = Wire.on(channel);
        try {
            wire.nextMessage(frame -> {
                wire.keep(frame.copy());
                return List.of(frame);
            });
            assertThat(read(channel).get(5, TimeUnit.SECONDS).results()).hasSize(1);
            wire.nextMessage(frame -> {
                frame.release();
                return List.of(wire.kept());
            });
            UaException failure = failure(read(channel));

            assertThat(failure.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadSequenceNumberInvalid));
            assertThat(failure.getMessage()).contains("server sent Error");
            assertClosed(channel);
            assertThat(readsOn(channel)).as("Read calls").isEqualTo(1);
        } finally {
            wire.release();
            channel.close().get(5, TimeUnit.SECONDS);
        }
    }

    static Stream<EndpointSecurity> endpoints() {
        return Stream.of(BASIC256SHA256_SIGN, BASIC256SHA256_ENCRYPT, PSS_SIGN, PSS_ENCRYPT);
    }

    // ---- tokens ----------------------------------------------------------------------------------

    @Test
    void a_token_that_expires_unrenewed_closes_the_channel_and_fails_the_pending_request() throws Exception {
        UaTcpClientChannel channel = connect(shortTokenServer, BASIC256SHA256_ENCRYPT, SHORT_TOKENS);
        Wire wire = Wire.on(channel);
        try {
            assertThat(read(channel).get(5, TimeUnit.SECONDS).results()).hasSize(1);
            wire.dropRenewals();
            // This request never reaches the server: it is pending when the token runs out.
            wire.nextMessage(frame -> {
                frame.release();
                return List.of();
            });
            long start = System.nanoTime();
            UaException failure = failure(read(channel));
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

            // Part 4, 5.5.2: accepted for the lifetime and a quarter more, then the channel is gone.
            assertThat(failure.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadSecureChannelClosed));
            assertThat(failure.getMessage()).contains("server sent Error");
            assertThat(elapsedMillis).isBetween(700L, 4_000L);
            assertThat(wire.error().get(1, TimeUnit.SECONDS).status())
                    .isEqualTo(StatusCode.of(StatusCodes.BadSecureChannelClosed));
            assertClosed(channel);
            assertThat(readsOn(channel)).isEqualTo(1);
        } finally {
            wire.release();
            channel.close().get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void after_a_renewal_was_used_the_previous_token_is_unknown() throws Exception {
        UaTcpClientChannel channel = connect(shortTokenServer, BASIC256SHA256_ENCRYPT, SHORT_TOKENS);
        Wire wire = Wire.on(channel);
        try {
            long first = channel.tokenId();
            // the client renews at 75 % of the token's second
            await("a renewed token").atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20))
                    .until(() -> channel.tokenId() != first);
            assertThat(read(channel).get(5, TimeUnit.SECONDS).results()).hasSize(1); // under the new token

            wire.nextMessage(frame -> {
                frame.setIntLE(frame.readerIndex() + 12, (int) first);
                return List.of(frame);
            });
            UaException failure = failure(read(channel));

            assertThat(failure.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadSecureChannelTokenUnknown));
            assertClosed(channel);
            assertThat(readsOn(channel)).isEqualTo(1);
        } finally {
            wire.release();
            channel.close().get(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void a_token_renewal_with_a_flipped_bit_is_refused() throws Exception {
        UaTcpClientChannel channel = connect(shortTokenServer, BASIC256SHA256_ENCRYPT, SHORT_TOKENS);
        Wire wire = Wire.on(channel);
        try {
            wire.nextRenewal(frame -> {
                int last = frame.writerIndex() - 1; // in the RSA-encrypted signature
                frame.setByte(last, frame.getByte(last) ^ 0x10);
                return List.of(frame);
            });

            assertThat(wire.error().get(5, TimeUnit.SECONDS).status())
                    .isEqualTo(StatusCode.of(StatusCodes.BadSecurityChecksFailed));
            assertClosed(channel);
        } finally {
            wire.release();
            channel.close().get(5, TimeUnit.SECONDS);
        }
    }

    /**
     * Part 6, 6.8.1: every OpenSecureChannel brings a new ephemeral key. The second renewal is replaced by the
     * first one, its sequence header brought up to date and signed again with the client's key, so that only
     * the reused ephemeral key is wrong.
     */
    @Test
    void an_ecc_renewal_that_reuses_the_previous_ephemeral_key_is_refused_with_bad_nonce_invalid() throws Exception {
        ApplicationCertificate eccClient = TestCertificates.get("matrix-client", CertificateType.ECC_NIST_P256);
        UaTcpClientChannel channel = UaTcpClientChannel.connect("opc.tcp://127.0.0.1:" + eccShortTokenServer.port()
                + "/", SHORT_TOKENS, clientSecurity(ECC_ENCRYPT, eccClient,
                        TestCertificates.get("matrix-server", CertificateType.ECC_NIST_P256)), ClientResources.shared())
                .get(10, TimeUnit.SECONDS);
        Wire wire = Wire.on(channel);
        AtomicReference<ByteBuf> firstRenewal = new AtomicReference<>();
        try {
            wire.nextRenewal(first -> {
                firstRenewal.set(first.copy());
                wire.nextRenewal(second -> {
                    ByteBuf replay = firstRenewal.getAndSet(null);
                    int sequenceHeader = sequenceHeaderOffset(replay); // the same layout in both frames
                    replay.setBytes(sequenceHeader, second, second.readerIndex() + sequenceHeader, 8);
                    second.release();
                    replay.writerIndex(replay.writerIndex() - SecurityPolicy.ECC_nistP256.eccSignatureSize());
                    EccChunkCrypto.forSending(SecurityPolicy.ECC_nistP256, eccClient.privateKey())
                            .secure(replay, 0, sequenceHeader);
                    return List.of(replay);
                });
                return List.of(first);
            });

            assertThat(wire.error().get(5, TimeUnit.SECONDS).status())
                    .isEqualTo(StatusCode.of(StatusCodes.BadNonceInvalid));
            assertClosed(channel);
        } finally {
            ByteBuf unused = firstRenewal.getAndSet(null);
            if (unused != null) {
                unused.release();
            }
            wire.release();
            channel.close().get(5, TimeUnit.SECONDS);
        }
    }

    /** Where an OPN frame (read from index 0) has its sequence header: after the message and security headers. */
    private static int sequenceHeaderOffset(ByteBuf frame) {
        int offset = 12;
        for (int field = 0; field < 3; field++) { // SecurityPolicyUri, SenderCertificate, ReceiverThumbprint
            offset += 4 + Math.max(0, frame.getIntLE(offset));
        }
        return offset;
    }

    // ---- OpenSecureChannel -------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"BadCertificateUntrusted", "BadCertificateTimeInvalid", "BadCertificateRevoked",
            "BadCertificateUriInvalid"})
    void a_client_certificate_the_validator_rejects_fails_the_connect_with_the_validator_status(String name)
            throws Exception {
        int status = statusNamed(name);
        clientValidator.set(chain -> {
            throw new UaException(status, "rejected by the test");
        });
        UaException failure = connectFailure(server, clientSecurity(BASIC256SHA256_ENCRYPT, clientCertificate,
                serverCertificate), QUOTAS);

        assertThat(failure.statusCode()).isEqualTo(StatusCode.of(status));
        assertThat(failure.getMessage()).contains("server sent Error");
        assertThat(validatedChain.get()).as("chain given to the validator")
                .first().isEqualTo(clientCertificate.certificate());
        assertThat(reads.get()).isZero();
    }

    @Test
    void a_policy_the_server_does_not_offer_is_rejected() throws Exception {
        EndpointSecurity notOffered = new EndpointSecurity(SecurityPolicy.Aes128_Sha256_RsaOaep,
                MessageSecurityMode.SignAndEncrypt);
        UaException failure = connectFailure(server, clientSecurity(notOffered, clientCertificate, serverCertificate),
                QUOTAS);

        assertThat(failure.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadSecurityPolicyRejected));
        assertThat(failure.getMessage()).contains("server sent Error");
        assertThat(validatedChain.get()).as("validator not consulted").isNull();
    }

    @Test
    void a_mode_the_server_does_not_offer_with_that_policy_is_rejected() throws Exception {
        // Part 6, 6.7.4: answered with a ServiceFault in a signed and encrypted OPN response.
        UaException failure = connectFailure(shortTokenServer, clientSecurity(BASIC256SHA256_SIGN, clientCertificate,
                serverCertificate), SHORT_TOKENS);

        assertThat(failure.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadSecurityModeRejected));
    }

    @Test
    void a_request_encrypted_for_another_server_certificate_is_refused() throws Exception {
        // The ReceiverCertificateThumbprint names the other certificate: the server sends BadCertificateInvalid.
        UaException failure = connectFailure(server, clientSecurity(BASIC256SHA256_ENCRYPT, clientCertificate,
                otherServerCertificate), QUOTAS);

        assertThat(failure.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadCertificateInvalid));
        assertThat(failure.getMessage()).contains("server sent Error");
        assertThat(validatedChain.get()).as("validator not consulted").isNull();
    }

    @Test
    void a_client_key_shorter_than_the_policy_allows_is_refused() throws Exception {
        ApplicationCertificate small = TestCertificates.get("tamper-client-1024", 1024);
        UaException failure = connectFailure(server, clientSecurity(BASIC256SHA256_ENCRYPT, small, serverCertificate),
                QUOTAS);

        assertThat(failure.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadCertificatePolicyCheckFailed));
        assertThat(failure.getMessage()).contains("server sent Error");
    }

    @Test
    void the_pki_validator_rejects_an_untrusted_client_certificate_into_rejected_and_accepts_it_once_trusted(
            @TempDir Path pki) throws Exception {
        PkiDirectory directory = new PkiDirectory(pki, Duration.ZERO, PkiDirectory.DEFAULT_MAX_REJECTED);
        clientValidator.set(new PkiCertificateValidator(directory, ValidationOptions.defaults()));
        ClientChannelSecurity security = clientSecurity(BASIC256SHA256_ENCRYPT, clientCertificate, serverCertificate);

        UaException failure = connectFailure(server, security, QUOTAS);

        assertThat(failure.statusCode()).isEqualTo(StatusCode.of(StatusCodes.BadCertificateUntrusted));
        assertThat(failure.getMessage()).contains("server sent Error");
        List<Path> rejected;
        try (Stream<Path> files = Files.list(directory.rejectedDir())) {
            rejected = files.toList();
        }
        assertThat(rejected).hasSize(1);
        assertThat(Files.readAllBytes(rejected.get(0))).isEqualTo(clientCertificate.certificate().getEncoded());

        // An administrator trusts it by moving it to trusted/certs (Part 12, Annex F layout); no restart.
        Files.move(rejected.get(0), directory.trustedCertsDir().resolve(rejected.get(0).getFileName()));
        UaTcpClientChannel channel = connect(server, BASIC256SHA256_ENCRYPT, QUOTAS);
        try {
            assertThat(read(channel).get(5, TimeUnit.SECONDS).results()).hasSize(1);
        } finally {
            channel.close().get(5, TimeUnit.SECONDS);
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------

    /**
     * The client pipeline's two ends: at the socket end, rewrites the next outgoing MSG frame or token
     * renewal (or drops renewals); before the client handler, records the first ERR frame.
     */
    static final class Wire extends ChannelDuplexHandler {

        /** Rewrites one frame into the frames to write instead; owns the frame it is given. */
        interface Rewrite {
            List<ByteBuf> apply(ByteBuf frame);
        }

        private final AtomicReference<Rewrite> next = new AtomicReference<>();
        private final AtomicReference<Rewrite> nextRenewal = new AtomicReference<>();
        private final CompletableFuture<ErrorMessage> error = new CompletableFuture<>();
        private final AtomicReference<ByteBuf> kept = new AtomicReference<>();
        private volatile boolean dropRenewals;

        static Wire on(UaTcpClientChannel channel) {
            Wire wire = new Wire();
            var pipeline = channel.nettyChannel().pipeline();
            pipeline.addFirst("tamper", wire);
            pipeline.addBefore(pipeline.context(UascClientHandler.class).name(), "error-spy",
                    new ChannelInboundHandlerAdapter() {
                        @Override
                        public void channelRead(ChannelHandlerContext ctx, Object msg) {
                            if (msg instanceof ByteBuf frame && type(frame).equals("ERR")) {
                                wire.error.complete(ErrorMessage.decode(frame.duplicate()));
                            }
                            ctx.fireChannelRead(msg);
                        }
                    });
            return wire;
        }

        void nextMessage(Rewrite rewrite) {
            next.set(rewrite);
        }

        /** The client's OPN frames pass this handler only once the channel is open: renewals. */
        void nextRenewal(Rewrite rewrite) {
            nextRenewal.set(rewrite);
        }

        void dropRenewals() {
            dropRenewals = true;
        }

        void keep(ByteBuf frame) {
            kept.set(frame);
        }

        ByteBuf kept() {
            return kept.getAndSet(null);
        }

        CompletableFuture<ErrorMessage> error() {
            return error;
        }

        void release() {
            ByteBuf frame = kept.getAndSet(null);
            if (frame != null) {
                frame.release();
            }
        }

        @Override
        public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
            if (msg instanceof ByteBuf frame) {
                String type = type(frame);
                if (type.equals("OPN") && dropRenewals) {
                    ReferenceCountUtil.release(frame);
                    promise.setSuccess();
                    return;
                }
                Rewrite rewrite = type.equals("MSG") ? next.getAndSet(null)
                        : type.equals("OPN") ? nextRenewal.getAndSet(null) : null;
                if (rewrite != null) {
                    List<ByteBuf> frames = rewrite.apply(frame);
                    for (int i = 0; i < frames.size(); i++) {
                        ctx.write(frames.get(i), i == frames.size() - 1 ? promise : ctx.voidPromise());
                    }
                    if (frames.isEmpty()) {
                        promise.setSuccess();
                    }
                    return;
                }
            }
            ctx.write(msg, promise);
        }

        private static String type(ByteBuf frame) {
            if (frame.readableBytes() < 3) {
                return "";
            }
            return frame.toString(frame.readerIndex(), 3, StandardCharsets.US_ASCII);
        }
    }

    private static ClientChannelSecurity clientSecurity(EndpointSecurity security, ApplicationCertificate client,
            ApplicationCertificate serverToEncryptFor) {
        return new ClientChannelSecurity(security, client, List.of(serverToEncryptFor.certificate()),
                CertificateValidator.acceptAll());
    }

    private static UaTcpClientChannel connect(UaTcpServer target, EndpointSecurity security, TransportQuotas quotas)
            throws Exception {
        return UaTcpClientChannel.connect("opc.tcp://127.0.0.1:" + target.port() + "/", quotas,
                clientSecurity(security, clientCertificate, serverCertificate), ClientResources.shared())
                .get(10, TimeUnit.SECONDS);
    }

    private static UaException connectFailure(UaTcpServer target, ClientChannelSecurity security,
            TransportQuotas quotas) throws Exception {
        return failure(UaTcpClientChannel.connect("opc.tcp://127.0.0.1:" + target.port() + "/", quotas, security,
                ClientResources.shared()));
    }

    private static UaException failure(CompletableFuture<?> future) throws InterruptedException, TimeoutException {
        try {
            Object result = future.get(10, TimeUnit.SECONDS);
            if (result instanceof UaTcpClientChannel channel) {
                channel.close();
            }
            throw new AssertionError("expected a failure, got " + result);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() instanceof CompletionException c ? c.getCause() : e.getCause();
            assertThat(cause).isInstanceOf(UaException.class);
            return (UaException) cause;
        }
    }

    private static void assertClosed(UaTcpClientChannel channel) throws InterruptedException {
        assertThat(channel.nettyChannel().closeFuture().await(5, TimeUnit.SECONDS)).as("connection closed").isTrue();
        assertThat(channel.isOpen()).isFalse();
    }

    private static int statusNamed(String name) throws ReflectiveOperationException {
        return StatusCodes.class.getField(name).getInt(null);
    }

    private static CompletableFuture<ReadResponse> read(UaTcpClientChannel channel) {
        ReadValueId[] ids = {new ReadValueId(NodeId.string(1, "x".repeat(100)), 13, null, null)};
        return channel.request(new ReadRequest(new RequestHeader(NodeId.NULL, DateTime.now(), 1, 0, null, 10_000,
                ExtensionObject.NULL), 0, TimestampsToReturn.Neither, ids), ReadResponse.class);
    }

    private static ReadResponse echo(ReadRequest request) {
        DataValue[] values = new DataValue[request.nodesToRead().length];
        for (int i = 0; i < values.length; i++) {
            values[i] = DataValue.of(Variant.of(request.nodesToRead()[i].nodeId().identifier()));
        }
        return new ReadResponse(ResponseHeaders.good(request.requestHeader().requestHandle()), values,
                new DiagnosticInfo[0]);
    }

    /** Read calls the server handled on this client's secure channel. */
    private static int readsOn(UaTcpClientChannel channel) {
        AtomicInteger count = readsByChannel.get(channel.secureChannelId());
        return count == null ? 0 : count.get();
    }
}
