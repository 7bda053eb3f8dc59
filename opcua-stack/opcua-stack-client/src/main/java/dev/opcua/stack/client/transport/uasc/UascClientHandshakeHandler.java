package dev.opcua.stack.client.transport.uasc;

import dev.opcua.stack.client.transport.uasc.UascClientHandler.State;
import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.channel.MessageType;
import dev.opcua.stack.core.channel.messages.AcknowledgeMessage;
import dev.opcua.stack.core.channel.messages.HelloMessage;
import dev.opcua.stack.core.config.TransportQuotas;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.transport.tcp.UaTcpFrameDecoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.Timeout;

/**
 * The handshake of a client channel: sends Hello once the socket is connected, checks the server's
 * Acknowledge against it (Part 6, 7.1.2.3, 7.1.2.4, 7.1.3), validates the server certificate and has
 * the {@link ClientOpenSecureChannel} send the OpenSecureChannel Issue (Part 6, 6.7.4), all within the
 * operation timeout (BadTimeout). Once the channel is open it removes itself from the pipeline, so that
 * the responses of the open channel reach the {@link UascClientHandler} without passing it.
 *
 * <p>Installed by the {@link UascClientHandler} just before itself. It takes the Acknowledge and passes
 * every other frame on: the OpenSecureChannel response is a chunk like any other, verified and
 * reassembled by the {@link UascClientHandler} in the same sequence as the responses that follow it.
 *
 * <p>Decisions where the specification is silent: an Acknowledge whose buffer sizes exceed what the
 * Hello offered or fall below 8192 bytes, or whose ProtocolVersion exceeds ours, fails the handshake
 * with BadProtocolVersionUnsupported (version) or BadCommunicationError (sizes).
 */
final class UascClientHandshakeHandler extends ChannelInboundHandlerAdapter {

    private final UascClientHandler channel;
    private final String endpointUrl;
    private final TransportQuotas quotas;
    private final ClientChannelSecurity security;
    private final ClientOpenSecureChannel openSecureChannel;
    private ChannelHandlerContext ctx;
    /** Runs from the Hello until the channel is open. */
    private Timeout deadline;

    UascClientHandshakeHandler(UascClientHandler channel, String endpointUrl, TransportQuotas quotas,
            ClientChannelSecurity security, ClientOpenSecureChannel openSecureChannel) {
        this.channel = channel;
        this.endpointUrl = endpointUrl;
        this.quotas = quotas;
        this.security = security;
        this.openSecureChannel = openSecureChannel;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        if (ctx.channel().isActive()) {
            sendHello();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        sendHello();
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        deadline = UascClientHandler.cancel(deadline);
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        deadline = UascClientHandler.cancel(deadline);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof ByteBuf frame && channel.state() == State.AWAIT_ACK && isAcknowledge(frame)) {
            try {
                onAcknowledge(AcknowledgeMessage.decode(frame));
            } catch (RuntimeException e) {
                channel.fail(UascClientHandler.toUaException(e));
            } finally {
                frame.release();
            }
        } else {
            ctx.fireChannelRead(msg);
        }
        State state = channel.state();
        if (state == State.OPEN || state == State.CLOSED) {
            deadline = UascClientHandler.cancel(deadline);
            if (state == State.OPEN && !ctx.isRemoved()) {
                ctx.pipeline().remove(this);
            }
        }
    }

    private static boolean isAcknowledge(ByteBuf frame) {
        return frame.readableBytes() >= 8
                && MessageType.fromHeader(frame.getIntLE(frame.readerIndex())) == MessageType.ACK;
    }

    private void sendHello() {
        if (channel.state() != State.NEW) {
            return;
        }
        channel.state(State.AWAIT_ACK);
        HelloMessage hello = new HelloMessage(UascClientHandler.PROTOCOL_VERSION, quotas.maxBufferSize(),
                quotas.maxBufferSize(), quotas.maxMessageSize(), quotas.effectiveMaxChunkCount(), endpointUrl);
        ByteBuf out = ctx.alloc().buffer(32 + ByteBufUtil.utf8MaxBytes(endpointUrl));
        try {
            hello.encode(out);
        } catch (RuntimeException e) {
            out.release();
            channel.fail(UascClientHandler.toUaException(e));
            return;
        }
        ctx.writeAndFlush(out);
        deadline = channel.schedule(this::timedOut, quotas.operationTimeout().toMillis());
    }

    private void timedOut() {
        State state = channel.state();
        if (state == State.AWAIT_ACK || state == State.AWAIT_OPN) {
            channel.fail(new UaException(StatusCodes.BadTimeout, "no " + (state == State.AWAIT_ACK ? "Acknowledge"
                    : "OpenSecureChannel response") + " within " + quotas.operationTimeout().toMillis() + " ms"));
        }
    }

    /** Checks the server's Acknowledge against our Hello (Part 6, 7.1.2.4, Table 73) and sends the OPN. */
    private void onAcknowledge(AcknowledgeMessage ack) {
        if (ack.protocolVersion() > UascClientHandler.PROTOCOL_VERSION) {
            throw new UaException(StatusCodes.BadProtocolVersionUnsupported, "the server acknowledged protocol version "
                    + ack.protocolVersion() + ", newer than our " + UascClientHandler.PROTOCOL_VERSION);
        }
        checkBufferSize("ReceiveBufferSize", ack.receiveBufferSize());
        checkBufferSize("SendBufferSize", ack.sendBufferSize());
        UaTcpFrameDecoder frames = ctx.pipeline().get(UaTcpFrameDecoder.class);
        if (frames != null) {
            frames.setMaxFrameSize(quotas.maxBufferSize());
        }
        channel.acknowledged(ack);
        if (security.security().policy() != SecurityPolicy.None) {
            // Part 4, 6.1.3: the server's certificate is validated before anything is sent to it.
            security.serverValidator().validate(security.serverCertificateChain());
        }
        openSecureChannel.issue(ack.protocolVersion());
    }

    /** Both sizes are at most what we offered (our Hello uses one value for both) and at least 8192. */
    private void checkBufferSize(String field, long size) {
        if (size < UascClientHandler.MIN_BUFFER_SIZE || size > quotas.maxBufferSize()) {
            throw new UaException(StatusCodes.BadCommunicationError, "the server acknowledged " + field + " " + size
                    + ", outside " + UascClientHandler.MIN_BUFFER_SIZE + ".." + quotas.maxBufferSize());
        }
    }
}
