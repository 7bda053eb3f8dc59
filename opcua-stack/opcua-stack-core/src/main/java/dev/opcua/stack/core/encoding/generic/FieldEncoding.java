package dev.opcua.stack.core.encoding.generic;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Objects;

/**
 * How the value of one structure field is encoded in UA Binary (Part 6, 5.2.6): as a built-in type
 * (the DataType itself or the built-in type a simple subtype is encoded as), as an enumeration
 * (Int32, Part 6, 5.2.4), or as a nested structure written inline with the codec of its binary
 * encoding (no ExtensionObject around it).
 */
public sealed interface FieldEncoding {

    /** A built-in type; an abstract DataType such as BaseDataType is a {@link BuiltinType#Variant}. */
    record Builtin(BuiltinType type) implements FieldEncoding {
        public Builtin {
            Objects.requireNonNull(type, "type");
        }
    }

    /** An enumeration: an Int32 on the wire. */
    record Enumeration(NodeId dataType) implements FieldEncoding {
    }

    /** A concrete structure, written inline with the codec registered for its binary encoding id. */
    record Structured(NodeId dataType, NodeId binaryEncodingId) implements FieldEncoding {
        public Structured {
            Objects.requireNonNull(binaryEncodingId, "binaryEncodingId");
        }
    }
}
