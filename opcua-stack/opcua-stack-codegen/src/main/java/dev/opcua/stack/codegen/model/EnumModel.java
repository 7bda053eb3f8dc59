package dev.opcua.stack.codegen.model;

import dev.opcua.stack.codegen.schema.EnumValueDef;
import java.util.List;

/**
 * One generated enumeration: a Java {@code enum}, or for an option set a class of bit-mask constants.
 *
 * @param name the type name, also the Java class name
 * @param optionSet whether the type is an option set
 * @param lengthInBits the encoded size
 * @param dataTypeId the numeric id of the DataType node, or null when NodeIds.csv has none
 * @param values the values in schema order
 */
public record EnumModel(String name, boolean optionSet, int lengthInBits, Integer dataTypeId, List<EnumValueDef> values) {

    public EnumModel {
        values = List.copyOf(values);
    }

    /** Whether a value has the given name (generated code must then qualify types of that simple name). */
    public boolean hasValueNamed(String simpleName) {
        return values.stream().anyMatch(v -> v.name().equals(simpleName));
    }
}
