package dev.opcua.stack.client.redundancy;

import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.transport.EndpointUrl;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * A client's non-transparent redundant server set (Part 4, 6.6.2.4) and how it fails over; given to
 * {@code OpcUaClientConfig.Builder.redundancy}.
 *
 * <p><b>The set</b>: the client's own endpoint URL and {@link #endpoints()}, or, with
 * {@link #discover()}, what the first server names: its {@code Server.ServerRedundancy.ServerUriArray}
 * (Part 5, 6.3.9, i=11314) and, when present, the ServerIds of its RedundantServerArray (Part 5, 6.3.7,
 * i=11313), each ServerUri translated into a discovery URL with FindServers on that server, as Part 4,
 * 6.6.2.4.5 asks every server of the set to answer.
 *
 * <p><b>Failover triggers</b>: the active server lost (the connection not re-established within
 * {@link #failoverTimeout()}), or its ServiceLevel (Server_ServiceLevel, i=2267) under
 * {@link #serviceLevelThreshold()} (Part 4, 6.6.2.4.2, Table 109: 200..255 Healthy, below Degraded) or
 * at least {@link #serviceLevelMargin()} under a partner's, while a partner's is higher. The client then
 * goes to the reachable server with the highest ServiceLevel.
 */
public final class RedundancyConfig {

    private static final String KEY = "opcUaClientConfig.redundancy.";

    private final List<String> endpoints;
    private final boolean discover;
    private final RedundancyMode mode;
    private final int serviceLevelThreshold;
    private final int serviceLevelMargin;
    private final Duration failoverTimeout;
    private final Duration serviceLevelInterval;

    private RedundancyConfig(Builder b) {
        this.endpoints = List.copyOf(b.endpoints);
        this.discover = b.discover;
        this.mode = b.mode;
        this.serviceLevelThreshold = b.serviceLevelThreshold;
        this.serviceLevelMargin = b.serviceLevelMargin;
        this.failoverTimeout = b.failoverTimeout;
        this.serviceLevelInterval = b.serviceLevelInterval;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The servers of the set besides the client's endpoint URL (which is always one of them). */
    public List<String> endpoints() {
        return endpoints;
    }

    /** Whether the set is read from the first server (ServerUriArray, RedundantServerArray, FindServers). */
    public boolean discover() {
        return discover;
    }

    public RedundancyMode mode() {
        return mode;
    }

    /** Below this ServiceLevel the active server counts as degraded (default 200, Table 109's Healthy floor). */
    public int serviceLevelThreshold() {
        return serviceLevelThreshold;
    }

    /** How far a partner's ServiceLevel must be above the active server's for a failover while healthy (default 10). */
    public int serviceLevelMargin() {
        return serviceLevelMargin;
    }

    /** How long the client tries to reconnect to a lost active server before it fails over (default 5 s). */
    public Duration failoverTimeout() {
        return failoverTimeout;
    }

    /** How often the ServiceLevels are read and the triggers checked (default 1 s). */
    public Duration serviceLevelInterval() {
        return serviceLevelInterval;
    }

    /** The set: {@code first}, then the configured endpoints, each once, in that order. */
    public List<String> servers(String first) {
        LinkedHashSet<String> all = new LinkedHashSet<>();
        all.add(first);
        all.addAll(endpoints);
        return List.copyOf(all);
    }

    @Override
    public String toString() {
        return "RedundancyConfig[" + mode + ", " + (discover ? "discovered, " : "") + endpoints + ", threshold "
                + serviceLevelThreshold + ", margin " + serviceLevelMargin + ", failoverTimeout " + failoverTimeout
                + "]";
    }

    /** Builds a {@link RedundancyConfig}; {@link #build()} names a wrong value's option. */
    public static final class Builder {

        private final List<String> endpoints = new ArrayList<>();
        private boolean discover;
        private RedundancyMode mode = RedundancyMode.WARM;
        private int serviceLevelThreshold = 200;
        private int serviceLevelMargin = 10;
        private Duration failoverTimeout = Duration.ofSeconds(5);
        private Duration serviceLevelInterval = Duration.ofSeconds(1);

        private Builder() {
        }

        /** Servers of the set besides the client's endpoint URL. */
        public Builder endpoints(List<String> urls) {
            this.endpoints.clear();
            this.endpoints.addAll(urls);
            return this;
        }

        public Builder endpoints(String... urls) {
            return endpoints(List.of(urls));
        }

        public Builder discover(boolean discover) {
            this.discover = discover;
            return this;
        }

        public Builder mode(RedundancyMode mode) {
            this.mode = Objects.requireNonNull(mode, "mode");
            return this;
        }

        public Builder serviceLevelThreshold(int threshold) {
            this.serviceLevelThreshold = threshold;
            return this;
        }

        public Builder serviceLevelMargin(int margin) {
            this.serviceLevelMargin = margin;
            return this;
        }

        public Builder failoverTimeout(Duration timeout) {
            this.failoverTimeout = Objects.requireNonNull(timeout, "failoverTimeout");
            return this;
        }

        public Builder serviceLevelInterval(Duration interval) {
            this.serviceLevelInterval = Objects.requireNonNull(interval, "serviceLevelInterval");
            return this;
        }

        /**
         * @throws InvalidSettingException {@code opcUaClientConfig.redundancy.<option>} naming the wrong value
         */
        public RedundancyConfig build() {
            for (int i = 0; i < endpoints.size(); i++) {
                String url = endpoints.get(i);
                boolean valid;
                try {
                    EndpointUrl parsed = EndpointUrl.parse(url);
                    valid = parsed.isOpcTcp() && parsed.portOrDefault() != 0;
                } catch (RuntimeException e) {
                    valid = false;
                }
                if (!valid) {
                    throw new InvalidSettingException(KEY + "endpoints[" + i + "]", url,
                            "must be an opc.tcp URL with a port other than 0");
                }
            }
            if (serviceLevelThreshold < 0 || serviceLevelThreshold > 255) {
                throw new InvalidSettingException(KEY + "serviceLevelThreshold", serviceLevelThreshold,
                        "must be a ServiceLevel, 0..255");
            }
            if (serviceLevelMargin < 1 || serviceLevelMargin > 255) {
                throw new InvalidSettingException(KEY + "serviceLevelMargin", serviceLevelMargin, "must be 1..255");
            }
            if (failoverTimeout.isNegative()) {
                throw new InvalidSettingException(KEY + "failoverTimeout", failoverTimeout, "must be 0 or more");
            }
            if (serviceLevelInterval.isNegative() || serviceLevelInterval.isZero()) {
                throw new InvalidSettingException(KEY + "serviceLevelInterval", serviceLevelInterval,
                        "must be positive");
            }
            return new RedundancyConfig(this);
        }
    }
}
