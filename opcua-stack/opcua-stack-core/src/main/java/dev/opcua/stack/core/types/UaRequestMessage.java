package dev.opcua.stack.core.types;

import dev.opcua.stack.core.types.structured.RequestHeader;

/** A service request: its first field is the RequestHeader (Part 4, 7.32). */
public interface UaRequestMessage extends UaStructure {

    RequestHeader requestHeader();
}
