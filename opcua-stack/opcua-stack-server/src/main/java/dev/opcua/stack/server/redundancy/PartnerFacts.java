package dev.opcua.stack.server.redundancy;

import dev.opcua.stack.core.types.enumerated.ServerState;
import java.util.List;
import java.util.Objects;

/**
 * What a partner says of itself when read (Part 5, 6.3.1 Server object): its ServerUri (ServerArray[0]), its
 * NamespaceArray, ServiceLevel and ServerStatus.State, and the fingerprint of its address space when it
 * publishes one ({@link AddressSpaceFingerprint#NODE}).
 *
 * @param fingerprint null when the partner publishes none
 */
public record PartnerFacts(String serverUri, List<String> namespaces, int serviceLevel, ServerState state,
        String fingerprint) {

    public PartnerFacts {
        Objects.requireNonNull(state, "state");
        namespaces = List.copyOf(namespaces);
    }
}
