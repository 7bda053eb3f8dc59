package dev.opcua.stack.pubsub.config;

import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Objects;

/**
 * One field of a published data set (Part 14, 6.2.3.2 PublishedVariableDataType): its name in the data set,
 * where its value comes from and its type, which goes into the DataSetMetaData.
 *
 * @param name the field's name (the JSON member name, the metadata's FieldMetaData name)
 * @param source the variable whose Value the field publishes, or null where the application supplies values
 * @param builtInType the field's built-in type (for RawData encoding and the metadata)
 * @param dataType the field's DataType NodeId
 * @param valueRank -1 scalar, 1 one-dimensional array (Part 3, 5.6.2)
 */
public record PublishedField(String name, NodeId source, BuiltinType builtInType, NodeId dataType, int valueRank) {

    public PublishedField {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("a published field needs a name");
        }
        Objects.requireNonNull(builtInType, "builtInType of field " + name);
        if (dataType == null) {
            dataType = NodeId.ns0(builtInType.typeId());
        }
        if (valueRank != -1 && valueRank != 1) {
            throw new IllegalArgumentException("field " + name + ": ValueRank -1 (scalar) or 1 (array), was "
                    + valueRank);
        }
    }

    /** A scalar field published from a variable. */
    public static PublishedField of(String name, NodeId source, BuiltinType builtInType) {
        return new PublishedField(name, source, builtInType, null, -1);
    }

    /** A scalar field whose values the application supplies. */
    public static PublishedField of(String name, BuiltinType builtInType) {
        return new PublishedField(name, null, builtInType, null, -1);
    }
}
