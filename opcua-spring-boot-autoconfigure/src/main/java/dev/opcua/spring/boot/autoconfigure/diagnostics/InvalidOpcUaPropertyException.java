package dev.opcua.spring.boot.autoconfigure.diagnostics;

import java.util.Objects;

/**
 * An {@code opcua.*} property whose value cannot be used: thrown while a server or client bean is
 * built, and turned into a start-up report by {@link InvalidOpcUaPropertyFailureAnalyzer}.
 */
public abstract class InvalidOpcUaPropertyException extends RuntimeException {

    private final String key;
    private final transient Object value;
    private final String reason;
    private final String allowed;

    /**
     * @param key the property's full name, for example {@code opcua.server.security.policies[1]}; null when
     *        the error names no property (a rule on several properties, or the configuration as a whole)
     * @param value the value bound to it (may be null)
     * @param reason what is wrong with it
     * @param allowed what the key accepts
     * @param cause what the value failed with, or null
     */
    protected InvalidOpcUaPropertyException(String key, Object value, String reason, String allowed,
            Throwable cause) {
        super((key == null ? "" : key + "=" + value + ": ") + reason + "; allowed: " + allowed, cause);
        this.key = key;
        this.value = value;
        this.reason = Objects.requireNonNull(reason, "reason");
        this.allowed = Objects.requireNonNull(allowed, "allowed");
    }

    /** What could not be configured, as the report names it ("OPC UA server", "OPC UA client connection 'plant'"). */
    public abstract String getSubject();

    /** The property's full name; null when the error names no property. */
    public String getKey() {
        return key;
    }

    /** The value bound to the property. */
    public Object getValue() {
        return value;
    }

    /** What is wrong with the value. */
    public String getReason() {
        return reason;
    }

    /** What the property accepts. */
    public String getAllowed() {
        return allowed;
    }
}
