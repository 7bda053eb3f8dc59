package dev.opcua.stack.codegen.schema;

/**
 * One {@code opc:EnumeratedValue}.
 *
 * @param name the value name
 * @param value the numeric value (a bit mask for option sets)
 */
public record EnumValueDef(String name, long value) {
}
