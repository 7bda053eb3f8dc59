package dev.opcua.stack.codegen.schema;

import java.util.List;

/**
 * One {@code opc:EnumeratedType} of the type dictionary.
 *
 * @param name the type name
 * @param lengthInBits the {@code LengthInBits} attribute
 * @param optionSet whether {@code IsOptionSet="true"}
 * @param values the values in schema order
 */
public record EnumeratedTypeDef(String name, int lengthInBits, boolean optionSet, List<EnumValueDef> values) {

    public EnumeratedTypeDef {
        values = List.copyOf(values);
    }
}
