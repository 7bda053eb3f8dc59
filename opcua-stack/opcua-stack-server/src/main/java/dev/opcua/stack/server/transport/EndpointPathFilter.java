package dev.opcua.stack.server.transport;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.transport.EndpointUrl;
import java.util.Collection;
import java.util.Locale;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * Accepts the EndpointUrl of a Hello when it is an {@code opc.tcp} URL whose path is one the server
 * serves (Part 6, 7.1.2.3: an unknown resource is BadTcpEndpointUrlInvalid). The host and port are
 * not checked: clients reach a server through host names, addresses and proxies it cannot know.
 * Paths compare without case and without a trailing '/', so {@code opc.tcp://h:4840} and
 * {@code opc.tcp://h:4840/} name the same root endpoint.
 */
public final class EndpointPathFilter implements Predicate<String> {

    private static final String SCHEME = "opc.tcp";

    private final Set<String> paths;

    private EndpointPathFilter(Set<String> paths) {
        this.paths = paths;
    }

    /** A filter for these paths ("/" or "" for the root). */
    public static EndpointPathFilter ofPaths(Collection<String> paths) {
        if (paths.isEmpty()) {
            throw new IllegalArgumentException("at least one endpoint path is needed");
        }
        return new EndpointPathFilter(paths.stream().map(EndpointPathFilter::normalize)
                .collect(Collectors.toUnmodifiableSet()));
    }

    /** A filter for the paths of these endpoint URLs. */
    public static EndpointPathFilter ofUrls(Collection<String> endpointUrls) {
        return ofPaths(endpointUrls.stream().map(url -> EndpointUrl.parse(url).path()).toList());
    }

    /** The normalized paths accepted. */
    public Set<String> paths() {
        return paths;
    }

    @Override
    public boolean test(String endpointUrl) {
        if (endpointUrl == null) {
            return false;
        }
        EndpointUrl url;
        try {
            url = EndpointUrl.parse(endpointUrl);
        } catch (UaException e) {
            return false;
        }
        return url.scheme().equalsIgnoreCase(SCHEME) && paths.contains(normalize(url.path()));
    }

    private static String normalize(String path) {
        String p = path == null ? "" : path;
        int end = p.length();
        while (end > 0 && p.charAt(end - 1) == '/') {
            end--;
        }
        return p.substring(0, end).toLowerCase(Locale.ROOT);
    }
}
