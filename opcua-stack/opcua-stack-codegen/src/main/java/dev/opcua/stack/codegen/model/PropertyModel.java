package dev.opcua.stack.codegen.model;

/**
 * One value field of a generated structure class.
 *
 * @param specName the field name in the schema, also the name passed to the encoder and decoder
 * @param javaName the Java field, parameter and accessor name
 * @param type the value type (of the elements, for an array)
 * @param array whether the field is an array
 * @param inherited whether the field is declared by a base class
 */
public record PropertyModel(String specName, String javaName, ValueType type, boolean array, boolean inherited) {

    /** The declared Java type: the value type, with {@code []} for an array. */
    public String javaType() {
        return array ? type.javaType() + "[]" : type.javaType();
    }
}
