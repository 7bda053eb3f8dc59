package dev.opcua.stack.client.transport;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.ids.StatusCodes;

/**
 * An {@code opc.tcp} endpoint URL taken apart (Part 6, 7.2): {@code opc.tcp://host[:port][/path]},
 * the host a name, an IPv4 address or a bracketed IPv6 address, the port 4840 when absent.
 *
 * @param host host name or address (IPv6 without brackets)
 * @param port TCP port
 * @param path the rest after the authority, "" when none
 */
public record EndpointUrl(String host, int port, String path) {

    /** Scheme of UA TCP (Part 6, 7.2). */
    public static final String SCHEME = "opc.tcp";
    /** Port registered for OPC UA with IANA, used when the URL names none. */
    public static final int DEFAULT_PORT = 4840;

    /**
     * Parses an endpoint URL.
     *
     * @throws UaException BadTcpEndpointUrlInvalid for another scheme, a missing host or an invalid port
     */
    public static EndpointUrl parse(String url) {
        String prefix = SCHEME + "://";
        if (url == null || !url.regionMatches(true, 0, prefix, 0, prefix.length())) {
            throw invalid(url, "the scheme must be " + SCHEME);
        }
        int start = prefix.length();
        int slash = url.indexOf('/', start);
        int authorityEnd = slash < 0 ? url.length() : slash;
        String path = slash < 0 ? "" : url.substring(slash);
        String host;
        String portText = null;
        if (start < authorityEnd && url.charAt(start) == '[') {
            int close = url.indexOf(']', start);
            if (close < 0 || close > authorityEnd) {
                throw invalid(url, "unterminated IPv6 address");
            }
            host = url.substring(start + 1, close);
            if (close + 1 < authorityEnd) {
                if (url.charAt(close + 1) != ':') {
                    throw invalid(url, "unexpected text after the IPv6 address");
                }
                portText = url.substring(close + 2, authorityEnd);
            }
        } else {
            int colon = url.lastIndexOf(':', authorityEnd - 1);
            if (colon >= start) {
                host = url.substring(start, colon);
                portText = url.substring(colon + 1, authorityEnd);
            } else {
                host = url.substring(start, authorityEnd);
            }
        }
        if (host.isEmpty()) {
            throw invalid(url, "no host");
        }
        return new EndpointUrl(host, portText == null ? DEFAULT_PORT : parsePort(url, portText), path);
    }

    private static int parsePort(String url, String text) {
        try {
            int port = Integer.parseInt(text);
            if (port >= 1 && port <= 65535) {
                return port;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw invalid(url, "invalid port '" + text + "'");
    }

    private static UaException invalid(String url, String why) {
        return new UaException(StatusCodes.BadTcpEndpointUrlInvalid, "invalid endpoint URL '" + url + "': " + why);
    }
}
