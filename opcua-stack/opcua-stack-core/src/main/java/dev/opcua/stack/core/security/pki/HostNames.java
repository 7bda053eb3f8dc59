package dev.opcua.stack.core.security.pki;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/** Tells IP literals from DNS names without ever resolving a name. */
final class HostNames {

    private static final String OCTET = "(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)";
    private static final Pattern IPV4 = Pattern.compile(OCTET + "(\\." + OCTET + "){3}");
    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");

    private HostNames() {
    }

    /**
     * The address of an IPv4 or IPv6 literal ({@code [::1]} brackets allowed), empty for anything else.
     * {@link InetAddress#getByName} is called only on strings that are literals by their characters, so it
     * never queries DNS.
     */
    static Optional<InetAddress> ipLiteral(String host) {
        if (host == null || host.isEmpty()) {
            return Optional.empty();
        }
        String h = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        boolean v4 = IPV4.matcher(h).matches();
        boolean v6 = !v4 && h.indexOf(':') >= 0 && IPV6_CHARS.matcher(h).matches();
        if (!v4 && !v6) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(h));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }

    /** Case-insensitive DNS name match; a SAN of the form {@code *.example.com} matches exactly one left-most label. */
    static boolean dnsMatches(String sanName, String host) {
        String san = trimDot(sanName.toLowerCase(Locale.ROOT));
        String h = trimDot(host.toLowerCase(Locale.ROOT));
        if (san.startsWith("*.")) {
            int dot = h.indexOf('.');
            return dot > 0 && h.substring(dot + 1).equals(san.substring(2));
        }
        return san.equals(h);
    }

    private static String trimDot(String s) {
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }
}
