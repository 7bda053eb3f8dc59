package dev.opcua.stack.server.testing;

import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.UaCodec;
import dev.opcua.stack.core.encoding.UaReader;
import dev.opcua.stack.core.encoding.UaWriter;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.encoding.binary.UaEncoder;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.EndpointSecurity;
import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaStructure;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.ByteString;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.DiagnosticInfo;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.StatusCode;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.ApplicationType;
import dev.opcua.stack.core.types.enumerated.UserTokenType;
import dev.opcua.stack.core.types.structured.ActivateSessionRequest;
import dev.opcua.stack.core.types.structured.ActivateSessionResponse;
import dev.opcua.stack.core.types.structured.ApplicationDescription;
import dev.opcua.stack.core.types.structured.CloseSessionRequest;
import dev.opcua.stack.core.types.structured.CloseSessionResponse;
import dev.opcua.stack.core.types.structured.CreateSessionRequest;
import dev.opcua.stack.core.types.structured.CreateSessionResponse;
import dev.opcua.stack.core.types.structured.EndpointDescription;
import dev.opcua.stack.core.types.structured.GetEndpointsRequest;
import dev.opcua.stack.core.types.structured.GetEndpointsResponse;
import dev.opcua.stack.core.types.structured.ReadRequest;
import dev.opcua.stack.core.types.structured.ReadResponse;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.core.types.structured.SignatureData;
import dev.opcua.stack.core.types.structured.UserTokenPolicy;
import dev.opcua.stack.server.transport.uasc.ResponseHeaders;
import dev.opcua.stack.server.transport.uasc.SecureChannelIds;
import dev.opcua.stack.server.transport.uasc.ServerChannelCounters;
import dev.opcua.stack.server.transport.uasc.ServerChannelSettings;
import dev.opcua.stack.server.transport.uasc.ServerRequestListener;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.server.transport.uasc.UascServerHandler;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A scripted OPC UA server on 127.0.0.1 for tests of how the client takes bad input: the stack's own
 * {@link UascServerHandler} (SecurityPolicy None only) and just enough services to open a session
 * (GetEndpoints with one None endpoint and an anonymous token policy, CreateSession, ActivateSession,
 * CloseSession, and Reads of the NamespaceArray, the OperationLimits (answered Bad: none) and
 * ServerStatus/State). A {@link Script} sees every request first and may answer it otherwise: with a
 * ServiceFault, for another RequestId, with a raw (malformed) body, or by hanging up.
 *
 * <p>Its event loop thread is {@code scripted-opcua-server-io}. Thread-safe.
 */
public final class ScriptedOpcUaServer implements AutoCloseable {

    /** The namespace at index 1 of the server's NamespaceArray. */
    public static final String NAMESPACE_URI = "urn:dev.opcua:test:scripted";
    public static final String PATH = "/scripted";
    private static final String UA_TCP = "http://opcfoundation.org/UA-Profile/Transport/uatcp-uasc-uabinary";
    private static final NodeId READ_RESPONSE_ENCODING = NodeId.ns0(NodeIds.ReadResponse_Encoding_DefaultBinary);

    /** Decides the answer to one request; the default answer follows when it returns false. */
    @FunctionalInterface
    public interface Script {
        boolean answer(UaStructure request, Exchange exchange);
    }

    /** A request and the ways to answer it, each on the channel it came on. */
    public static final class Exchange {
        private final ServerSecureChannel channel;
        private final long requestId;
        private final long requestHandle;

        private Exchange(ServerSecureChannel channel, long requestId, long requestHandle) {
            this.channel = channel;
            this.requestId = requestId;
            this.requestHandle = requestHandle;
        }

        public long requestHandle() {
            return requestHandle;
        }

        public void respond(UaStructure response) {
            channel.sendResponse(requestId, response);
        }

        /** Answers under another RequestId than the request's (Part 6, 6.7.2.4). */
        public void respondAsRequest(long otherRequestId, UaStructure response) {
            channel.sendResponse(otherRequestId, response);
        }

        public void serviceFault(int status) {
            channel.sendServiceFault(requestId, requestHandle, status);
        }

        /**
         * Sends the TypeId of ReadResponse ({@value NodeIds#ReadResponse_Encoding_DefaultBinary}) followed by
         * {@code body} as it is.
         */
        public void respondRawReadResponse(byte[] body) {
            channel.sendResponse(requestId, new RawMessage(body));
        }

        /** Closes the connection without an answer. */
        public void hangUp() {
            channel.close();
        }
    }

    /** Bytes written after the ReadResponse TypeId, unchecked. */
    private record RawMessage(byte[] body) implements UaStructure {
        @Override
        public NodeId typeId() {
            return NodeId.ns0(NodeIds.ReadResponse);
        }

        @Override
        public NodeId binaryEncodingId() {
            return READ_RESPONSE_ENCODING;
        }
    }

    private static final UaCodec<RawMessage> RAW_CODEC = new UaCodec<>() {
        @Override
        public Class<RawMessage> type() {
            return RawMessage.class;
        }

        @Override
        public NodeId encodingId() {
            return READ_RESPONSE_ENCODING;
        }

        @Override
        public NodeId dataTypeId() {
            return NodeId.ns0(NodeIds.ReadResponse);
        }

        @Override
        public void encode(UaWriter encoder, RawMessage value) {
            ((UaEncoder) encoder).buffer().writeBytes(value.body());
        }

        @Override
        public RawMessage decode(UaReader decoder) {
            throw new UnsupportedOperationException("the scripted server only sends raw messages");
        }
    };

