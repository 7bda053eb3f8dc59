package dev.opcua.stack.codegen.schema;

/** The schema data is missing, unreadable, or contains something the generator does not support. */
public class SchemaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public SchemaException(String message) {
        super(message);
    }

    public SchemaException(String message, Throwable cause) {
        super(message, cause);
    }
}
