package dev.opcua.stack.client.certificates;

import dev.opcua.stack.client.OpcUaClient;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.security.CertificateType;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.structured.TrustListDataType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * Manages a server's certificates by the push model of Part 12, 7.10, without a GDS: calls the standard
 * methods of the ServerConfiguration object (i=12637) and of its DefaultApplicationGroup's TrustList by their
 * namespace-0 NodeIds, so it works with any server that implements them. The session needs the SecurityAdmin
 * role on a SignAndEncrypt channel; otherwise the server refuses with BadUserAccessDenied or
 * BadSecurityModeInsufficient, which the returned futures fail with (as a
 * {@link dev.opcua.stack.core.UaException}).
 *
 * <p>Typical renewal: {@link #createSigningRequest}, have a CA sign it, {@link #updateCertificate} with the
 * CA's certificates as issuers, then {@link #applyChanges()} when it returns true.
 */
public final class ServerCertificateManager {

    static final NodeId SERVER_CONFIGURATION = NodeId.ns0(NodeIds.ServerConfiguration);
    static final NodeId DEFAULT_APPLICATION_GROUP =
            NodeId.ns0(NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup);
    static final NodeId TRUST_LIST =
            NodeId.ns0(NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList);
    /** Bytes asked for per TrustList Read: well under any server's MaxByteStringLength. */
    static final int READ_CHUNK = 32 * 1024;
    /** Bytes sent per TrustList Write. */
    static final int WRITE_CHUNK = 32 * 1024;
    /** FileType.Open mode Write + EraseExisting (Part 20, 4.2.2.1), the only writing mode of a TrustList. */
    private static final int MODE_WRITE_ERASE_EXISTING = 0x06;

    private final OpcUaClient client;

    public ServerCertificateManager(OpcUaClient client) {
        this.client = Objects.requireNonNull(client, "client");
    }

    /**
     * CreateSigningRequest (Part 12, 7.10.10) for the DefaultApplicationGroup's RSA certificate.
     *
     * @param subjectName the subject ("CN=..., O=...") or null for the current certificate's
     * @param nonce at least 32 random bytes when {@code regeneratePrivateKey}, else null
     * @return the DER PKCS #10 request
     */
    public CompletableFuture<byte[]> createSigningRequest(String subjectName, boolean regeneratePrivateKey,
            byte[] nonce) {
        return createSigningRequest(CertificateType.RSA_SHA256, subjectName, regeneratePrivateKey, nonce);
    }

    /** CreateSigningRequest for the server's certificate of {@code type} (an ECC curve's, Part 12, 7.8.4). */
    public CompletableFuture<byte[]> createSigningRequest(CertificateType type, String subjectName,
            boolean regeneratePrivateKey, byte[] nonce) {
        return client.call(SERVER_CONFIGURATION, NodeId.ns0(NodeIds.ServerConfiguration_CreateSigningRequest),
                DEFAULT_APPLICATION_GROUP, type.typeId(),
                Variant.ofScalar(BuiltinType.String, subjectName), regeneratePrivateKey, byteString(nonce))
                .thenApply(out -> ((ByteString) out[0].value()).bytes());
    }

    /**
     * UpdateCertificate (Part 12, 7.10.5) with a certificate for the server's current or pending key.
     *
     * @return applyChangesRequired: call {@link #applyChanges()} to put it in use
     */
    public CompletableFuture<Boolean> updateCertificate(byte[] certificate, List<byte[]> issuerCertificates) {
        return updateCertificate(certificate, issuerCertificates, null, null);
    }

    /** UpdateCertificate with a private key made elsewhere, in {@code privateKeyFormat} "PEM" or "PFX". */
    public CompletableFuture<Boolean> updateCertificate(byte[] certificate, List<byte[]> issuerCertificates,
            String privateKeyFormat, byte[] privateKey) {
        return updateCertificate(CertificateType.RSA_SHA256, certificate, issuerCertificates, privateKeyFormat,
                privateKey);
    }

    /** UpdateCertificate of the server's certificate of {@code type}; the key arguments as above, or null. */
    public CompletableFuture<Boolean> updateCertificate(CertificateType type, byte[] certificate,
            List<byte[]> issuerCertificates, String privateKeyFormat, byte[] privateKey) {
        ByteString[] issuers = issuerCertificates.stream().map(ByteString::of).toArray(ByteString[]::new);
        return client.call(SERVER_CONFIGURATION, NodeId.ns0(NodeIds.ServerConfiguration_UpdateCertificate),
                DEFAULT_APPLICATION_GROUP, type.typeId(), byteString(certificate),
                Variant.ofArray(BuiltinType.ByteString, issuers), Variant.ofScalar(BuiltinType.String, privateKeyFormat),
                byteString(privateKey))
                .thenApply(out -> (Boolean) out[0].value());
    }

    /** ApplyChanges (Part 12, 7.10.9). */
    public CompletableFuture<Void> applyChanges() {
        return client.call(SERVER_CONFIGURATION, NodeId.ns0(NodeIds.ServerConfiguration_ApplyChanges))
                .thenApply(out -> null);
    }

    /** GetRejectedList (Part 12, 7.10.12): the DER certificates the server rejected. */
    public CompletableFuture<List<byte[]>> getRejectedList() {
        return client.call(SERVER_CONFIGURATION, NodeId.ns0(NodeIds.ServerConfiguration_GetRejectedList))
                .thenApply(out -> out[0].isNull() ? List.of()
                        : Arrays.stream((ByteString[]) out[0].value()).map(ByteString::bytes).toList());
    }

    /** The whole TrustList: Open(Read), Read until an empty chunk, Close (Part 12, 7.8.2). */
    public CompletableFuture<TrustListDataType> readTrustList() {
        return client.call(TRUST_LIST, method(NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open),
                        Variant.ofScalar(BuiltinType.Byte, (short) 1))
                .thenCompose(out -> {
                    long handle = (Long) out[0].value();
                    return readAll(handle, new ByteArrayOutputStream())
                            .thenCompose(bytes -> close(handle).thenApply(v -> decode(bytes)));
                });
    }

    /**
     * Replaces the lists {@code trustList}'s SpecifiedLists names: Open(Write + EraseExisting), Write in
     * chunks, CloseAndUpdate.
     *
     * @return applyChangesRequired
     */
    public CompletableFuture<Boolean> writeTrustList(TrustListDataType trustList) {
        byte[] bytes = encode(trustList);
        return client.call(TRUST_LIST, method(NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Open),
                        Variant.ofScalar(BuiltinType.Byte, (short) MODE_WRITE_ERASE_EXISTING))
                .thenCompose(out -> {
                    long handle = (Long) out[0].value();
                    return writeFrom(handle, bytes, 0)
                            .thenCompose(v -> client.call(TRUST_LIST, method(
                                    NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_CloseAndUpdate),
                                    Variant.ofUInt32(handle)))
                            .thenApply(result -> (Boolean) result[0].value());
                });
    }

    /** AddCertificate (Part 12, 7.8.2.6): a trusted certificate (DER, followed by its CAs' if it has any). */
    public CompletableFuture<Void> addCertificate(byte[] certificate) {
        return client.call(TRUST_LIST, method(NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_AddCertificate),
                byteString(certificate), true).thenApply(out -> null);
    }

    /** RemoveCertificate (Part 12, 7.8.2.7) by SHA-1 thumbprint in hex. */
    public CompletableFuture<Void> removeCertificate(String thumbprint, boolean isTrustedCertificate) {
        return client.call(TRUST_LIST, method(NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_RemoveCertificate),
                Variant.ofString(thumbprint), isTrustedCertificate).thenApply(out -> null);
    }

    private CompletableFuture<byte[]> readAll(long handle, ByteArrayOutputStream sink) {
        return client.call(TRUST_LIST, method(NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Read),
                        Variant.ofUInt32(handle), Variant.ofInt32(READ_CHUNK))
                .thenCompose(out -> {
                    ByteString chunk = (ByteString) out[0].value();
                    if (chunk == null || chunk.isNull() || chunk.length() == 0) {
                        return CompletableFuture.completedFuture(sink.toByteArray());
                    }
                    sink.writeBytes(chunk.bytes());
                    return readAll(handle, sink);
                });
    }

    private CompletableFuture<Void> writeFrom(long handle, byte[] bytes, int offset) {
        if (offset >= bytes.length) {
            return CompletableFuture.completedFuture(null);
        }
        int end = Math.min(bytes.length, offset + WRITE_CHUNK);
        return client.call(TRUST_LIST, method(NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Write),
                        Variant.ofUInt32(handle), byteString(Arrays.copyOfRange(bytes, offset, end)))
                .thenCompose(out -> writeFrom(handle, bytes, end));
    }

    private CompletableFuture<Void> close(long handle) {
        return client.call(TRUST_LIST, method(NodeIds.ServerConfiguration_CertificateGroups_DefaultApplicationGroup_TrustList_Close),
                Variant.ofUInt32(handle)).thenApply(out -> null);
    }

    private static NodeId method(int id) {
        return NodeId.ns0(id);
    }

    private static Variant byteString(byte[] bytes) {
        return bytes == null ? Variant.ofScalar(BuiltinType.ByteString, ByteString.NULL)
                : Variant.ofScalar(BuiltinType.ByteString, ByteString.of(bytes));
    }

    /** The TrustList file's content: the structure in UA Binary without an ExtensionObject (Part 12, 7.8.2.1). */
    static byte[] encode(TrustListDataType trustList) {
        ByteBuf buf = Unpooled.buffer(1024);
        try {
            TrustListDataType.CODEC.encode(new UaEncoder(CodecRegistry.standard(), buf), trustList);
            byte[] bytes = new byte[buf.readableBytes()];
            buf.readBytes(bytes);
            return bytes;
        } finally {
            buf.release();
        }
    }

    static TrustListDataType decode(byte[] bytes) {
        ByteBuf buf = Unpooled.wrappedBuffer(bytes);
        EncodingLimits limits = new EncodingLimits(0xFFFF, Math.max(1, bytes.length), 0xFFFF, 10);
        return TrustListDataType.CODEC.decode(new UaDecoder(CodecRegistry.standard(), limits, buf));
    }
}
