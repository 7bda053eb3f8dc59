package dev.opcua.stack.client.session;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What a client asks for when it opens a session (Part 4, 5.6.2 CreateSession and 5.6.3
 * ActivateSession): the client application's description, the session's name and timeout, the user
 * identity and the locales for localized text. Immutable; built with {@link #builder()}.
 */
public final class SessionOptions {

    private final String applicationUri;
    private final String productUri;
    private final String applicationName;
    private final String sessionName;
    private final Duration sessionTimeout;
    private final Duration requestTimeout;
    private final ClientIdentity identity;
    private final List<String> localeIds;

    private SessionOptions(Builder b) {
        this.applicationUri = b.applicationUri;
        this.productUri = b.productUri;
        this.applicationName = b.applicationName != null ? b.applicationName : b.applicationUri;
        this.sessionName = b.sessionName != null ? b.sessionName : this.applicationName;
        this.sessionTimeout = b.sessionTimeout;
        this.requestTimeout = b.requestTimeout;
        this.identity = b.identity;
        this.localeIds = b.localeIds;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The client's ApplicationUri (Part 4, 7.2); with a secured channel it must equal the URI in the
     * client certificate's subjectAltName, which servers check.
     */
    public String applicationUri() {
        return applicationUri;
    }

    /** The client's ProductUri; may be null. */
    public String productUri() {
        return productUri;
    }

    public String applicationName() {
        return applicationName;
    }

    /** The name the server shows for the session in its diagnostics. */
    public String sessionName() {
        return sessionName;
    }

    /** The requestedSessionTimeout; the server revises it. */
    public Duration sessionTimeout() {
        return sessionTimeout;
    }

    /** The timeoutHint of every request the session sends, and how long the client waits for it. */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    public ClientIdentity identity() {
        return identity;
    }

    /** Locales in order of preference (ActivateSession localeIds); empty to take the server's. */
    public List<String> localeIds() {
        return localeIds;
    }

    /** A builder starting from these options, e.g. to change the identity. */
    public Builder toBuilder() {
        return new Builder().applicationUri(applicationUri).productUri(productUri).applicationName(applicationName)
                .sessionName(sessionName).sessionTimeout(sessionTimeout).requestTimeout(requestTimeout)
                .identity(identity).localeIds(localeIds);
    }

    @Override
    public String toString() {
        return "SessionOptions[" + applicationUri + ", session '" + sessionName + "', timeout " + sessionTimeout
                + ", " + identity + "]";
    }

    /** Builds {@link SessionOptions}; only the application URI has no default. */
    public static final class Builder {

        private String applicationUri;
        private String productUri;
        private String applicationName;
        private String sessionName;
        private Duration sessionTimeout = Duration.ofMinutes(2);
        private Duration requestTimeout = Duration.ofSeconds(10);
        private ClientIdentity identity = ClientIdentity.anonymous();
        private List<String> localeIds = List.of();

        private Builder() {
        }

        public Builder applicationUri(String applicationUri) {
            this.applicationUri = applicationUri;
            return this;
        }

        public Builder productUri(String productUri) {
            this.productUri = productUri;
            return this;
        }

        /** Defaults to the application URI. */
        public Builder applicationName(String applicationName) {
            this.applicationName = applicationName;
            return this;
        }

        /** Defaults to the application name. */
        public Builder sessionName(String sessionName) {
            this.sessionName = sessionName;
            return this;
        }

        /** Default 2 minutes. */
        public Builder sessionTimeout(Duration sessionTimeout) {
            this.sessionTimeout = Objects.requireNonNull(sessionTimeout, "sessionTimeout");
            return this;
        }

        /** Default 10 seconds. */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
            return this;
        }

        /** Default anonymous. */
        public Builder identity(ClientIdentity identity) {
            this.identity = Objects.requireNonNull(identity, "identity");
            return this;
        }

        public Builder localeIds(List<String> localeIds) {
            this.localeIds = List.copyOf(localeIds);
            return this;
        }

        /** @throws IllegalArgumentException without an application URI, or with a timeout that is not positive */
        public SessionOptions build() {
            if (applicationUri == null || applicationUri.isBlank()) {
                throw new IllegalArgumentException("a session needs the client's applicationUri");
            }
            if (sessionTimeout.isNegative() || sessionTimeout.isZero()) {
                throw new IllegalArgumentException("sessionTimeout must be positive, not " + sessionTimeout);
            }
            if (requestTimeout.isNegative() || requestTimeout.isZero()) {
                throw new IllegalArgumentException("requestTimeout must be positive, not " + requestTimeout);
            }
            return new SessionOptions(this);
        }
    }
}
