package dev.opcua.benchmarks.load;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DateTime;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.AnonymousIdentityToken;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.OpenSecureChannelResponse;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.ServiceFault;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * A flooding client that costs next to nothing per request, so that one client core can offer a server
 * core many times what it can serve: one TCP connection with SecurityPolicy None and an activated anonymous
 * session, opened by hand (HEL, OPN, CreateSession, ActivateSession; Part 6, 7.1 and 6.7; Part 4, 5.6),
 * then the same Read of one value encoded once (Part 6, 6.7.2 MSG chunk) and written again and again with
 * only its sequence number and request id changed, {@value #BATCH} to a socket write, never waiting for an
 * answer: only TCP's flow control holds it back. A second thread reads the answers and counts them by the
 * serviceResult of their ResponseHeader (Good, BadServerTooBusy, others by name), without decoding the rest.
 */
final class RawFlooder implements AutoCloseable {

    /** Read requests per socket write. */
    static final int BATCH = 64;

    private static final CodecRegistry CODECS = CodecRegistry.standard();

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private final long channelId;
    private final long tokenId;
    private NodeId authenticationToken = NodeId.NULL; // the session's, once activated
    private int sequenceNumber = 2; // 1 was the OpenSecureChannel request's
    private int requestId = 2;

    private final LongAdder sent = new LongAdder();
    private final LongAdder writeNanos = new LongAdder();
    private final LongAdder good = new LongAdder();
    private final LongAdder busy = new LongAdder();
    private final ConcurrentHashMap<String, LongAdder> otherErrors = new ConcurrentHashMap<>();
    private volatile boolean counting;
    private volatile boolean stopped;
    private Thread writer;
    private Thread reader;

    private RawFlooder(Socket socket, DataInputStream in, OutputStream out, long channelId, long tokenId) {
        this.socket = socket;
        this.in = in;
        this.out = out;
        this.channelId = channelId;
        this.tokenId = tokenId;
    }

    /** Connects and activates an anonymous session on a channel without security; the caller closes it. */
    static RawFlooder open(String endpointUrl) throws IOException {
        URI uri = URI.create(endpointUrl);
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 10_000);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(10_000); // the handshake's answers; lifted before the flood
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream(), 1 << 16));
            OutputStream out = socket.getOutputStream();
            out.write(HandshakeBytes.helloAndOpen(endpointUrl));
            out.flush();
            expect(readChunk(in), "ACKF");
            byte[] opn = readChunk(in);
            expect(opn, "OPNF");
            ByteBuffer header = ByteBuffer.wrap(opn).order(ByteOrder.LITTLE_ENDIAN);
            int afterPolicy = 16 + header.getInt(12);
            int afterCertificate = afterPolicy + 4 + Math.max(0, header.getInt(afterPolicy));
            int afterThumbprint = afterCertificate + 4 + Math.max(0, header.getInt(afterCertificate));
            OpenSecureChannelResponse opened = (OpenSecureChannelResponse) decode(opn, afterThumbprint + 8);
            RawFlooder flooder = new RawFlooder(socket, in, out, opened.securityToken().channelId(),
                    opened.securityToken().tokenId());
            CreateSessionResponse created = (CreateSessionResponse) flooder.call(new CreateSessionRequest(
                    flooder.header(), new ApplicationDescription("urn:bench:raw-flooder", "urn:bench",
                            LocalizedText.of("raw flooder"), ApplicationType.Client, null, null, null),
                    null, endpointUrl, "raw flooder", ByteString.NULL, ByteString.NULL, 60_000, 0));
            String policyId = anonymousPolicyId(created.serverEndpoints());
            flooder.authenticationToken = created.authenticationToken();
            flooder.call(new ActivateSessionRequest(flooder.header(), new SignatureData(null, ByteString.NULL), null,
                    null, ExtensionObject.of(new AnonymousIdentityToken(policyId)),
                    new SignatureData(null, ByteString.NULL)));
            socket.setSoTimeout(0);
            return flooder;
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Starts the writer and the reader threads: Reads of {@code node}'s Value, sent until {@link #close()}.
     * Answers count from {@link #count()} on.
     */
    void start(NodeId node) {
        byte[] body = encode(new ReadRequest(header(), 0, TimestampsToReturn.Neither,
                new ReadValueId[] {new ReadValueId(node, AttributeIds.Value, null, QualifiedName.NULL)}));
        int chunkSize = 24 + body.length;
        ByteBuffer batch = ByteBuffer.allocate(chunkSize * BATCH).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < BATCH; i++) {
            putChunk(batch, i * chunkSize, body); // sequence number and request id set per write
        }
        writer = new Thread(() -> flood(batch.array(), chunkSize), "load-raw-flooder-writer");
        reader = new Thread(this::readAnswers, "load-raw-flooder-reader");
        writer.setDaemon(true);
        reader.setDaemon(true);
        reader.start();
        writer.start();
    }

    /** Counts answers and sent requests from now on. */
    void count() {
        counting = true;
    }

    long sent() {
        return sent.sum();
    }

    /** Nanoseconds the writer spent in socket writes while counting: nearly all of it when TCP holds it back. */
    long writeNanos() {
        return writeNanos.sum();
    }

    long good() {
        return good.sum();
    }

    long busy() {
        return busy.sum();
    }

    ConcurrentHashMap<String, LongAdder> otherErrors() {
        return otherErrors;
    }

    private void flood(byte[] batch, int chunkSize) {
        ByteBuffer view = ByteBuffer.wrap(batch).order(ByteOrder.LITTLE_ENDIAN);
        try {
            while (!stopped) {
                for (int i = 0; i < BATCH; i++) {
                    view.putInt(i * chunkSize + 16, sequenceNumber++);
                    view.putInt(i * chunkSize + 20, requestId++);
                }
                long start = System.nanoTime();
                out.write(batch);
                if (counting) {
                    sent.add(BATCH);
                    writeNanos.add(System.nanoTime() - start);
                }
            }
        } catch (IOException e) {
            if (!stopped) {
                otherErrors.computeIfAbsent("write failed: " + e.getMessage(), k -> new LongAdder()).increment();
            }
        }
    }

    private void readAnswers() {
        try {
            while (!stopped) {
                byte[] chunk = readChunk(in);
                if (!counting) {
                    continue;
                }
                if (chunk[0] != 'M') {
                    otherErrors.computeIfAbsent(new String(chunk, 0, 4, StandardCharsets.US_ASCII) + " chunk",
                            k -> new LongAdder()).increment();
                    continue;
                }
                long status = ByteBuffer.wrap(chunk).order(ByteOrder.LITTLE_ENDIAN)
                        .getInt(serviceResultOffset(chunk)) & 0xFFFF_FFFFL;
                if (status == 0) {
                    good.increment();
                } else if ((status & 0xFFFF_0000L) == (StatusCodes.BadServerTooBusy & 0xFFFF_0000L)) {
                    busy.increment();
                } else {
                    otherErrors.computeIfAbsent(String.format("0x%08X", status), k -> new LongAdder()).increment();
                }
            }
        } catch (IOException e) {
            if (!stopped) {
                otherErrors.computeIfAbsent("read failed: " + e.getMessage(), k -> new LongAdder()).increment();
            }
        }
    }

    /**
     * Where the serviceResult is in a MSG chunk: after the 24 bytes of message, security and sequence
     * headers, the type NodeId (Part 6, 5.2.2.9: two-byte, four-byte or numeric form), the timestamp and
     * the requestHandle of the ResponseHeader.
     */
    private static int serviceResultOffset(byte[] chunk) {
        int nodeIdLength = switch (chunk[24]) {
            case 0x00 -> 2;
            case 0x01 -> 4;
            case 0x02 -> 7;
            default -> throw new IllegalStateException("unexpected type NodeId encoding " + chunk[24]);
        };
        return 24 + nodeIdLength + 8 + 4;
    }

    /**
     * A final MSG chunk of {@code body} at {@code at} (Part 6, 6.7.2: message header, the symmetric security
     * header's token id, then the sequence header, whose two numbers the caller sets at {@code at + 16}).
     */
    private void putChunk(ByteBuffer buffer, int at, byte[] body) {
        buffer.put(at, "MSGF".getBytes(StandardCharsets.US_ASCII));
        buffer.putInt(at + 4, 24 + body.length);
        buffer.putInt(at + 8, (int) channelId);
        buffer.putInt(at + 12, (int) tokenId);
        buffer.put(at + 24, body);
    }

    /** Sends one request of the handshake and waits for its answer (a ServiceFault fails). */
    private UaStructure call(UaStructure request) throws IOException {
        byte[] body = encode(request);
        ByteBuffer chunk = ByteBuffer.allocate(24 + body.length).order(ByteOrder.LITTLE_ENDIAN);
        putChunk(chunk, 0, body);
        chunk.putInt(16, sequenceNumber++).putInt(20, requestId++);
        out.write(chunk.array());
        out.flush();
        byte[] answer = readChunk(in);
        expect(answer, "MSGF");
        UaStructure response = decode(answer, 24);
        if (response instanceof ServiceFault fault) {
            throw new IOException(request.getClass().getSimpleName() + " refused: "
                    + fault.responseHeader().serviceResult());
        }
        return response;
    }

    private RequestHeader header() {
        return new RequestHeader(authenticationToken, DateTime.now(), requestId, 0, null, 60_000,
                ExtensionObject.NULL);
    }

    private static String anonymousPolicyId(EndpointDescription[] endpoints) throws IOException {
        for (EndpointDescription endpoint : endpoints == null ? new EndpointDescription[0] : endpoints) {
            if (endpoint.securityMode() != MessageSecurityMode.None
                    || !SecurityPolicy.None.uri().equals(endpoint.securityPolicyUri())
                    || endpoint.userIdentityTokens() == null) {
                continue;
            }
            for (UserTokenPolicy policy : endpoint.userIdentityTokens()) {
                if (policy.tokenType() == UserTokenType.Anonymous) {
                    return policy.policyId();
                }
            }
        }
        throw new IOException("the server offers no anonymous token on an endpoint without security");
    }

    private static byte[] encode(UaStructure message) {
        ByteBuf buf = Unpooled.buffer();
        try {
            new UaEncoder(CODECS, buf).writeMessage(message);
            return ByteBufUtil.getBytes(buf);
        } finally {
            buf.release();
        }
    }

    private static UaStructure decode(byte[] chunk, int bodyOffset) {
        ByteBuf buf = Unpooled.wrappedBuffer(chunk, bodyOffset, chunk.length - bodyOffset);
        return new UaDecoder(CODECS, EncodingLimits.DEFAULT, buf).readMessage();
    }

    /** Reads one chunk (Part 6, 7.1.2.2: its size is in its header), header included. */
    private static byte[] readChunk(DataInputStream in) throws IOException {
        byte[] header = new byte[8];
        in.readFully(header);
        int size = ByteBuffer.wrap(header).order(ByteOrder.LITTLE_ENDIAN).getInt(4);
        if (size < 8 || size > 1 << 24) {
            throw new IOException("chunk of " + size + " bytes");
        }
        byte[] chunk = new byte[size];
        System.arraycopy(header, 0, chunk, 0, 8);
        in.readFully(chunk, 8, size - 8);
        return chunk;
    }

    private static void expect(byte[] chunk, String type) throws IOException {
        String got = new String(chunk, 0, 4, StandardCharsets.US_ASCII);
        if (!got.equals(type)) {
            throw new IOException("expected " + type + ", got " + got
                    + (got.startsWith("ERR") && chunk.length > 16 ? " " + new String(chunk, 16, chunk.length - 16,
                    StandardCharsets.UTF_8) : "")); // ERR: header, Error (4), Reason's length (4), Reason
        }
    }

    @Override
    public void close() {
        stopped = true;
        try {
            socket.close();
        } catch (IOException e) {
            // the flood is over either way
        }
        join(writer);
        join(reader);
    }

    private static void join(Thread thread) {
        if (thread != null) {
            try {
                thread.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
