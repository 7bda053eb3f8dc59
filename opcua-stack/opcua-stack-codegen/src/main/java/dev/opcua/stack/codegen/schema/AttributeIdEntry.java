package dev.opcua.stack.codegen.schema;

/**
 * One row of AttributeIds.csv.
 *
 * @param name the attribute name
 * @param id the attribute id
 */
public record AttributeIdEntry(String name, int id) {
}
