package dev.opcua.stack.core.security.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.ChunkEncoder;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.channel.SequenceNumbers;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.IvParameterSpec;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Signing and encryption of MSG chunks under a channel token (Part 6, 6.7.2.5 footer, 6.7.6
 * verification) for every RSA policy in modes Sign and SignAndEncrypt: round trips, chunk sizing,
 * reuse of the cached Mac and Cipher, and refusal of every tampered chunk with BadSecurityChecksFailed.
 * Chunks are laid out here as the chunk encoder lays them out: message header (12), TokenId (4),
 * sequence header (8), body, footer.
 */
class SymmetricChunkCryptoTest {

    /** Message header and TokenId: where the secured (sequence header onwards) part starts. */
    private static final int SECURED_START = 16;
    private static final int HEADERS_SIZE = 24;
    private static final long CHANNEL_ID = 7;
    private static final long TOKEN_ID = 3;
    private static final SecureRandom RANDOM = new SecureRandom();

    private final List<ByteBuf> owned = new ArrayList<>();

    @AfterEach
    void releaseBuffers() {
        for (ByteBuf b : owned) {
            if (b.refCnt() > 0) {
                b.release();
            }
        }
        owned.clear();
    }

    static Stream<EndpointSecurity> securedEndpoints() {
        return Stream.of(SecurityPolicy.values()).filter(p -> p != SecurityPolicy.None)
                .flatMap(p -> Stream.of(new EndpointSecurity(p, MessageSecurityMode.Sign),
                        new EndpointSecurity(p, MessageSecurityMode.SignAndEncrypt)));
    }

    static Stream<EndpointSecurity> encryptingEndpoints() {
        return securedEndpoints().filter(EndpointSecurity::encrypts);
    }

