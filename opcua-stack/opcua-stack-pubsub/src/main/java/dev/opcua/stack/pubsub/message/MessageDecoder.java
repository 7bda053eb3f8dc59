package dev.opcua.stack.pubsub.message;

import dev.opcua.stack.core.encoding.UaEncodingException;

/**
 * Turns the bytes of one message mapping (Part 14, 7.2: UADP or JSON) into messages. Malformed input, or input
 * beyond the decoder's limits, is a {@link UaEncodingException} naming the problem; never another exception.
 */
public interface MessageDecoder {

    PubSubMessage decode(byte[] bytes) throws UaEncodingException;
}
