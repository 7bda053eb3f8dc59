package dev.opcua.stack.core.config;

import java.util.Objects;

/**
 * A setting of the stack that its builder or settings record refuses. It carries which setting, the
 * value given and the rule that value breaks, so that a caller configuring the stack from its own
 * names (the Spring Boot properties, a command line) can report the error against its own key
 * without reading the message.
 *
 * <p>A setting is named {@code <owner>.<name>}: the owner is the settings type in lower camel case
 * ({@code transportQuotas}, {@code sessionSettings}, {@code opcUaServer} for the server builder,
 * {@code opcUaClientConfig} for the client's, {@code clientSubscriptionSettings} for the client's
 * SubscriptionSettings), the name is the record component or builder option
 * ({@code transportQuotas.maxMessageSize}). These names are part of the API: they stay when a class is
 * renamed or split, so that a table from them to a caller's own keys keeps working.
 *
 * <p>An {@link IllegalArgumentException}, so that callers that caught one before still do; a missing
 * value (null) stays a {@link NullPointerException}.
 */
public class InvalidSettingException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String setting;
    private final transient Object value;
    private final String rule;

    /**
     * @param setting the setting, for example {@code transportQuotas.maxBufferSize}
     * @param value the value refused (may be null)
     * @param rule what the value must satisfy, worded to follow the setting's name: "must be at least 8192
     *        bytes (Part 6, 7.1.2.3)"
     */
    public InvalidSettingException(String setting, Object value, String rule) {
        this(setting, value, rule, null);
    }

    /** As {@link #InvalidSettingException(String, Object, String)}, caused by {@code cause}. */
    public InvalidSettingException(String setting, Object value, String rule, Throwable cause) {
        super(setting + " " + rule + ", was " + value, cause);
        this.setting = Objects.requireNonNull(setting, "setting");
        this.value = value;
        this.rule = Objects.requireNonNull(rule, "rule");
    }

    /** The setting refused, {@code <owner>.<name>}. */
    public String setting() {
        return setting;
    }

    /** The value refused; null when it was not set. */
    public Object value() {
        return value;
    }

    /** What the value must satisfy, such as "must be at least 8192 bytes (Part 6, 7.1.2.3)". */
    public String rule() {
        return rule;
    }
}
