package dev.opcua.spring.boot.autoconfigure.transport;

import dev.opcua.spring.boot.autoconfigure.diagnostics.InvalidOpcUaPropertyException;

/** An {@code opcua.netty.*} property whose value cannot be used. */
public class InvalidOpcUaTransportPropertyException extends InvalidOpcUaPropertyException {

    public InvalidOpcUaTransportPropertyException(String key, Object value, String reason, String allowed) {
        super(key, value, reason, allowed, null);
    }

    @Override
    public String getSubject() {
        return "OPC UA transport (Netty)";
    }
}
