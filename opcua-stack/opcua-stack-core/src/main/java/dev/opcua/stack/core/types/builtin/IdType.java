package dev.opcua.stack.core.types.builtin;

/** The four kinds of NodeId identifier (Part 3, 8.2.3) and their text prefixes (Part 6, 5.3.1.10). */
public enum IdType {
    Numeric("i="),
    String("s="),
    Guid("g="),
    Opaque("b=");

    private final java.lang.String prefix;

    IdType(java.lang.String prefix) {
        this.prefix = prefix;
    }

    /** Prefix of the identifier in the text form, e.g. {@code "s="}. */
    public java.lang.String prefix() {
        return prefix;
    }
}
