package dev.opcua.stack.server.testing;

import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.ServerRequestListener;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.UaRequestMessage;
import dev.opcua.stack.core.types.UaStructure;
import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A listener that answers on the calling thread, for EmbeddedChannel tests: decodes each request,
 * records it and sends what {@code service} returns, or a ServiceFault BadServiceUnsupported for null.
 */
public final class SyncTestListener implements ServerRequestListener {

    public final List<UaStructure> requests = new CopyOnWriteArrayList<>();
    public final List<Long> requestIds = new CopyOnWriteArrayList<>();
    public final List<ServerSecureChannel> opened = new CopyOnWriteArrayList<>();
    public final List<ServerSecureChannel> closed = new CopyOnWriteArrayList<>();
    private final Function<UaStructure, UaStructure> service;

    public SyncTestListener(Function<UaStructure, UaStructure> service) {
        this.service = service;
    }

    /** A listener that answers every request with BadServiceUnsupported. */
    public SyncTestListener() {
        this(request -> null);
    }

    @Override
    public void onRequest(ServerSecureChannel channel, long requestId, ByteBuf message) {
        UaStructure request;
        try {
            request = new UaDecoder(CodecRegistry.standard(), EncodingLimits.DEFAULT, message).readMessage();
        } finally {
            message.release();
        }
        requests.add(request);
        requestIds.add(requestId);
        UaStructure response = service.apply(request);
        if (response == null) {
            channel.sendServiceFault(requestId, requestHandle(request), StatusCodes.BadServiceUnsupported);
        } else {
            channel.sendResponse(requestId, response);
        }
    }

    @Override
    public void onChannelOpened(ServerSecureChannel channel) {
        opened.add(channel);
    }

    @Override
    public void onChannelClosed(ServerSecureChannel channel) {
        closed.add(channel);
    }

    private static long requestHandle(UaStructure request) {
        return request instanceof UaRequestMessage message ? message.requestHeader().requestHandle() : 0;
    }
}
