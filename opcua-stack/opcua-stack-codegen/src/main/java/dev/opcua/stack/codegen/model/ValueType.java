package dev.opcua.stack.codegen.model;

/**
 * How values of one schema type are held in Java and passed to the encoder and decoder.
 *
 * @param kind what sort of Java type holds the value
 * @param schemaName the schema type name, for messages
 * @param javaType the simple Java type name ({@code long}, {@code NodeId}, {@code ReadRequest}...)
 * @param importName the qualified name to import, or null when none is needed
 * @param codecName the name part of the encoder/decoder methods ({@code UInt32} for {@code writeUInt32},
 *     {@code Enum} for {@code writeEnum}, {@code Struct} for {@code writeStruct})
 */
public record ValueType(Kind kind, String schemaName, String javaType, String importName, String codecName) {

    /** The sort of Java type. */
    public enum Kind {
        /** A Java primitive ({@code boolean}, {@code long}...), option sets included. */
        PRIMITIVE,
        /** A built-in class of the stack ({@code String}, {@code NodeId}, {@code UUID}...). */
        BUILTIN,
        /** A generated enum. */
        ENUM,
        /** A generated structure class. */
        STRUCT
    }

    public boolean isPrimitive() {
        return kind == Kind.PRIMITIVE;
    }
}
