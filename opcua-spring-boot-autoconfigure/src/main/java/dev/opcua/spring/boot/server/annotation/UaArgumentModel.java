package dev.opcua.spring.boot.server.annotation;

import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.structured.Argument;

/**
 * An input or output argument of a {@link UaMethodModel} (Argument, Part 3, 8.6).
 *
 * @param name Name of the argument
 * @param description Description, null for none
 * @param converter maps the Java value to the DataType and back
 */
record UaArgumentModel(String name, String description, UaValueConverter converter) {

    /** The Argument structure of the InputArguments / OutputArguments property. */
    Argument toArgument() {
        return new Argument(name, converter.dataType(), converter.valueRank(),
                converter.valueRank() == 1 ? new long[] {0} : null,
                description == null ? null : LocalizedText.of(description));
    }
}
