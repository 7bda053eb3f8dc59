package dev.opcua.stack.pubsub.transport.udp;

import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link UdpTransport} sends and receives: the PubSubConnection's Address (Part 14, 6.2.7.3) as an {@code
 * opc.udp} URL with its network interface, the multicast TTL and loopback, the largest datagram and the socket
 * receive buffer. Immutable; made with {@link #builder(String)}.
 *
 * <p>The {@linkplain #address() address} is what the connection receives on:
 * <ul>
 * <li>a multicast address (7.3.2.2): the group is joined on the network interface and datagrams to the group's port
 * are received; the same URL is the destination of the writer groups' messages.</li>
 * <li>{@code opc.udp://localhost:<port>} (7.3.2.3, unicast): datagrams to the port on every interface are received
 * (only on the configured network interface's address when one is set).</li>
 * <li>an address of this host: datagrams to that address and port.</li>
 * <li>anything else (a broadcast address, another host): datagrams to the port on every interface.</li>
 * </ul>
 *
 * <p>Defaults and why:
 * <ul>
 * <li>network interface: none configured. Multicast then uses the first interface that is up, not loopback, supports
 * multicast and has an address of the group's family, and logs which; Part 14 (7.3.2.2) wants it set when the host
 * has more than one interface.</li>
 * <li>multicast TTL 1: the datagrams stay in the local network unless a router is meant to forward them.</li>
 * <li>multicast loopback on: subscribers on the publisher's own host receive its messages too.</li>
 * <li>max datagram size 65,507 bytes, the largest UDP payload over IPv4 (the limit of 7.3.2.1, 65,535 bytes with
 * the headers). Part 14 recommends keeping network messages within one MTU, {@value #MTU_PAYLOAD_IPV4} bytes over
 * IPv4 Ethernet ({@value #MTU_PAYLOAD_IPV6} over IPv6), since each additional IP fragment raises the chance of
 * losing the whole message: set that here to have larger messages dropped and counted instead of fragmented.</li>
 * <li>receive buffer: the operating system's default (SO_RCVBUF unset). Raise it for bursts of many datagrams;
 * Linux caps it at {@code net.core.rmem_max}.</li>
 * </ul>
 */
public final class UdpSettings {

    /** The largest UDP payload over IPv4: 65,535 minus the IPv4 (20) and UDP (8) headers. */
    public static final int MAX_UDP_PAYLOAD = 65_507;
    /** The largest network message in one IPv4 Ethernet frame (Part 14, 7.3.2.1). */
    public static final int MTU_PAYLOAD_IPV4 = 1472;
    /** The largest network message in one IPv6 Ethernet frame (Part 14, 7.3.2.1). */
    public static final int MTU_PAYLOAD_IPV6 = 1452;

    private final UdpAddress address;
    private final String networkInterface;
    private final int multicastTtl;
    private final boolean multicastLoopback;
    private final int maxDatagramSize;
    private final int receiveBufferSize;

    private UdpSettings(Builder b) {
        this.address = UdpAddress.parse(b.addressUrl);
        this.networkInterface = b.networkInterface;
        this.multicastTtl = b.multicastTtl;
        this.multicastLoopback = b.multicastLoopback;
        this.maxDatagramSize = b.maxDatagramSize;
        this.receiveBufferSize = b.receiveBufferSize;
    }

    /** Settings for the PubSubConnection Address {@code opc.udp://<host>[:<port>]}. */
    public static Builder builder(String addressUrl) {
        return new Builder(addressUrl);
    }

    /** The connection's Address. */
    public UdpAddress address() {
        return address;
    }

    /** The connection's Address as a URL, {@code opc.udp://host:port}. */
    public String addressUrl() {
        return address.url();
    }

    /** The network interface's name (e.g. {@code eth0}) or one of its IP addresses, if configured. */
    public Optional<String> networkInterface() {
        return Optional.ofNullable(networkInterface);
    }

    public int multicastTtl() {
        return multicastTtl;
    }

    public boolean multicastLoopback() {
        return multicastLoopback;
    }

    public int maxDatagramSize() {
        return maxDatagramSize;
    }

    /** SO_RCVBUF in bytes, 0 for the operating system's default. */
    public int receiveBufferSize() {
        return receiveBufferSize;
    }

    @Override
    public String toString() {
        return "UdpSettings[" + address.url() + (networkInterface != null ? " on " + networkInterface : "")
                + ", ttl " + multicastTtl + ", loopback " + multicastLoopback + ", max datagram " + maxDatagramSize
                + (receiveBufferSize > 0 ? ", SO_RCVBUF " + receiveBufferSize : "") + "]";
    }

    /** Collects {@link UdpSettings}; every setter checks its argument at once. */
    public static final class Builder {
        private final String addressUrl;
        private String networkInterface;
        private int multicastTtl = 1;
        private boolean multicastLoopback = true;
        private int maxDatagramSize = MAX_UDP_PAYLOAD;
        private int receiveBufferSize;

        private Builder(String addressUrl) {
            UdpAddress.parse(Objects.requireNonNull(addressUrl, "addressUrl"));
            this.addressUrl = addressUrl;
        }

        /**
         * The NetworkInterface of the Address (Part 14, 6.2.7.3): an interface name such as {@code eth0} or {@code
         * lo}, or an IP address of the interface; null for the default. Checked when the transport starts.
         */
        public Builder networkInterface(String nameOrAddress) {
            this.networkInterface = nameOrAddress == null || nameOrAddress.isBlank() ? null : nameOrAddress.trim();
            return this;
        }

        /** IP_MULTICAST_TTL (IPv6: hop limit), 0..255; 1 keeps multicast in the local network. */
        public Builder multicastTtl(int ttl) {
            if (ttl < 0 || ttl > 255) {
                throw new IllegalArgumentException("the multicast TTL is 0..255, was " + ttl);
            }
            this.multicastTtl = ttl;
            return this;
        }

        /** IP_MULTICAST_LOOP: whether this host's own subscribers receive what it sends to a group. */
        public Builder multicastLoopback(boolean loopback) {
            this.multicastLoopback = loopback;
            return this;
        }

        /**
         * The largest network message sent or received, 1..{@value UdpSettings#MAX_UDP_PAYLOAD} bytes; larger ones
         * are dropped and counted (UADP chunking, Part 14 7.2.4.4.4, is not implemented).
         */
        public Builder maxDatagramSize(int bytes) {
            if (bytes < 1 || bytes > MAX_UDP_PAYLOAD) {
                throw new IllegalArgumentException("the max datagram size is 1.." + MAX_UDP_PAYLOAD + " bytes, was "
                        + bytes);
            }
            this.maxDatagramSize = bytes;
            return this;
        }

        /** SO_RCVBUF in bytes; 0 leaves the operating system's default. */
        public Builder receiveBufferSize(int bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("the receive buffer size is at least 0, was " + bytes);
            }
            this.receiveBufferSize = bytes;
            return this;
        }

        public UdpSettings build() {
            return new UdpSettings(this);
        }
    }
}
