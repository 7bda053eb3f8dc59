package dev.opcua.stack.codegen.schema;

/**
 * One row of NodeIds.csv.
 *
 * @param symbolicName the symbolic name
 * @param id the numeric identifier in namespace 0
 * @param nodeClass the node class name
 */
public record NodeIdEntry(String symbolicName, int id, String nodeClass) {
}
