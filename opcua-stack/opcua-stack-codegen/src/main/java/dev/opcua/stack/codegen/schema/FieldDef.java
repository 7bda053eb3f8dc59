package dev.opcua.stack.codegen.schema;

import javax.xml.namespace.QName;

/**
 * One {@code opc:Field} of a structured type, as written in the type dictionary.
 *
 * @param name the field name
 * @param typeName the field type, with its prefix resolved to a namespace URI
 * @param lengthField name of the field that holds the array length, or null for a scalar field
 * @param sourceType the {@code SourceType} attribute (the type that declares an inherited field), or null
 * @param switchField the {@code SwitchField} attribute (optional fields), or null
 * @param fixedLength the {@code Length} attribute (fixed-size arrays), or null
 */
public record FieldDef(
        String name,
        QName typeName,
        String lengthField,
        String sourceType,
        String switchField,
        String fixedLength) {

    /** Whether the field is an array (it names a length field). */
    public boolean isArray() {
        return lengthField != null;
    }
}
