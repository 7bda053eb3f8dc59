package dev.opcua.stack.pubsub.config;

import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.Objects;

/**
 * Where a DataSetReader writes one received field (Part 14, 6.2.10.2 FieldTargetDataType): the Value of a
 * variable in the subscriber's address space.
 *
 * @param field the field's name in the data set
 * @param target the variable written
 */
public record FieldTarget(String field, NodeId target) {

    public FieldTarget {
        if (field == null || field.isBlank()) {
            throw new IllegalArgumentException("a field target names a field");
        }
        Objects.requireNonNull(target, "target of field " + field);
    }
}
