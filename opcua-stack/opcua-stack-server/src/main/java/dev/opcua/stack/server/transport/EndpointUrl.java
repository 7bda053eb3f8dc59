package dev.opcua.stack.server.transport;

import java.util.Objects;

/**
 * The parts of an endpoint URL such as {@code opc.tcp://host:4840/path} (Part 6, 7.2): scheme, host,
 * port and path, with the host kept exactly as written (an IPv6 literal keeps its brackets).
 *
 * <p>Parsed by hand rather than with {@link java.net.URI}, which rejects host names that clients do
 * send (underscores, for one) and would make such a client fail at the Hello.
 *
 * @param scheme e.g. {@code opc.tcp}
 * @param host host name or address, never empty
 * @param port the port, or -1 when the URL names none
 * @param path everything from the first '/' after the authority; empty when there is none
 */
public record EndpointUrl(String scheme, String host, int port, String path) {

    public EndpointUrl {
        Objects.requireNonNull(scheme, "scheme");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(path, "path");
    }

    /**
     * Parses {@code scheme://host[:port][/path]}.
     *
     * @throws IllegalArgumentException when the URL lacks a scheme or host, or its port is not a number
     *         from 0 to 65535
     */
    public static EndpointUrl parse(String url) {
        if (url == null) {
            throw new IllegalArgumentException("endpoint URL is null");
        }
        int schemeEnd = url.indexOf("://");
        if (schemeEnd <= 0) {
            throw new IllegalArgumentException("endpoint URL has no scheme: " + url);
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
                throw new IllegalArgumentException("endpoint URL has an unterminated IPv6 address: " + url);
            }
            host = authority.substring(0, close + 1);
            String after = authority.substring(close + 1);
            if (!after.isEmpty() && !after.startsWith(":")) {
                throw new IllegalArgumentException("endpoint URL has characters after its IPv6 address: " + url);
            }
            port = after.isEmpty() ? null : after.substring(1);
        } else {
            int colon = authority.lastIndexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? null : authority.substring(colon + 1);
        }
        if (host.isEmpty()) {
            throw new IllegalArgumentException("endpoint URL has no host: " + url);
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
        throw new IllegalArgumentException("endpoint URL has an invalid port '" + port + "': " + url);
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
