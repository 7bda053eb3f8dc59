package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.config.InvalidSettingException;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Refuses a redundant set configured with this server itself as a partner by its endpoint (Part 4, 6.6.2.4.1:
 * the set's servers are distinct servers; a server that watched or advertised itself would tell clients to fail
 * over to the server that failed). The ServerUri case is {@link RedundancySettings#forServer}'s.
 *
 * <p>An endpoint is this server's when its port is the server's port and its host is one of the server's
 * hostnames, its bind address, or a loopback name or address while the server listens on all addresses or on
 * loopback. A server on port 0 (a free port chosen at start) cannot be compared and passes.
 */
public final class SelfPartnerCheck {

    private static final Set<String> LOOPBACK = Set.of("localhost", "127.0.0.1", "::1", "[::1]");
    private static final Set<String> WILDCARD = Set.of("0.0.0.0", "::", "[::]");
    private static final int DEFAULT_PORT = 4840;

    private SelfPartnerCheck() {
    }

    /** @throws InvalidSettingException naming {@code redundancySettings.partners} when a partner is this server */
    public static void check(RedundancySettings settings, int port, String bindAddress, List<String> hostnames) {
        for (RedundancyPartner partner : settings.partners()) {
            String reason = selfReason(partner.endpointUrl(), port, bindAddress, hostnames);
            if (reason != null) {
                throw new InvalidSettingException("redundancySettings.partners", partner.endpointUrl(),
                        "must not include this server itself: " + reason);
            }
        }
    }

    /**
     * Why {@code endpointUrl} is this server's own endpoint, or null when it is another's.
     *
     * @param port this server's port; 0 never matches
     */
    public static String selfReason(String endpointUrl, int port, String bindAddress, List<String> hostnames) {
        if (port == 0) {
            return null;
        }
        URI uri = URI.create(endpointUrl);
        int partnerPort = uri.getPort() < 0 ? DEFAULT_PORT : uri.getPort();
        String host = uri.getHost() == null ? "" : uri.getHost().toLowerCase(Locale.ROOT);
        if (partnerPort != port) {
            return null;
        }
        String bind = bindAddress == null ? "0.0.0.0" : bindAddress.toLowerCase(Locale.ROOT);
        boolean ownName = hostnames.stream().anyMatch(h -> h.equalsIgnoreCase(host)) || host.equals(bind)
                || (LOOPBACK.contains(host) && (WILDCARD.contains(bind) || LOOPBACK.contains(bind)));
        return ownName ? "endpoint " + endpointUrl + " is this server's own (port " + port + " on " + host
                + "): a pair configured with itself; give the other server's endpoint" : null;
    }
}
