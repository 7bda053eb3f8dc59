package dev.opcua.stack.server.transport;

import dev.opcua.stack.core.UaException;
import dev.opcua.stack.core.config.InvalidSettingException;
import dev.opcua.stack.core.transport.EndpointUrl;
import java.util.Objects;

/**
 * A client the server connects to for reverse connect (Part 6, 7.1.3): the server dials {@code clientUrl}, the
 * client's listening socket, and its ReverseHello names {@code endpointUrl}, the endpoint the client then opens a
 * secure channel to over that socket (Part 6, 7.1.2.6).
 *
 * @param clientUrl {@code opc.tcp://host:port} where the client listens
 * @param endpointUrl an endpoint URL of this server, which the client's Hello repeats
 */
public record ReverseConnectTarget(String clientUrl, String endpointUrl) {

    /** @throws InvalidSettingException {@code reverseConnect.clientUrl} when it is not an opc.tcp URL with a port */
    public ReverseConnectTarget {
        Objects.requireNonNull(endpointUrl, "endpointUrl");
        address(clientUrl);
    }

    /** The parsed client URL. */
    EndpointUrl address() {
        return address(clientUrl);
    }

    private static EndpointUrl address(String clientUrl) {
        try {
            EndpointUrl url = EndpointUrl.parse(Objects.requireNonNull(clientUrl, "clientUrl"));
            if (url.isOpcTcp() && url.port() > 0) {
                return url;
            }
        } catch (UaException e) {
            // reported below with the rule
        }
        throw new InvalidSettingException("reverseConnect.clientUrl", clientUrl,
                "must be an opc.tcp URL with the port the client listens on, such as opc.tcp://mes-host:4843");
    }
}
