package dev.opcua.stack.server.requests;

import dev.opcua.stack.server.transport.uasc.ServerSecureChannel;
import io.netty.buffer.ByteBuf;

/**
 * Where Publish requests go instead of the request queue (Part 4, 5.13.5): a Publish waits in its
 * session until a notification or keep-alive is due, and must occupy neither a worker nor a queue
 * slot. The subscriptions layer implements this; without one, Publish is answered at admission with
 * BadServiceUnsupported.
 */
@FunctionalInterface
public interface PublishParking {

    /**
     * Takes over a Publish request, still encoded (the encoding NodeId and the body). Called on the
     * channel's event loop: must return quickly and own {@code message} from the call on (release it,
     * also when it throws).
     */
    void park(ServerSecureChannel channel, long requestId, ByteBuf message);
}
