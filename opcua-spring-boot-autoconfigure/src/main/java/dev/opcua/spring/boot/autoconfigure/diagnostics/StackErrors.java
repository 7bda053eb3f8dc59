package dev.opcua.spring.boot.autoconfigure.diagnostics;

import dev.opcua.stack.core.config.InvalidSettingException;
import java.time.Duration;
import java.time.Period;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;
import org.springframework.beans.BeansException;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.util.unit.DataSize;

/**
 * Reports what the stack refuses while it takes a mapper's values. An {@link InvalidSettingException}
 * names the stack's setting; one table per mapper gives the property of each setting, and the error is
 * reported against that key with the stack's rule as the reason. Any other error of the stack names no
 * setting, so it is reported against no key rather than a guessed one.
 */
public final class StackErrors {

    private static final String ALLOWED = "a value that satisfies the rule in the reason (see docs/CONFIGURATION.md)";
    private static final String WHOLE_ALLOWED =
            "a configuration that satisfies the rule in the reason (see docs/CONFIGURATION.md)";

    private final PropertyChecks checks;
    private final Map<String, String> keysBySetting;
    private final Object properties;

    /**
     * @param checks the checks of the mapper, which make its exceptions under its prefix
     * @param keysBySetting the property (its name under the prefix, such as {@code transport.max-message-size})
     *        of each stack setting (such as {@code transportQuotas.maxMessageSize})
     * @param properties the bound properties under the prefix, to report a value as the user wrote it; may be null
     */
    public StackErrors(PropertyChecks checks, Map<String, String> keysBySetting, Object properties) {
        this.checks = Objects.requireNonNull(checks, "checks");
        this.keysBySetting = Map.copyOf(keysBySetting);
        this.properties = properties;
    }

    /** The property of a stack setting, under the prefix; null when the table has none. */
    public String keyOf(String setting) {
        return keysBySetting.get(setting);
    }

    /** Every stack setting the table maps, and its property. */
    public Map<String, String> keys() {
        return keysBySetting;
    }

    /** Runs a call into the stack, reporting what it refuses as an {@link InvalidOpcUaPropertyException}. */
    public <T> T call(Supplier<T> stackCall) {
        try {
            return stackCall.get();
        } catch (IllegalArgumentException | IllegalStateException | NullPointerException e) {
            throw translate(e);
        }
    }

    /** The report of an error of the stack: against the property of its setting, or against no key. */
    public InvalidOpcUaPropertyException translate(RuntimeException error) {
        if (error instanceof InvalidSettingException invalid) {
            String key = keyOf(invalid.setting());
            if (key != null) {
                return checks.invalid(key, boundValue(key, invalid.value()), "it " + invalid.rule(), ALLOWED, invalid);
            }
        }
        return checks.refused(error, WHOLE_ALLOWED);
    }

    /** The value bound to the property when it is a plain value, as the user wrote it; else the stack's. */
    private Object boundValue(String key, Object stackValue) {
        if (properties == null) {
            return stackValue;
        }
        try {
            Object bound = PropertyAccessorFactory.forBeanPropertyAccess(properties)
                    .getPropertyValue(propertyPath(key));
            boolean plain = bound instanceof Number || bound instanceof CharSequence || bound instanceof Duration
                    || bound instanceof Period || bound instanceof DataSize || bound instanceof Boolean;
            return plain ? bound : stackValue;
        } catch (BeansException e) {
            return stackValue;
        }
    }

    /** {@code limits.max-session-timeout} as the bean property path {@code limits.maxSessionTimeout}. */
    public static String propertyPath(String key) {
        StringBuilder path = new StringBuilder(key.length());
        boolean upper = false;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c == '-') {
                upper = true;
            } else {
                path.append(upper ? Character.toUpperCase(c) : c);
                upper = false;
            }
        }
        return path.toString();
    }
}
