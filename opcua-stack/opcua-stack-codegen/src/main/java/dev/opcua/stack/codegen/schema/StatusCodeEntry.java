package dev.opcua.stack.codegen.schema;

/**
 * One row of StatusCode.csv (its description column is not used).
 *
 * @param name the status code name
 * @param code the 32-bit code
 */
public record StatusCodeEntry(String name, int code) {
}
