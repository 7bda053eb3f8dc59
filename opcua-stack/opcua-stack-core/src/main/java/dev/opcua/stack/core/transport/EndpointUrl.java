package dev.opcua.stack.core.transport;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;
import java.util.Objects;

/**
 * An endpoint URL such as {@code opc.tcp://host:4840/path} taken apart (Part 6, 7.2): scheme, host,
 * port and path, the host kept as written (an IPv6 literal keeps its brackets) so the URL can be
 * rebuilt with another host.
 *
 * <p>Parsed by hand rather than with {@link java.net.URI}, which rejects host names that clients do
 * send (underscores, for one).
 *
 * @param scheme e.g. {@code opc.tcp}
 * @param host host name or address as written, never empty
 * @param port the port, or -1 when the URL names none
 * @param path everything from the first '/' after the authority; empty when there is none
 */
public record EndpointUrl(String scheme, String host, int port, String path) {

    /** Scheme of UA TCP (Part 6, 7.2). */
    public static final String OPC_TCP = "opc.tcp";
    /** Port registered for OPC UA with IANA, used when the URL names none. */
    public static final int DEFAULT_PORT = 4840;

    public EndpointUrl {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(path, "path");
    }

    /**
     * Parses {@code scheme://host[:port][/path]}.
     *
     * @throws UaException BadTcpEndpointUrlInvalid naming the URL and what is wrong with it: no scheme
     *         or host, an unterminated IPv6 address, a port that is not a number from 0 to 65535
     */
    public static EndpointUrl parse(String url) {
        if (url == null) {
            throw invalid(null, "it is null");
        }
        int schemeEnd = url.indexOf("://");
        if (schemeEnd <= 0) {
            throw invalid(url, "it has no scheme");
        }
        String rest = url.substring(schemeEnd + 3);
        int slash = rest.indexOf('/');
        String authority = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : rest.substring(slash);
        String host;
        String port;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw invalid(url, "its IPv6 address is not terminated");
            }
            host = authority.substring(0, close + 1);
            String after = authority.substring(close + 1);
            if (!after.isEmpty() && !after.startsWith(":")) {
                throw invalid(url, "it has characters after its IPv6 address");
            }
            port = after.isEmpty() ? null : after.substring(1);
        } else {
            int colon = authority.lastIndexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? null : authority.substring(colon + 1);
        }
        if (host.isEmpty() || host.equals("[]")) {
            throw invalid(url, "it has no host");
        }
        return new EndpointUrl(url.substring(0, schemeEnd), host, parsePort(port, url), path);
    }

    private static int parsePort(String port, String url) {
        if (port == null) {
            return -1;
        }
        try {
            int value = Integer.parseInt(port);
            if (value >= 0 && value <= 65_535) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(url, "its port '" + port + "' is not a number from 0 to 65535");
    }

    private static UaException invalid(String url, String reason) {
        return new UaException(StatusCodes.BadTcpEndpointUrlInvalid, "invalid endpoint URL '" + url + "': " + reason);
    }

    /** Whether the scheme is {@code opc.tcp} (in any case). */
    public boolean isOpcTcp() {
        return scheme.equalsIgnoreCase(OPC_TCP);
    }

    /** The host to open a socket to: an IPv6 literal without its brackets. */
    public String socketHost() {
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    /** The port, or 4840 when the URL names none. */
    public int portOrDefault() {
        return port < 0 ? DEFAULT_PORT : port;
    }

    /** This URL with another host, e.g. the one a client used to reach the server. */
    public EndpointUrl withHost(String newHost) {
        return new EndpointUrl(scheme, newHost, port, path);
    }

    @Override
    public String toString() {
        return scheme + "://" + host + (port < 0 ? "" : ":" + port) + path;
    }
}
