package dev.opcua.stack.pubsub.message;

import dev.opcua.stack.core.types.builtin.DataValue;
import java.util.Objects;

/**
 * One field of a DataSetMessage.
 *
 * @param index the field's position in the data set's metadata (what UADP delta frames carry)
 * @param name the field's name in the metadata (what JSON messages carry); null where a decoded UADP
 *        message had no metadata to name it
 * @param value the value with whatever of status and timestamps the writer's field content mask keeps
 */
public record DataSetField(int index, String name, DataValue value) {

    public DataSetField {
        if (index < 0 || index > 0xFFFF) {
            throw new IllegalArgumentException("field index is 0..65535, was " + index);
        }
        Objects.requireNonNull(value, "value");
    }
}
