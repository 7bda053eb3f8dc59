package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.config.InvalidSettingException;
import java.net.URI;
import java.net.URISyntaxException;

/**
 * Another server of the redundant server set: its ServerUri (its ApplicationUri, listed in ServerUriArray,
 * Part 5, 6.3.9) and the endpoint URL where clients reach it (Part 4, 6.6.2.4.1: a client needs both to fail
 * over).
 *
 * @param serverUri the partner's ApplicationUri; not blank
 * @param endpointUrl the partner's endpoint, an {@code opc.tcp://host:port[/path]} URL (or another {@code opc.}
 *     scheme: opc.wss, opc.https)
 */
public record RedundancyPartner(String serverUri, String endpointUrl) {

    /** @throws InvalidSettingException naming {@code redundancyPartner.serverUri} or {@code redundancyPartner.endpointUrl} */
    public RedundancyPartner {
        if (serverUri == null || serverUri.isBlank()) {
            throw new InvalidSettingException("redundancyPartner.serverUri", serverUri,
                    "must name the partner's ServerUri (its ApplicationUri)");
        }
        if (endpointUrl == null || endpointUrl.isBlank()) {
            throw new InvalidSettingException("redundancyPartner.endpointUrl", endpointUrl,
                    "must give the endpoint URL of partner " + serverUri + " (opc.tcp://host:port)");
        }
        try {
            URI uri = new URI(endpointUrl);
            if (uri.getScheme() == null || !uri.getScheme().startsWith("opc.") || uri.getHost() == null) {
                throw new URISyntaxException(endpointUrl, "not opc.tcp://host:port");
            }
        } catch (URISyntaxException e) {
            throw new InvalidSettingException("redundancyPartner.endpointUrl", endpointUrl,
                    "must be an endpoint URL of partner " + serverUri + " like opc.tcp://host:port[/path]");
        }
    }
}
