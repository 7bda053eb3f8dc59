package dev.opcua.stack.core.security.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.AsymmetricSecurityHeader;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.builtin.ByteString;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Signing and encryption of OpenSecureChannel chunks (Part 6, 6.7.2.5, Table 57; 6.7.2.1: OPN
 * chunks are encrypted in Sign and SignAndEncrypt alike) for every RSA policy, with 2048-bit keys
 * and a 3072-bit key on either side (a 3072-bit encrypting key, over 2048 bits, adds ExtraPaddingSize and allows
 * padding over 255 bytes). Every wire layout is also decrypted and checked here independently of
 * the class under test.
 */
class AsymmetricChunkCryptoTest {

    private static KeyPair client;
    private static KeyPair server;
    private static KeyPair big;

    private final List<ByteBuf> owned = new ArrayList<>();

    @BeforeAll
    static void generateKeys() throws Exception {
        // The 3072-bit key takes longest: generated on another core meanwhile.
        CompletableFuture<KeyPair> bigKey = CompletableFuture.supplyAsync(() -> generate(3072));
        client = generate(2048);
        server = generate(2048);
        big = bigKey.get(60, TimeUnit.SECONDS);
    }

    private static KeyPair generate(int bits) {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(bits);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @AfterEach
    void releaseBuffers() {
        for (ByteBuf b : owned) {
            if (b.refCnt() > 0) {
                b.release();
            }
        }
        owned.clear();
    }

    /** Who signs (sender) and who decrypts (receiver). */
    record Keys(String name, KeyPair sender, KeyPair receiver) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<SecurityPolicy> policies() {
        return Stream.of(SecurityPolicy.values()).filter(p -> p != SecurityPolicy.None && !p.isEcc());
    }

    static Stream<Arguments> policiesAndKeys() {
        return policies().flatMap(p -> Stream.of(
                Arguments.of(p, new Keys("2048 to 2048", client, server)),
                Arguments.of(p, new Keys("2048 to 3072", client, big)),
                Arguments.of(p, new Keys("3072 to 2048", big, server))));
    }

    // ---- round trips -----------------------------------------------------------------------------

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("policiesAndKeys")
    void bodies_round_trip_with_padding_from_zero_to_the_largest_the_block_allows(SecurityPolicy policy, Keys keys) {
        AsymmetricChunkCrypto sender = AsymmetricChunkCrypto.forSending(policy, keys.sender().getPrivate(),
                keys.receiver().getPublic());
        AsymmetricChunkCrypto receiver = AsymmetricChunkCrypto.forReceiving(policy, keys.receiver().getPrivate(),
                keys.sender().getPublic());
        int plainBlock = AsymmetricCrypto.plainBlockSize(policy, keys.receiver().getPublic());
        List<Integer> paddings = new ArrayList<>(List.of(0, 100, plainBlock - 1));
        if (plainBlock > 256) {
            paddings.addAll(List.of(255, 256)); // around the byte boundary: ExtraPaddingSize 0, then 1
        }
        long sequenceNumber = 1;
        for (int padding : paddings) {
            byte[] body = body(bodyForPadding(policy, keys, padding), sequenceNumber);
            ByteBuf secured = chunk(policy, sender, sequenceNumber, body);
            assertFooter(policy, keys, secured, sequenceNumber, body, padding);
            assertThat(verifiedBody(receiver, secured, sequenceNumber)).as("padding %d", padding).isEqualTo(body);
            sequenceNumber++;
        }
        for (int size : new int[] {0, 700}) { // 700: several RSA blocks
            byte[] body = body(size, sequenceNumber);
            ByteBuf secured = chunk(policy, sender, sequenceNumber, body);
            assertFooter(policy, keys, secured, sequenceNumber, body, null);
            assertThat(verifiedBody(receiver, secured, sequenceNumber)).as("body %d", size).isEqualTo(body);
            sequenceNumber++;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void a_chunk_that_starts_after_other_bytes_in_the_buffer_round_trips(SecurityPolicy policy) {
        ByteBuf out = own(Unpooled.buffer());
        out.writeBytes(new byte[21]);
        int chunkStart = out.writerIndex();
        byte[] body = body(77, 3);
        int securedStart = writeHeaders(out, policy, 3);
        out.writeBytes(body);
        AsymmetricChunkCrypto.forSending(policy, client.getPrivate(), server.getPublic())
                .secure(out, chunkStart, securedStart);
        assertThat(out.getIntLE(chunkStart + 4)).isEqualTo(out.writerIndex() - chunkStart);
        int bodyEnd = AsymmetricChunkCrypto.forReceiving(policy, server.getPrivate(), client.getPublic())
                .verify(out, chunkStart, securedStart);
        assertThat(ByteBufUtil.getBytes(out, securedStart + 8, bodyEnd - securedStart - 8)).isEqualTo(body);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("policiesAndKeys")
    void max_body_size_gives_the_largest_chunk_that_fits(SecurityPolicy policy, Keys keys) {
        AsymmetricChunkCrypto sender = AsymmetricChunkCrypto.forSending(policy, keys.sender().getPrivate(),
                keys.receiver().getPublic());
        int headersSize = 12 + header(policy).encodedSize() + 8;
        for (int chunkSize : new int[] {8192, 9000}) {
            int maxBody = sender.maxBodySize(chunkSize, headersSize);
            ByteBuf full = chunk(policy, sender, 1, body(maxBody, 1));
            assertThat(full.readableBytes()).as("chunk size %d", chunkSize).isLessThanOrEqualTo(chunkSize);
            ByteBuf over = chunk(policy, sender, 2, body(maxBody + 1, 2));
            assertThat(over.readableBytes()).as("chunk size %d: one byte more does not fit", chunkSize)
                    .isGreaterThan(chunkSize);
        }
    }

    // ---- tampering -------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void a_flipped_bit_in_the_headers_or_the_ciphertext_is_refused(SecurityPolicy policy) {
        AsymmetricChunkCrypto receiver = AsymmetricChunkCrypto.forReceiving(policy, server.getPrivate(),
                client.getPublic());
        byte[] body = body(60, 4);
        ByteBuf good = chunk(policy, AsymmetricChunkCrypto.forSending(policy, client.getPrivate(),
                server.getPublic()), 4, body);
        int securedStart = 12 + header(policy).encodedSize();
        int length = good.readableBytes();
        List<Integer> positions = new ArrayList<>();
        for (int i = 0; i < securedStart; i += i < 12 ? 1 : 9) {
            positions.add(i); // every byte of the message header, every ninth of the security header
        }
        positions.add(securedStart - 1);
        for (int block = securedStart; block < length; block += 256) {
            positions.addAll(List.of(block, block + 1, block + 128, block + 255)); // each RSA block
        }
        for (int i : positions) {
            ByteBuf tampered = own(good.copy());
            tampered.setByte(i, tampered.getByte(i) ^ (1 << (i % 8)));
            assertRefused(() -> receiver.verify(tampered, 0, securedStart), "bit flipped at " + i);
        }
        assertThat(verifiedBody(receiver, good, 4)).as("the untampered chunk").isEqualTo(body);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void a_chunk_cut_short_is_refused(SecurityPolicy policy) {
        AsymmetricChunkCrypto receiver = AsymmetricChunkCrypto.forReceiving(policy, server.getPrivate(),
                client.getPublic());
        ByteBuf good = chunk(policy, AsymmetricChunkCrypto.forSending(policy, client.getPrivate(),
                server.getPublic()), 1, body(30, 1));
        int securedStart = 12 + header(policy).encodedSize();
        int length = good.readableBytes();
        for (int cut : new int[] {1, 256, length - securedStart}) {
            ByteBuf shorter = own(good.copy(0, length - cut));
            assertRefused(() -> receiver.verify(shorter, 0, securedStart), "chunk cut by " + cut + " bytes");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("policies")
    void a_wrong_receiver_key_or_sender_key_is_refused(SecurityPolicy policy) {
        int securedStart = 12 + header(policy).encodedSize();
        ByteBuf toServer = chunk(policy, AsymmetricChunkCrypto.forSending(policy, client.getPrivate(),
                server.getPublic()), 1, body(50, 1));
        assertRefused(() -> AsymmetricChunkCrypto.forReceiving(policy, client.getPrivate(), client.getPublic())
                .verify(own(toServer.copy()), 0, securedStart), "decrypted with another receiver's key");
        assertRefused(() -> AsymmetricChunkCrypto.forReceiving(policy, server.getPrivate(), server.getPublic())
                .verify(own(toServer.copy()), 0, securedStart), "signature checked with another sender's key");
        ByteBuf toBig = chunk(policy, AsymmetricChunkCrypto.forSending(policy, client.getPrivate(), big.getPublic()),
                1, body(50, 1));
        assertRefused(() -> AsymmetricChunkCrypto.forReceiving(policy, server.getPrivate(), client.getPublic())
                .verify(own(toBig.copy()), 0, securedStart), "3072-bit ciphertext decrypted with a 2048-bit key");
        // The right keys still work on the same bytes.
        assertThat(verifiedBody(AsymmetricChunkCrypto.forReceiving(policy, server.getPrivate(), client.getPublic()),
                toServer, 1)).hasSize(50);
    }

    @Test
    void none_has_no_asymmetric_crypto_and_each_instance_works_one_way() {
        assertThatThrownBy(() -> AsymmetricChunkCrypto.forSending(SecurityPolicy.None, client.getPrivate(),
                server.getPublic())).isInstanceOf(IllegalArgumentException.class);
        ByteBuf chunk = own(Unpooled.buffer());
        writeHeaders(chunk, SecurityPolicy.Basic256Sha256, 1);
        assertThatThrownBy(() -> AsymmetricChunkCrypto.forReceiving(SecurityPolicy.Basic256Sha256,
                server.getPrivate(), client.getPublic()).secure(chunk, 0, 20)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> AsymmetricChunkCrypto.forSending(SecurityPolicy.Basic256Sha256,
                client.getPrivate(), server.getPublic()).verify(chunk, 0, 20)).isInstanceOf(IllegalStateException.class);
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private ByteBuf own(ByteBuf b) {
        owned.add(b);
        return b;
    }

    private static byte[] body(int size, long seed) {
        byte[] body = new byte[size];
        for (int i = 0; i < size; i++) {
            body[i] = (byte) (i * 13 + seed * 5 + 1);
        }
        return body;
    }

    /** A security header of realistic shape; the crypto only signs it, so the certificate bytes are filler. */
    private static AsymmetricSecurityHeader header(SecurityPolicy policy) {
        byte[] certificate = new byte[90];
        Arrays.fill(certificate, (byte) 0x30);
        byte[] thumbprint = new byte[20];
        Arrays.fill(thumbprint, (byte) 0xAB);
        return new AsymmetricSecurityHeader(policy.uri(), ByteString.wrap(certificate), ByteString.wrap(thumbprint));
    }

    /** Message header, security header, sequence header; returns where the secured part starts. */
    private static int writeHeaders(ByteBuf out, SecurityPolicy policy, long sequenceNumber) {
        out.writeBytes("OPNF".getBytes(StandardCharsets.US_ASCII));
        out.writeIntLE(0);
        out.writeIntLE(0); // SecureChannelId of an Issue
        header(policy).encode(out);
        int securedStart = out.writerIndex();
        out.writeIntLE((int) sequenceNumber);
        out.writeIntLE(99); // RequestId
        return securedStart;
    }

    private ByteBuf chunk(SecurityPolicy policy, AsymmetricChunkCrypto crypto, long sequenceNumber, byte[] body) {
        ByteBuf out = own(Unpooled.buffer());
        int securedStart = writeHeaders(out, policy, sequenceNumber);
        out.writeBytes(body);
        crypto.secure(out, 0, securedStart);
        assertThat(out.getIntLE(4)).as("size written before signing").isEqualTo(out.readableBytes());
        return out;
    }

    private static byte[] verifiedBody(AsymmetricChunkCrypto receiver, ByteBuf chunk, long sequenceNumber) {
        int securedStart = 12 + chunk.getIntLE(12) + 4;
        securedStart += 4 + Math.max(0, chunk.getIntLE(securedStart));
        securedStart += 4 + Math.max(0, chunk.getIntLE(securedStart));
        int bodyEnd = receiver.verify(chunk, 0, securedStart);
        assertThat(chunk.getUnsignedIntLE(securedStart)).as("SequenceNumber").isEqualTo(sequenceNumber);
        assertThat(chunk.getIntLE(securedStart + 4)).as("RequestId").isEqualTo(99);
        return ByteBufUtil.getBytes(chunk, securedStart + 8, bodyEnd - securedStart - 8);
    }

    /**
     * The body length that makes the padding {@code padding} bytes long: Part 6, 6.7.2.5 pads
     * sequence header, body, PaddingSize, [ExtraPaddingSize] and signature to whole plaintext blocks.
     */
    private static int bodyForPadding(SecurityPolicy policy, Keys keys, int padding) {
        int plainBlock = AsymmetricCrypto.plainBlockSize(policy, keys.receiver().getPublic());
        int fixed = 8 + 1 + extraPaddingSizeBytes(keys) + AsymmetricCrypto.keySizeBytes(keys.sender().getPrivate())
                + padding;
        return (plainBlock - fixed % plainBlock) % plainBlock;
    }

    private static int extraPaddingSizeBytes(Keys keys) {
        return AsymmetricCrypto.keySizeBytes(keys.receiver().getPublic()) > 256 ? 1 : 0;
    }

    /**
     * Decrypts the chunk with the receiver's key and checks the footer of Part 6, Table 57 byte by byte:
     * sequence header, body, PaddingSize and Padding bytes all of the padding's low byte,
     * ExtraPaddingSize (the high byte) when the encrypting key exceeds 2048 bits, and a signature by the
     * sender over everything from the message header to the end of the padding.
     */
    private static void assertFooter(SecurityPolicy policy, Keys keys, ByteBuf secured, long sequenceNumber,
            byte[] body, Integer expectedPadding) {
        int securedStart = 12 + header(policy).encodedSize();
        int cipherBlock = AsymmetricCrypto.keySizeBytes(keys.receiver().getPublic());
        byte[] ciphertext = ByteBufUtil.getBytes(secured, securedStart, secured.readableBytes() - securedStart);
        assertThat(ciphertext.length % cipherBlock).as("whole RSA blocks").isZero();
        byte[] plain = AsymmetricCrypto.decrypt(policy, keys.receiver().getPrivate(), ciphertext, 0,
                ciphertext.length);
        int plainBlock = AsymmetricCrypto.plainBlockSize(policy, keys.receiver().getPublic());
        assertThat(plain.length).as("every block full").isEqualTo(ciphertext.length / cipherBlock * plainBlock);
        int signatureSize = AsymmetricCrypto.keySizeBytes(keys.sender().getPrivate());
        int signedEnd = plain.length - signatureSize;
        int extra = extraPaddingSizeBytes(keys);
        int padding = (plain[signedEnd - 1 - extra] & 0xFF) | (extra == 1 ? (plain[signedEnd - 1] & 0xFF) << 8 : 0);
        if (expectedPadding != null) {
            assertThat(padding).as("padding size").isEqualTo(expectedPadding);
        }
        int bodyEnd = signedEnd - extra - 1 - padding;
        assertThat(bodyEnd - 8).as("body length").isEqualTo(body.length);
        assertThat(Arrays.copyOfRange(plain, 8, bodyEnd)).isEqualTo(body);
        assertThat(plain[0] & 0xFF | (plain[1] & 0xFF) << 8).as("SequenceNumber").isEqualTo((int) sequenceNumber);
        for (int i = bodyEnd; i < signedEnd - extra; i++) {
            assertThat(plain[i] & 0xFF).as("PaddingSize/Padding byte %d", i).isEqualTo(padding & 0xFF);
        }
        byte[] headers = ByteBufUtil.getBytes(secured, 0, securedStart);
        byte[] signed = Arrays.copyOf(plain, signedEnd);
        byte[] signature = Arrays.copyOfRange(plain, signedEnd, plain.length);
        assertThat(AsymmetricCrypto.verify(policy, keys.sender().getPublic(), signature, headers, signed))
                .as("signature over headers, body and padding").isTrue();
    }

    private static void assertRefused(Runnable verification, String what) {
        assertThatThrownBy(verification::run).as(what).isInstanceOfSatisfying(UaException.class,
                e -> assertThat(e.statusCode().value()).as(what + ": " + e.getMessage())
                        .isEqualTo(StatusCodes.BadSecurityChecksFailed));
    }
}
