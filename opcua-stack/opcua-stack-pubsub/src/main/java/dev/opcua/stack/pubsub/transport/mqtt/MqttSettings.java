package dev.opcua.stack.pubsub.transport.mqtt;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * How an {@link MqttTransport} connects: broker, identity, credentials, protocol version, timers, queue bound, will
 * and TLS. Immutable; made with {@link #builder(String)}. The password is never part of {@link #toString()}.
 *
 * <p>Defaults and why:
 * <ul>
 * <li>protocol version {@link MqttProtocolVersion#V3_1_1}: every broker (and every managed cloud broker) speaks it,
 * while 5.0 is still missing from some embedded and older brokers; Part 14 needs nothing from 5.0 to carry
 * network messages. Choose {@code V5} for message expiry on retained discovery messages (Part 14, 7.3.5.8).</li>
 * <li>client id {@code opcua-<random UUID>}: unique, so two transports never take each other's session. (MQTT
 * 3.1.1 only obliges brokers to accept 1 to 23 letters and digits; set a short one for such a broker.)</li>
 * <li>keep alive 30 s, connect timeout 10 s, reconnect backoff 1 s doubling to 30 s.</li>
 * <li>at most 10,000 messages queued while disconnected.</li>
 * <li>clean session: the transport re-makes its subscriptions after every connection itself, and a PubSub
 * subscriber wants current data, not what piled up while it was away.</li>
 * </ul>
 */
public final class MqttSettings {

    private final BrokerAddress address;
    private final String clientId;
    private final String username;
    private final byte[] password;
    private final MqttProtocolVersion protocolVersion;
    private final Duration keepAlive;
    private final Duration connectTimeout;
    private final Duration reconnectInitialDelay;
    private final Duration reconnectMaxDelay;
    private final int maxQueuedMessages;
    private final MqttWill will;
    private final TrustManagerFactory trustManagerFactory;
    private final KeyManagerFactory keyManagerFactory;
    private final boolean hostnameVerification;
    private final boolean cleanSession;
    private final Duration sessionExpiry;

    private MqttSettings(Builder b) {
        this.address = BrokerAddress.parse(b.brokerUrl);
        this.clientId = b.clientId != null ? b.clientId : "opcua-" + UUID.randomUUID();
        this.username = b.username;
        this.password = b.password;
        this.protocolVersion = b.protocolVersion;
        this.keepAlive = b.keepAlive;
        this.connectTimeout = b.connectTimeout;
        this.reconnectInitialDelay = b.reconnectInitialDelay;
        this.reconnectMaxDelay = b.reconnectMaxDelay;
        this.maxQueuedMessages = b.maxQueuedMessages;
        this.will = b.will;
        this.trustManagerFactory = b.trustManagerFactory;
        this.keyManagerFactory = b.keyManagerFactory;
        this.hostnameVerification = b.hostnameVerification;
        this.cleanSession = b.cleanSession;
        this.sessionExpiry = b.sessionExpiry;
        if (password != null && username == null) {
            throw new IllegalArgumentException("an MQTT password needs a user name (MQTT 3.1.1, 3.1.2.9)");
        }
        if (!address.tls() && (trustManagerFactory != null || keyManagerFactory != null)) {
            throw new IllegalArgumentException("TLS trust or key material is set, but the broker URL '"
                    + address.url() + "' is not TLS (use mqtts:// or ssl://)");
        }
        if (reconnectMaxDelay.compareTo(reconnectInitialDelay) < 0) {
            throw new IllegalArgumentException("reconnectMaxDelay " + reconnectMaxDelay
                    + " is shorter than reconnectInitialDelay " + reconnectInitialDelay);
        }
        if (clientId.isEmpty()) {
            throw new IllegalArgumentException("the MQTT client id must not be empty");
        }
    }

    /** Starts settings for a broker URL ({@code mqtt://}, {@code tcp://}, {@code mqtts://} or {@code ssl://}). */
    public static Builder builder(String brokerUrl) {
        return new Builder().brokerUrl(brokerUrl);
    }

    /** A builder holding these settings, to derive others. */
    public Builder toBuilder() {
        Builder b = new Builder().brokerUrl(address.url()).clientId(clientId).protocolVersion(protocolVersion)
                .keepAlive(keepAlive).connectTimeout(connectTimeout)
                .reconnectDelay(reconnectInitialDelay, reconnectMaxDelay).maxQueuedMessages(maxQueuedMessages)
                .will(will).cleanSession(cleanSession).sessionExpiry(sessionExpiry)
                .hostnameVerification(hostnameVerification);
        b.username = username;
        b.password = password;
        b.trustManagerFactory = trustManagerFactory;
        b.keyManagerFactory = keyManagerFactory;
        return b;
    }

    public String brokerUrl() {
        return address.url();
    }

    BrokerAddress address() {
        return address;
    }

    public String clientId() {
        return clientId;
    }

    public Optional<String> username() {
        return Optional.ofNullable(username);
    }

    /** The password as UTF-8 bytes (a copy), as MQTT sends it. */
    public Optional<byte[]> password() {
        return Optional.ofNullable(password).map(byte[]::clone);
    }

    public MqttProtocolVersion protocolVersion() {
        return protocolVersion;
    }

    public Duration keepAlive() {
        return keepAlive;
    }

    public Duration connectTimeout() {
        return connectTimeout;
    }

    public Duration reconnectInitialDelay() {
        return reconnectInitialDelay;
    }

    public Duration reconnectMaxDelay() {
        return reconnectMaxDelay;
    }

    public int maxQueuedMessages() {
        return maxQueuedMessages;
    }

    public Optional<MqttWill> will() {
        return Optional.ofNullable(will);
    }

    public Optional<TrustManagerFactory> trustManagerFactory() {
        return Optional.ofNullable(trustManagerFactory);
    }

    public Optional<KeyManagerFactory> keyManagerFactory() {
        return Optional.ofNullable(keyManagerFactory);
    }

    public boolean hostnameVerification() {
        return hostnameVerification;
    }

    public boolean cleanSession() {
        return cleanSession;
    }

    public Duration sessionExpiry() {
        return sessionExpiry;
    }

    @Override
    public String toString() {
        return "MqttSettings[brokerUrl=" + address.url() + ", clientId=" + clientId + ", username=" + username
                + ", password=" + (password == null ? "none" : "(set)") + ", protocolVersion=" + protocolVersion
                + ", keepAlive=" + keepAlive + ", connectTimeout=" + connectTimeout + ", reconnectDelay="
                + reconnectInitialDelay + ".." + reconnectMaxDelay + ", maxQueuedMessages=" + maxQueuedMessages
                + ", will=" + will + ", tls=" + address.tls() + ", clientCertificate=" + (keyManagerFactory != null)
                + ", hostnameVerification=" + hostnameVerification + ", cleanSession=" + cleanSession
                + ", sessionExpiry=" + sessionExpiry + "]";
    }

    /** Collects the settings; {@link #build()} checks them together. */
    public static final class Builder {

        private String brokerUrl;
        private String clientId;
        private String username;
        private byte[] password;
        private MqttProtocolVersion protocolVersion = MqttProtocolVersion.V3_1_1;
        private Duration keepAlive = Duration.ofSeconds(30);
        private Duration connectTimeout = Duration.ofSeconds(10);
        private Duration reconnectInitialDelay = Duration.ofSeconds(1);
        private Duration reconnectMaxDelay = Duration.ofSeconds(30);
        private int maxQueuedMessages = 10_000;
        private MqttWill will;
        private TrustManagerFactory trustManagerFactory;
        private KeyManagerFactory keyManagerFactory;
        private boolean hostnameVerification = true;
        private boolean cleanSession = true;
        private Duration sessionExpiry = Duration.ZERO;

        private Builder() {
        }

        public Builder brokerUrl(String brokerUrl) {
            BrokerAddress.parse(brokerUrl);
            this.brokerUrl = brokerUrl;
            return this;
        }

        /** The MQTT client identifier; default {@code opcua-} and a random UUID. */
        public Builder clientId(String clientId) {
            this.clientId = Objects.requireNonNull(clientId, "clientId");
            return this;
        }

        /** User name and password for the broker (MQTT CONNECT); the password is kept as UTF-8 bytes. */
        public Builder credentials(String username, char[] password) {
            return credentials(username, password == null ? null : utf8(password));
        }

        /** User name and password bytes (MQTT 5 allows binary passwords); {@code password} may be null. */
        public Builder credentials(String username, byte[] password) {
            this.username = Objects.requireNonNull(username, "username");
            this.password = password == null ? null : password.clone();
            return this;
        }

        public Builder protocolVersion(MqttProtocolVersion protocolVersion) {
            this.protocolVersion = Objects.requireNonNull(protocolVersion, "protocolVersion");
            return this;
        }

        /** The MQTT keep alive: whole seconds, 0 (off) to 65535. */
        public Builder keepAlive(Duration keepAlive) {
            long s = requireNonNegative("keepAlive", keepAlive).toSeconds();
            if (s > 65535 || keepAlive.toNanosPart() != 0) {
                throw new IllegalArgumentException("keepAlive is whole seconds 0..65535, was " + keepAlive);
            }
            this.keepAlive = keepAlive;
            return this;
        }

        /** How long the TCP connect, and then the CONNACK, may each take. */
        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = requirePositive("connectTimeout", connectTimeout);
            return this;
        }

        /** Reconnect backoff: the first wait after a lost connection, doubled per failed attempt up to the max. */
        public Builder reconnectDelay(Duration initial, Duration max) {
            this.reconnectInitialDelay = requirePositive("reconnectInitialDelay", initial);
            this.reconnectMaxDelay = requirePositive("reconnectMaxDelay", max);
            return this;
        }

        /** How many messages wait while disconnected; 0 drops every message published while disconnected. */
        public Builder maxQueuedMessages(int maxQueuedMessages) {
            if (maxQueuedMessages < 0) {
                throw new IllegalArgumentException("maxQueuedMessages must be >= 0, was " + maxQueuedMessages);
            }
            this.maxQueuedMessages = maxQueuedMessages;
            return this;
        }

        /** The will the broker publishes if the connection dies without a DISCONNECT; null for none. */
        public Builder will(MqttWill will) {
            this.will = will;
            return this;
        }

        /**
         * TLS material (what a Spring SSL bundle's {@code getManagers()} gives): the trust managers that check the
         * broker's certificate (null: the JDK's default trust store) and optionally key managers with a client
         * certificate. Requires an {@code mqtts://} or {@code ssl://} URL.
         */
        public Builder tls(TrustManagerFactory trustManagerFactory, KeyManagerFactory keyManagerFactory) {
            this.trustManagerFactory = trustManagerFactory;
            this.keyManagerFactory = keyManagerFactory;
            return this;
        }

        /** Whether the broker's certificate must name the host of the URL (default true; off only for tests). */
        public Builder hostnameVerification(boolean hostnameVerification) {
            this.hostnameVerification = hostnameVerification;
            return this;
        }

        /** MQTT clean session (3.1.1) / clean start (5); default true. */
        public Builder cleanSession(boolean cleanSession) {
            this.cleanSession = cleanSession;
            return this;
        }

        /** MQTT 5 session expiry interval (whole seconds; 0 ends the session with the connection); default 0. */
        public Builder sessionExpiry(Duration sessionExpiry) {
            long s = requireNonNegative("sessionExpiry", sessionExpiry).toSeconds();
            if (s > 0xFFFF_FFFFL) {
                throw new IllegalArgumentException("sessionExpiry is at most 4294967295 s, was " + sessionExpiry);
            }
            this.sessionExpiry = sessionExpiry;
            return this;
        }

        public MqttSettings build() {
            return new MqttSettings(this);
        }

        private static byte[] utf8(char[] chars) {
            var buffer = StandardCharsets.UTF_8.encode(java.nio.CharBuffer.wrap(chars));
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            Arrays.fill(buffer.array(), (byte) 0);
            return bytes;
        }

        private static Duration requirePositive(String name, Duration d) {
            Objects.requireNonNull(d, name);
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException(name + " must be positive, was " + d);
            }
            return d;
        }

        private static Duration requireNonNegative(String name, Duration d) {
            Objects.requireNonNull(d, name);
            if (d.isNegative()) {
                throw new IllegalArgumentException(name + " must not be negative, was " + d);
            }
            return d;
        }
    }
}