    private final EventLoopGroup eventLoops;
    private final Channel serverChannel;
    private final String endpointUrl;
    private final EndpointDescription[] endpoints;
    private final List<UaStructure> received = new CopyOnWriteArrayList<>();
    private final AtomicInteger sessions = new AtomicInteger();
    private volatile Script script = (request, exchange) -> false;

    private ScriptedOpcUaServer() throws InterruptedException {
        eventLoops = new MultiThreadIoEventLoopGroup(1, runnable -> {
            Thread t = new Thread(runnable, "scripted-opcua-server-io");
            t.setDaemon(true);
            return t;
        }, NioIoHandler.newFactory());
        CodecRegistry registry = CodecRegistry.standard().toBuilder().add(RAW_CODEC).build();
        // the raw codec took over the ReadResponse encoding id for decoding; the server decodes requests only
        ServerChannelSettings settings = new ServerChannelSettings(TransportQuotas.DEFAULT, url -> true, registry,
                new SecureChannelIds(), new ServerChannelCounters());
        ServerRequestListener listener = this::onRequest;
        serverChannel = new ServerBootstrap()
                .group(eventLoops)
                .channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(new UaTcpFrameDecoder(settings.quotas().maxBufferSize()),
                                new UascServerHandler(settings, listener));
                    }
                })
                .bind(InetAddress.getLoopbackAddress(), 0).sync().channel();
        endpointUrl = "opc.tcp://127.0.0.1:" + ((InetSocketAddress) serverChannel.localAddress()).getPort() + PATH;
        endpoints = new EndpointDescription[] {new EndpointDescription(endpointUrl,
                new ApplicationDescription("urn:dev.opcua:test:scripted-server", null,
                        LocalizedText.of("scripted server"), ApplicationType.Server, null, null, null),
                ByteString.NULL, EndpointSecurity.NONE.mode(), EndpointSecurity.NONE.policy().uri(),
                new UserTokenPolicy[] {new UserTokenPolicy("anonymous", UserTokenType.Anonymous, null, null, null)},
                UA_TCP, (short) 0)};
    }

    /** Binds 127.0.0.1 and an ephemeral port. */
    public static ScriptedOpcUaServer start() throws InterruptedException {
        return new ScriptedOpcUaServer();
    }

    public String endpointUrl() {
        return endpointUrl;
    }

    /** Replaces the script; the default answers everything the default way. */
    public void script(Script script) {
        this.script = Objects.requireNonNull(script, "script");
    }

    /** Every request received, decoded, in order. */
    public List<UaStructure> received() {
        return received;
    }

    @Override
    public void close() {
        serverChannel.close().syncUninterruptibly();
        eventLoops.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private void onRequest(ServerSecureChannel channel, long requestId, ByteBuf message) {
        UaStructure request;
        try {
            request = new UaDecoder(CodecRegistry.standard(), TransportQuotas.DEFAULT.encodingLimits(), message)
                    .readMessage();
        } finally {
            message.release();
        }
        received.add(request);
        long handle = request instanceof UaRequestMessage r ? r.requestHeader().requestHandle() : 0;
        Exchange exchange = new Exchange(channel, requestId, handle);
        if (!script.answer(request, exchange)) {
            answer(request, exchange);
        }
    }

    private void answer(UaStructure request, Exchange exchange) {
        long handle = exchange.requestHandle();
        if (request instanceof GetEndpointsRequest) {
            exchange.respond(new GetEndpointsResponse(ResponseHeaders.good(handle), endpoints));
        } else if (request instanceof CreateSessionRequest create) {
            int n = sessions.incrementAndGet();
            exchange.respond(new CreateSessionResponse(ResponseHeaders.good(handle), NodeId.numeric(1, n),
                    NodeId.string(0, "token-" + n), create.requestedSessionTimeout(), ByteString.wrap(new byte[32]),
                    ByteString.NULL, endpoints, null, new SignatureData(null, ByteString.NULL), 0));
        } else if (request instanceof ActivateSessionRequest) {
            exchange.respond(new ActivateSessionResponse(ResponseHeaders.good(handle), ByteString.wrap(new byte[32]),
                    new StatusCode[0], new DiagnosticInfo[0]));
        } else if (request instanceof ReadRequest read) {
            exchange.respond(new ReadResponse(ResponseHeaders.good(handle), values(read.nodesToRead()),
                    new DiagnosticInfo[0]));
        } else if (request instanceof CloseSessionRequest) {
            exchange.respond(new CloseSessionResponse(ResponseHeaders.good(handle)));
        } else {
            exchange.serviceFault(StatusCodes.BadServiceUnsupported);
        }
    }

    /** The NamespaceArray, ServerStatus/State Running (0), BadNodeIdUnknown for anything else. */
    private static DataValue[] values(ReadValueId[] nodes) {
        DataValue[] values = new DataValue[nodes.length];
        for (int i = 0; i < nodes.length; i++) {
            NodeId id = nodes[i].nodeId();
            if (id.equals(NodeId.ns0(NodeIds.Server_NamespaceArray))) {
                values[i] = DataValue.of(Variant.ofArray(BuiltinType.String,
                        new String[] {"http://opcfoundation.org/UA/", NAMESPACE_URI}));
            } else if (id.equals(NodeId.ns0(NodeIds.Server_ServerStatus_State))) {
                values[i] = DataValue.of(Variant.ofInt32(0));
            } else {
                values[i] = DataValue.ofStatus(StatusCode.of(StatusCodes.BadNodeIdUnknown));
            }
        }
        return values;
    }
}
