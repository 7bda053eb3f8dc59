package dev.opcua.stack.core.encoding.generic;

import java.util.Objects;

/**
 * One field of a {@link StructureLayout} (Part 3, 8.51 StructureField, reduced to what encoding needs).
 *
 * @param name the field's name, as in the DataTypeDefinition and the XML encoding
 * @param encoding how its value is encoded
 * @param array whether it is a one-dimensional array (ValueRank 1) rather than a scalar (ValueRank -1)
 * @param optional whether it may be absent (StructureWithOptionalFields only)
 */
public record LayoutField(String name, FieldEncoding encoding, boolean array, boolean optional) {

    public LayoutField {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(encoding, "encoding");
    }
}
