package dev.opcua.stack.core.types;

import dev.opcua.stack.core.types.builtin.NodeId;

/** A structured value: an instance of a Structure DataType, carried in an ExtensionObject (Part 6, 5.2.6). */
public interface UaStructure {

    /** NodeId of this value's DataType. */
    NodeId typeId();

    /** NodeId of the DefaultBinary encoding object of this value's DataType. */
    NodeId binaryEncodingId();
}
