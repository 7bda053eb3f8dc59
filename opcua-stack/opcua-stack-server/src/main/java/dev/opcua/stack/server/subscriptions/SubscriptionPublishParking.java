package dev.opcua.stack.server.subscriptions;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.encoding.CodecRegistry;
import dev.opcua.stack.core.encoding.EncodingLimits;
import dev.opcua.stack.core.encoding.binary.UaDecoder;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import dev.opcua.stack.core.types.structured.RequestHeader;
import dev.opcua.stack.core.types.structured.SubscriptionAcknowledgement;
import dev.opcua.stack.server.requests.PublishParking;
import dev.opcua.stack.server.session.Session;
import io.netty.buffer.ByteBuf;
import io.netty.util.concurrent.FastThreadLocal;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes Publish requests on the event loop (Part 4, 5.13.5; DESIGN.md section 3): decodes the small
 * request with the event loop's own decoder, resolves its session, and hands it to the
 * {@link SubscriptionManager}, which parks it in the session. Nothing here waits, and no worker or
 * request-queue slot is used. Refusals are ServiceFaults: the decoder's status
 * (BadDecodingError, BadEncodingLimitsExceeded), the session's (BadSessionIdInvalid,
 * BadSessionNotActivated, BadSecureChannelIdInvalid), BadNoSubscription, BadServerHalted once closed.
 */
final class SubscriptionPublishParking implements PublishParking {

    private static final Logger log = LoggerFactory.getLogger(SubscriptionPublishParking.class);

    private final SubscriptionManager manager;
    private final SessionResolver sessions;
    private final FastThreadLocal<UaDecoder> decoders;

    SubscriptionPublishParking(SubscriptionManager manager, SessionResolver sessions, CodecRegistry registry,
            EncodingLimits limits) {
        this.manager = manager;
        this.sessions = sessions;
        this.decoders = new FastThreadLocal<>() {
            @Override
            protected UaDecoder initialValue() {
                return new UaDecoder(registry, limits).cacheNodeIds();
            }
        };
    }

    @Override
    public void park(ServerSecureChannel channel, long requestId, ByteBuf message) {
        RequestHeader header = null;
        SubscriptionAcknowledgement[] acknowledgements;
        UaDecoder decoder = decoders.get();
        try {
            decoder.setBuffer(message);
            decoder.readNodeId("TypeId"); // the dispatcher routed it here by this id
            header = decoder.readStruct("RequestHeader", RequestHeader.CODEC);
            acknowledgements = decoder.readStructArray("SubscriptionAcknowledgements",
                    SubscriptionAcknowledgement.CODEC, SubscriptionAcknowledgement[]::new);
        } catch (UaException e) {
            log.debug("{}: Publish {} not decoded: {}", channel, requestId, e.getMessage());
            channel.sendServiceFault(requestId, header == null ? 0 : header.requestHandle(), e.statusCode().value());
            return;
        } catch (RuntimeException e) {
            log.warn("{}: Publish {} not decoded", channel, requestId, e);
            channel.sendServiceFault(requestId, header == null ? 0 : header.requestHandle(),
                    StatusCodes.BadDecodingError);
            return;
        } finally {
            decoder.setBuffer(null);
            message.release();
        }
        Session session;
        try {
            session = sessions.resolve(channel, header);
        } catch (UaException e) {
            channel.sendServiceFault(requestId, header.requestHandle(), e.statusCode().value());
            return;
        }
        manager.publish(channel, requestId, header, acknowledgements, session);
    }
}
