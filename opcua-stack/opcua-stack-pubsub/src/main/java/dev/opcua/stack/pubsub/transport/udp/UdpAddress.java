package dev.opcua.stack.pubsub.transport.udp;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;

/**
 * An OPC UA UDP transport URL, {@code opc.udp://<host>[:<port>]} (Part 14, 7.3.2.2 and 7.3.2.3): the host is a
 * multicast, broadcast or unicast IP address (IPv6 in brackets) or a name that resolves to one; the port defaults to
 * the IANA registered OPC UA port 4840. Nothing may follow the port but an optional {@code /}.
 *
 * <p>Two addresses are {@linkplain #equals equal} when their host texts (ignoring case) and ports are: {@code
 * opc.udp://localhost:4840} and {@code opc.udp://127.0.0.1:4840} are different addresses, because comparing them
 * would mean resolving names on the caller's thread.
 *
 * @param host the host as written, without IPv6 brackets, lower case
 * @param port 1..65535
 */
public record UdpAddress(String host, int port) {

    /** The scheme of OPC UA UDP URLs. */
    public static final String SCHEME = "opc.udp";
    /** The IANA registered OPC UA port, the default (Part 14, 7.3.2.2). */
    public static final int DEFAULT_PORT = 4840;

    public UdpAddress {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("an OPC UA UDP address needs a host");
        }
        host = host.toLowerCase(Locale.ROOT);
        if (port < 1 || port > 0xFFFF) {
            throw new IllegalArgumentException("an OPC UA UDP port is 1..65535, was " + port);
        }
    }

    /** Whether the text starts like an OPC UA UDP URL (scheme {@code opc.udp}, any case). */
    public static boolean isUdpUrl(String text) {
        return text != null && text.regionMatches(true, 0, SCHEME + "://", 0, SCHEME.length() + 3);
    }

    /**
     * Parses {@code opc.udp://<host>[:<port>][/]}.
     *
     * @throws IllegalArgumentException naming the URL and what is wrong with it
     */
    public static UdpAddress parse(String url) {
        if (!isUdpUrl(url)) {
            throw new IllegalArgumentException("'" + url + "' is not an OPC UA UDP URL (opc.udp://<host>[:<port>])");
        }
        URI uri;
        try {
            uri = new URI(url.trim());
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + url + "' is not an OPC UA UDP URL: " + e.getMessage(), e);
        }
        String path = uri.getRawPath();
        if (uri.getHost() == null || uri.getRawUserInfo() != null || (path != null && !path.isEmpty()
                && !path.equals("/")) || uri.getRawQuery() != null || uri.getRawFragment() != null) {
            throw new IllegalArgumentException("'" + url + "' is not an OPC UA UDP URL: expected opc.udp://<host>"
                    + "[:<port>] with a host (IPv6 in brackets) and nothing after the port");
        }
        String host = uri.getHost();
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        return new UdpAddress(host, uri.getPort() == -1 ? DEFAULT_PORT : uri.getPort());
    }

    /** The URL, {@code opc.udp://host:port} (IPv6 hosts in brackets, the port always written). */
    public String url() {
        return SCHEME + "://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port;
    }

    /** Resolves the host (a DNS lookup for a name: call it where blocking is allowed). */
    public InetSocketAddress resolve() throws UnknownHostException {
        return new InetSocketAddress(InetAddress.getByName(host), port);
    }

    /** Whether the host is {@code localhost}: "listen on every interface" for a receiving connection (7.3.2.3). */
    boolean isLocalhostName() {
        return host.equals("localhost");
    }

    @Override
    public String toString() {
        return url();
    }
}