    // ---- round trips -----------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("securedEndpoints")
    void bodies_of_every_size_round_trip_through_long_lived_instances_exactly_as_through_fresh_ones(
            EndpointSecurity security) {
        KeyDerivation.Keys keys = keys(security.policy()).client();
        SymmetricChunkCrypto sender = SymmetricChunkCrypto.forSending(security, keys);
        SymmetricChunkCrypto receiver = SymmetricChunkCrypto.forReceiving(security, keys);
        List<Integer> sizes = new ArrayList<>();
        for (int size = 0; size <= 300; size++) {
            sizes.add(size);
        }
        // Multi-KB bodies grow the scratch arrays; the small ones after them reuse the larger arrays.
        sizes.addAll(List.of(1_000, 4_096, 8_000, 20_000, 3, 17, 65_000, 0));
        long sequenceNumber = 1;
        for (int size : sizes) {
            byte[] body = body(size, sequenceNumber);
            ByteBuf secured = chunk(sender, sequenceNumber, body);
            assertThat(secured.getIntLE(4)).as("size written before signing, body %d", size)
                    .isEqualTo(secured.readableBytes());
            ByteBuf fresh = chunk(SymmetricChunkCrypto.forSending(security, keys), sequenceNumber, body);
            assertThat(ByteBufUtil.equals(secured, fresh))
                    .as("chunk of body %d from the long-lived sender equals that of a fresh sender", size).isTrue();
            if (security.encrypts()) {
                assertThat((secured.readableBytes() - SECURED_START) % security.policy().encryptingBlockSize())
                        .as("encrypted part of body %d is whole AES blocks", size).isZero();
            } else {
                assertThat(secured.readableBytes()).isEqualTo(HEADERS_SIZE + size
                        + security.policy().symmetricSignatureSize());
            }
            ByteBuf copy = own(secured.copy());
            assertThat(verifiedBody(receiver, secured, sequenceNumber)).as("body %d", size).isEqualTo(body);
            assertThat(verifiedBody(SymmetricChunkCrypto.forReceiving(security, keys), copy, sequenceNumber))
                    .as("body %d through a fresh receiver", size).isEqualTo(body);
            sequenceNumber++;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("securedEndpoints")
    void a_chunk_that_starts_after_other_chunks_in_the_buffer_round_trips(EndpointSecurity security) {
        KeyDerivation.Keys keys = keys(security.policy()).server();
        ByteBuf out = own(Unpooled.buffer());
        out.writeBytes(new byte[37]); // an earlier chunk of the same write
        byte[] body = body(123, 9);
        int chunkStart = out.writerIndex();
        writeHeaders(out, 9);
        out.writeBytes(body);
        SymmetricChunkCrypto.forSending(security, keys).secure(out, chunkStart, chunkStart + SECURED_START);
        int bodyEnd = SymmetricChunkCrypto.forReceiving(security, keys).verify(out, chunkStart,
                chunkStart + SECURED_START);
        assertThat(out.getUnsignedIntLE(chunkStart + SECURED_START)).isEqualTo(9);
        assertThat(ByteBufUtil.getBytes(out, chunkStart + HEADERS_SIZE, bodyEnd - chunkStart - HEADERS_SIZE))
                .isEqualTo(body);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("securedEndpoints")
    void the_body_is_visible_when_only_signed_and_hidden_when_encrypted(EndpointSecurity security) {
        KeyDerivation.Keys keys = keys(security.policy()).client();
        byte[] body = "a body that must not be readable on the wire when encrypted"
                .getBytes(StandardCharsets.US_ASCII);
        ByteBuf secured = chunk(SymmetricChunkCrypto.forSending(security, keys), 1, body);
        int found = ByteBufUtil.indexOf(own(Unpooled.wrappedBuffer(body)), secured);
        if (security.encrypts()) {
            assertThat(found).isEqualTo(-1);
        } else {
            assertThat(found).isEqualTo(HEADERS_SIZE);
        }
    }

    // ---- scratch memory (a server holds thousands of idle secure channels) -----------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("encryptingEndpoints")
    void an_instance_keeps_no_chunk_sized_array_after_securing_and_verifying(EndpointSecurity security)
            throws IllegalAccessException {
        KeyDerivation.Keys keys = keys(security.policy()).client();
        SymmetricChunkCrypto sender = SymmetricChunkCrypto.forSending(security, keys);
        SymmetricChunkCrypto receiver = SymmetricChunkCrypto.forReceiving(security, keys);
        byte[] body = body(20_000, 1);
        assertThat(verifiedBody(receiver, chunk(sender, 1, body), 1)).isEqualTo(body);

        // the working arrays belong to the thread: an idle channel's token holds nothing of the chunk's size
        for (SymmetricChunkCrypto crypto : List.of(sender, receiver)) {
            for (java.lang.reflect.Field field : SymmetricChunkCrypto.class.getDeclaredFields()) {
                if (field.getType() == byte[].class) {
                    field.setAccessible(true);
                    assertThat(((byte[]) field.get(crypto)).length).as(field.getName())
                            .isLessThanOrEqualTo(security.policy().symmetricSignatureSize());
                }
            }
        }
        assertThat(ChunkScratch.forThisThread().plain(1).length).isGreaterThanOrEqualTo(20_000);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("securedEndpoints")
    void channels_sharing_threads_interleave_their_chunks_without_mixing_them(EndpointSecurity security)
            throws Exception {
        int channels = 8;
        List<SymmetricChunkCrypto> senders = new ArrayList<>();
        List<SymmetricChunkCrypto> receivers = new ArrayList<>();
        for (int c = 0; c < channels; c++) {
            KeyDerivation.Keys keys = keys(security.policy()).server();
            senders.add(SymmetricChunkCrypto.forSending(security, keys));
            receivers.add(SymmetricChunkCrypto.forReceiving(security, keys));
        }
        // one thread: each channel's chunk is secured, another channel's verified in between
        for (int round = 0; round < 20; round++) {
            for (int c = 0; c < channels; c++) {
                byte[] body = body(100 + 997 * ((round + c) % 11), round * channels + c);
                ByteBuf secured = chunk(senders.get(c), round + 1, body);
                int other = (c + 1) % channels;
                ByteBuf otherChunk = chunk(senders.get(other), round + 1, body(33, c));
                assertThat(verifiedBody(receivers.get(other), otherChunk, round + 1)).isEqualTo(body(33, c));
                assertThat(verifiedBody(receivers.get(c), secured, round + 1)).isEqualTo(body);
            }
        }
        // threads at once, each with channels of its own, as event loops, workers and the publisher run
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        try {
            List<java.util.concurrent.Future<Boolean>> results = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int thread = t;
                results.add(pool.submit(() -> {
                    KeyDerivation.Keys keys = keys(security.policy()).client();
                    SymmetricChunkCrypto sender = SymmetricChunkCrypto.forSending(security, keys);
                    SymmetricChunkCrypto receiver = SymmetricChunkCrypto.forReceiving(security, keys);
                    for (int i = 0; i < 200; i++) {
                        byte[] body = body(1 + (i * 131 + thread * 17) % 9000, i + thread);
                        ByteBuf buffer = Unpooled.buffer(HEADERS_SIZE + body.length + 64);
                        try {
                            writeHeaders(buffer, i + 1);
                            buffer.writeBytes(body);
                            sender.secure(buffer, 0, SECURED_START);
                            int bodyEnd = receiver.verify(buffer, 0, SECURED_START);
                            if (!Arrays.equals(ByteBufUtil.getBytes(buffer, HEADERS_SIZE, bodyEnd - HEADERS_SIZE),
                                    body)) {
                                return false;
                            }
                        } finally {
                            buffer.release();
                        }
                    }
                    return true;
                }));
            }
            for (java.util.concurrent.Future<Boolean> result : results) {
                assertThat(result.get(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- chunk sizing ----------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("securedEndpoints")
    void max_body_size_gives_the_largest_block_aligned_chunk_that_fits(EndpointSecurity security) {
        KeyDerivation.Keys keys = keys(security.policy()).client();
        SymmetricChunkCrypto sender = SymmetricChunkCrypto.forSending(security, keys);
        SymmetricChunkCrypto receiver = SymmetricChunkCrypto.forReceiving(security, keys);
        List<Integer> chunkSizes = new ArrayList<>(List.of(1024, 8191, 16_384, 65_535, 65_536));
        for (int size = 8192; size <= 8192 + 2 * security.policy().encryptingBlockSize(); size++) {
            chunkSizes.add(size);
        }
        long sequenceNumber = 1;
        for (int chunkSize : chunkSizes) {
            int maxBody = sender.maxBodySize(chunkSize, HEADERS_SIZE);
            byte[] body = body(maxBody, chunkSize);
            ByteBuf full = chunk(sender, sequenceNumber, body);
            assertThat(full.readableBytes()).as("chunk size %d", chunkSize).isLessThanOrEqualTo(chunkSize);
            if (security.encrypts()) {
                assertThat((full.readableBytes() - SECURED_START) % security.policy().encryptingBlockSize())
                        .as("chunk size %d: encrypted part is block aligned", chunkSize).isZero();
            }
            assertThat(verifiedBody(receiver, full, sequenceNumber)).isEqualTo(body);
            ByteBuf over = chunk(sender, sequenceNumber + 1, body(maxBody + 1, chunkSize));
            assertThat(over.readableBytes()).as("chunk size %d: one byte more does not fit", chunkSize)
                    .isGreaterThan(chunkSize);
            sequenceNumber += 2;
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("securedEndpoints")
    void the_chunk_encoder_cuts_a_large_message_into_chunks_that_fit_and_verify(EndpointSecurity security) {
        KeyDerivation.Keys keys = keys(security.policy()).client();
        SymmetricChunkCrypto receiver = SymmetricChunkCrypto.forReceiving(security, keys);
        int chunkSize = 8192;
        byte[] message = body(50_000, 1);
        ByteBuf out = own(Unpooled.buffer());
        new ChunkEncoder(chunkSize, 0, 0, StatusCodes.BadRequestTooLarge).encodeSymmetric(MessageType.MSG,
                CHANNEL_ID, TOKEN_ID, 77, own(Unpooled.wrappedBuffer(message)), new SequenceNumbers(),
                SymmetricChunkCrypto.forSending(security, keys), out);
        ByteBuf reassembled = own(Unpooled.buffer());
        long expectedSequence = 1;
        while (out.isReadable()) {
            int size = out.getIntLE(out.readerIndex() + 4);
            assertThat(size).isLessThanOrEqualTo(chunkSize);
            ByteBuf frame = out.readSlice(size);
            int bodyEnd = receiver.verify(frame, frame.readerIndex(), frame.readerIndex() + SECURED_START);
            assertThat(frame.getUnsignedIntLE(frame.readerIndex() + SECURED_START)).isEqualTo(expectedSequence++);
            reassembled.writeBytes(frame, frame.readerIndex() + HEADERS_SIZE,
                    bodyEnd - frame.readerIndex() - HEADERS_SIZE);
        }
        assertThat(expectedSequence).isGreaterThan(6);
        assertThat(ByteBufUtil.getBytes(reassembled)).isEqualTo(message);
    }

    // ---- tampering -------------------------------------------------------------------------------

    @ParameterizedTest(name = "{0}")
    @MethodSource("securedEndpoints")
    void a_flipped_bit_anywhere_is_refused_and_the_receiver_still_verifies_the_next_good_chunk(
            EndpointSecurity security) {
        KeyDerivation.Keys keys = keys(security.policy()).client();
        SymmetricChunkCrypto sender = SymmetricChunkCrypto.forSending(security, keys);
        SymmetricChunkCrypto receiver = SymmetricChunkCrypto.forReceiving(security, keys);
        byte[] body = body(100, 5);
        ByteBuf good = chunk(sender, 5, body);
        int length = good.readableBytes();
        int signatureStart = length - security.policy().symmetricSignatureSize();
        for (int i = 0; i < length; i++) {
            ByteBuf tampered = own(good.copy());
            tampered.setByte(i, tampered.getByte(i) ^ (1 << (i % 8)));
            String region = region(i, body.length, signatureStart, security.encrypts());
            assertRefused(() -> receiver.verify(tampered, 0, SECURED_START), "bit flipped at " + i + " (" + region + ")");
            assertThat(verifiedBody(receiver, own(good.copy()), 5)).as("good chunk after the flip at %d", i)
                    .isEqualTo(body);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("securedEndpoints")
    void a_chunk_cut_short_or_extended_is_refused(EndpointSecurity security) {
        KeyDerivation.Keys keys = keys(security.policy()).client();
        SymmetricChunkCrypto receiver = SymmetricChunkCrypto.forReceiving(security, keys);
        ByteBuf good = chunk(SymmetricChunkCrypto.forSending(security, keys), 1, body(64, 1));
        int length = good.readableBytes();
        int block = security.policy().encryptingBlockSize();
        for (int cut : new int[] {1, block, length - SECURED_START - 8, length - SECURED_START - 1,
                length - SECURED_START}) {
            ByteBuf shorter = own(good.copy(0, length - cut));
            assertRefused(() -> receiver.verify(shorter, 0, SECURED_START), "chunk cut by " + cut + " bytes");
        }
        for (int extra : new int[] {1, block}) {
            ByteBuf longer = own(good.copy());
            longer.writeZero(extra);
            assertRefused(() -> receiver.verify(longer, 0, SECURED_START), "chunk extended by " + extra + " bytes");
        }
        assertThat(verifiedBody(receiver, good, 1)).hasSize(64);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("securedEndpoints")
    void wrong_keys_are_refused(EndpointSecurity security) {
        KeyDerivation.ChannelKeys channelKeys = keys(security.policy());
        KeyDerivation.Keys keys = channelKeys.client();
        KeyDerivation.Keys other = keys(security.policy()).client();
        ByteBuf good = chunk(SymmetricChunkCrypto.forSending(security, keys), 1, body(80, 1));
        List<KeyDerivation.Keys> wrong = new ArrayList<>(List.of(other, channelKeys.server(),
                new KeyDerivation.Keys(other.signingKey(), keys.encryptingKey(), keys.initializationVector())));
        if (security.encrypts()) {
            wrong.add(new KeyDerivation.Keys(keys.signingKey(), other.encryptingKey(), keys.initializationVector()));
            wrong.add(new KeyDerivation.Keys(keys.signingKey(), keys.encryptingKey(), other.initializationVector()));
        }
        for (int i = 0; i < wrong.size(); i++) {
            SymmetricChunkCrypto receiver = SymmetricChunkCrypto.forReceiving(security, wrong.get(i));
            ByteBuf copy = own(good.copy());
            assertRefused(() -> receiver.verify(copy, 0, SECURED_START), "wrong keys #" + i);
        }
        assertThat(verifiedBody(SymmetricChunkCrypto.forReceiving(security, keys), good, 1)).hasSize(80);
    }

    // ---- padding under a valid signature (Part 6, 6.7.2.5: each padding byte equals PaddingSize) ----------

    @ParameterizedTest(name = "{0}")
    @MethodSource("encryptingEndpoints")
    void a_forged_chunk_with_correct_padding_verifies(EndpointSecurity security) {
        // Checks the forging path itself, so that the refusals below are down to the padding alone.
        KeyDerivation.Keys keys = keys(security.policy()).client();
        byte[] body = body(40, 1);
        byte[] padding = correctPadding(security.policy(), body.length);
        ByteBuf forged = forge(security.policy(), keys, body, padding);
        assertThat(ByteBufUtil.equals(forged, chunk(SymmetricChunkCrypto.forSending(security, keys), 1, body)))
                .as("the forging path secures exactly like the crypto").isTrue();
        assertThat(verifiedBody(SymmetricChunkCrypto.forReceiving(security, keys), forged, 1)).isEqualTo(body);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("encryptingEndpoints")
    void a_padding_byte_that_differs_from_the_padding_size_is_refused_under_a_valid_signature(
            EndpointSecurity security) {
        KeyDerivation.Keys keys = keys(security.policy()).client();
        SymmetricChunkCrypto receiver = SymmetricChunkCrypto.forReceiving(security, keys);
        byte[] body = body(40, 1);
        byte[] correct = correctPadding(security.policy(), body.length);
        assertThat(correct.length).as("the test needs padding bytes besides PaddingSize").isGreaterThan(1);
        for (int i = 0; i < correct.length - 1; i++) {
            byte[] padding = correct.clone();
            padding[i] ^= 0x40;
            ByteBuf forged = forge(security.policy(), keys, body, padding);
            assertRefused(() -> receiver.verify(forged, 0, SECURED_START), "padding byte " + i + " altered");
        }
        assertThat(verifiedBody(receiver, forge(security.policy(), keys, body, correct), 1)).isEqualTo(body);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("encryptingEndpoints")
    void a_padding_size_larger_than_the_chunk_is_refused_under_a_valid_signature(EndpointSecurity security) {
        KeyDerivation.Keys keys = keys(security.policy()).client();
        SymmetricChunkCrypto receiver = SymmetricChunkCrypto.forReceiving(security, keys);
        byte[] body = body(40, 1);
        int length = correctPadding(security.policy(), body.length).length;
        // 40 + length: the body and one byte of the sequence header; 255: before the chunk's start.
        for (int claimed : new int[] {40 + length, 48 + length, 255}) {
            byte[] padding = new byte[length];
            Arrays.fill(padding, (byte) claimed);
            ByteBuf forged = forge(security.policy(), keys, body, padding);
            assertRefused(() -> receiver.verify(forged, 0, SECURED_START), "PaddingSize " + claimed);
        }
        // A PaddingSize that reaches into the body, whose bytes then do not match it.
        byte[] padding = new byte[length];
        Arrays.fill(padding, (byte) (length - 1 + 10));
        ByteBuf forged = forge(security.policy(), keys, body, padding);
        assertRefused(() -> receiver.verify(forged, 0, SECURED_START), "PaddingSize reaching into the body");
    }

    @Test
    void mode_none_has_no_symmetric_crypto() {
        KeyDerivation.Keys keys = keys(SecurityPolicy.Basic256Sha256).client();
        assertThatThrownBy(() -> SymmetricChunkCrypto.forSending(EndpointSecurity.NONE, keys))
                .isInstanceOf(IllegalArgumentException.class);
    }

    // ---- helpers ---------------------------------------------------------------------------------

    private static KeyDerivation.ChannelKeys keys(SecurityPolicy policy) {
        if (policy.isEcc()) {
            return KeyDerivation.deriveEcc(policy, random(policy.certificateType().coordinateLength()),
                    random(policy.nonceLength()), random(policy.nonceLength()));
        }
        return KeyDerivation.derive(policy, random(policy.nonceLength()), random(policy.nonceLength()));
    }

    private static byte[] random(int length) {
        byte[] bytes = new byte[length];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    /** A body whose bytes depend on a seed, so that two messages of the same size differ. */
    private static byte[] body(int size, long seed) {
        byte[] body = new byte[size];
        for (int i = 0; i < size; i++) {
            body[i] = (byte) (i * 31 + seed * 7);
        }
        return body;
    }

    private ByteBuf own(ByteBuf b) {
        owned.add(b);
        return b;
    }

    private static void writeHeaders(ByteBuf out, long sequenceNumber) {
        out.writeBytes("MSGF".getBytes(StandardCharsets.US_ASCII));
        out.writeIntLE(0);
        out.writeIntLE((int) CHANNEL_ID);
        out.writeIntLE((int) TOKEN_ID);
        out.writeIntLE((int) sequenceNumber);
        out.writeIntLE(42); // RequestId
    }

    /** A MSG chunk secured by {@code crypto}; the size field is left as the crypto wrote it. */
    private ByteBuf chunk(SymmetricChunkCrypto crypto, long sequenceNumber, byte[] body) {
        ByteBuf out = own(Unpooled.buffer(HEADERS_SIZE + body.length + 64));
        writeHeaders(out, sequenceNumber);
        out.writeBytes(body);
        crypto.secure(out, 0, SECURED_START);
        return out;
    }

    /** Verifies in place and returns the body; checks the decrypted sequence header on the way. */
    private static byte[] verifiedBody(SymmetricChunkCrypto receiver, ByteBuf chunk, long sequenceNumber) {
        int bodyEnd = receiver.verify(chunk, 0, SECURED_START);
        assertThat(chunk.getUnsignedIntLE(SECURED_START)).as("SequenceNumber").isEqualTo(sequenceNumber);
        assertThat(chunk.getIntLE(SECURED_START + 4)).as("RequestId").isEqualTo(42);
        return ByteBufUtil.getBytes(chunk, HEADERS_SIZE, bodyEnd - HEADERS_SIZE);
    }

    private static void assertRefused(Runnable verification, String what) {
        assertThatThrownBy(verification::run).as(what).isInstanceOfSatisfying(UaException.class,
                e -> assertThat(e.statusCode().value()).as(what + ": " + e.getMessage())
                        .isEqualTo(StatusCodes.BadSecurityChecksFailed));
    }

    private static String region(int index, int bodyLength, int signatureStart, boolean encrypted) {
        if (index < 12) {
            return "message header";
        } else if (index < SECURED_START) {
            return "TokenId";
        } else if (index < HEADERS_SIZE) {
            return "sequence header";
        } else if (index < HEADERS_SIZE + bodyLength) {
            return "body";
        } else if (index < signatureStart) {
            return "padding";
        }
        return encrypted ? "signature (encrypted)" : "signature";
    }

    /** PaddingSize and Padding as Part 6, 6.7.2.5 asks for, all of the same value, for one chunk of the body. */
    private static byte[] correctPadding(SecurityPolicy policy, int bodyLength) {
        int block = policy.encryptingBlockSize();
        int unpadded = 8 + bodyLength + 1 + policy.symmetricSignatureSize();
        int size = (block - unpadded % block) % block;
        byte[] padding = new byte[size + 1];
        Arrays.fill(padding, (byte) size);
        return padding;
    }

    /**
     * Secures a chunk independently of {@link SymmetricChunkCrypto}, straight from Part 6, 6.7.2.5 with
     * javax.crypto: headers, body and the given footer padding bytes, signed with HMAC over the whole
     * chunk (the size field holding the final size), then AES-CBC from the sequence header on.
     */
    private ByteBuf forge(SecurityPolicy policy, KeyDerivation.Keys keys, byte[] body, byte[] padding) {
        int signatureSize = policy.symmetricSignatureSize();
        int total = HEADERS_SIZE + body.length + padding.length + signatureSize;
        assertThat((total - SECURED_START) % policy.encryptingBlockSize()).as("forged chunk block aligned").isZero();
        ByteBuf plain = own(Unpooled.buffer(total));
        writeHeaders(plain, 1);
        plain.setIntLE(4, total);
        plain.writeBytes(body);
        plain.writeBytes(padding);
        try {
            Mac mac = Mac.getInstance(policy.symmetricSignatureAlgorithm());
            mac.init(new SecretKeySpec(keys.signingKey(), policy.symmetricSignatureAlgorithm()));
            mac.update(ByteBufUtil.getBytes(plain));
            plain.writeBytes(mac.doFinal());
            Cipher aes = Cipher.getInstance("AES/CBC/NoPadding");
            aes.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(keys.encryptingKey(), "AES"),
                    new IvParameterSpec(keys.initializationVector()));
            byte[] encrypted = aes.doFinal(ByteBufUtil.getBytes(plain, SECURED_START, total - SECURED_START));
            ByteBuf out = own(Unpooled.buffer(total));
            out.writeBytes(plain, 0, SECURED_START);
            out.writeBytes(encrypted);
            return out;
        } catch (GeneralSecurityException e) {
            throw new AssertionError(e);
        }
    }
}
