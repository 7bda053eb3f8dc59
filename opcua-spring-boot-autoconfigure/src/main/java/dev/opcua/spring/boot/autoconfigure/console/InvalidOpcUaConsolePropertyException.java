package dev.opcua.spring.boot.autoconfigure.console;

import dev.opcua.spring.boot.autoconfigure.diagnostics.InvalidOpcUaPropertyException;

/** An {@code opcua.console.*} property whose value the console cannot use. */
public class InvalidOpcUaConsolePropertyException extends InvalidOpcUaPropertyException {

    public InvalidOpcUaConsolePropertyException(String key, Object value, String reason, String allowed) {
        super(key, value, reason, allowed, null);
    }

    @Override
    public String getSubject() {
        return "OPC UA console";
    }
}
