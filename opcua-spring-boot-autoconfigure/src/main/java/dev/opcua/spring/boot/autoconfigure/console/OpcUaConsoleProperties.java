package dev.opcua.spring.boot.autoconfigure.console;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The live console at {@code /opcua-console} ({@code opcua.console.*}).
 */
@ConfigurationProperties("opcua.console")
public class OpcUaConsoleProperties {

    /**
     * Whether to serve the live console at /opcua-console (server, sessions, request rates, subscriptions,
     * client connections, address-space browser). It shows what /actuator/opcua shows and reads any
     * node: protect it as Actuator is protected.
     */
    private boolean enabled;

    /** How long a browse or read of the address space may take before the console answers 504. */
    private Duration timeout = Duration.ofSeconds(5);

    /**
     * Spring Security role whose users may write variables from the address-space browser (with or without the
     * ROLE_ prefix); every write is logged and published as an audit event. Unset, nobody may write.
     */
    private String writeRole;

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Duration getTimeout() {
        return timeout;
    }

    public void setTimeout(Duration timeout) {
        this.timeout = timeout;
    }

    public String getWriteRole() {
        return writeRole;
    }

    public void setWriteRole(String writeRole) {
        this.writeRole = writeRole;
    }
}
