package dev.opcua.spring.boot.test.autoconfigure;

import dev.opcua.stack.core.security.SecurityPolicy;
import dev.opcua.stack.core.types.enumerated.MessageSecurityMode;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The test client of {@code @AutoConfigureOpcUaTestClient}: who it is and how it secures its channel. The
 * annotation's attributes set these properties; application properties of a test set them too.
 */
@ConfigurationProperties("opcua.test.client")
public class OpcUaTestClientProperties {

    /** Whether to connect a test client to the application's OPC UA server. */
    private boolean enabled = true;

    /** User name of the session; empty for an anonymous session. */
    private String username;

    /** Password of the user. */
    private String password;

    /** Message security mode of the channel: None, Sign or SignAndEncrypt (with a test PKI trusted both ways). */
    private MessageSecurityMode securityMode = MessageSecurityMode.None;

    /**
     * Security policy of the channel; by default None with mode None, Basic256Sha256 with Sign or SignAndEncrypt.
     */
    private SecurityPolicy securityPolicy;

    /** How long a request of the test client may take. */
    private Duration requestTimeout = Duration.ofSeconds(10);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getUsername() {
        return username;
    }

    public void setUsername(String username) {
        this.username = username;
    }

    public String getPassword() {
        return password;
    }

    public void setPassword(String password) {
        this.password = password;
    }

    public MessageSecurityMode getSecurityMode() {
        return securityMode;
    }

    public void setSecurityMode(MessageSecurityMode securityMode) {
        this.securityMode = securityMode;
    }

    public SecurityPolicy getSecurityPolicy() {
        return securityPolicy;
    }

    public void setSecurityPolicy(SecurityPolicy securityPolicy) {
        this.securityPolicy = securityPolicy;
    }

    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
    }

    /** The policy to use: the one set, or the default of the mode. */
    SecurityPolicy effectiveSecurityPolicy() {
        if (securityPolicy != null) {
            return securityPolicy;
        }
        return securityMode == MessageSecurityMode.None ? SecurityPolicy.None : SecurityPolicy.Basic256Sha256;
    }

    /** Whether the channel is secured, so that the client and the server need certificates. */
    boolean isSecured() {
        return securityMode != MessageSecurityMode.None;
    }
}
