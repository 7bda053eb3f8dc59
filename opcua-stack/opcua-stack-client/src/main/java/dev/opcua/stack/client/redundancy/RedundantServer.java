package dev.opcua.stack.client.redundancy;

/**
 * What the client knows of one server of its redundant set.
 *
 * @param endpointUrl where the client connects to it
 * @param serverUri its ServerUri (ApplicationUri) when known, else null
 * @param serviceLevel its ServiceLevel as last read (0..255), -1 when never read
 * @param reachable whether the last read of its ServiceLevel succeeded
 * @param active whether the client's connection goes to it
 */
public record RedundantServer(String endpointUrl, String serverUri, int serviceLevel, boolean reachable,
        boolean active) {
}
