package dev.opcua.stack.core.types;

import dev.opcua.stack.core.types.structured.ResponseHeader;

/** A service response or ServiceFault: its first field is the ResponseHeader (Part 4, 7.33). */
public interface UaResponseMessage extends UaStructure {

    ResponseHeader responseHeader();
}
