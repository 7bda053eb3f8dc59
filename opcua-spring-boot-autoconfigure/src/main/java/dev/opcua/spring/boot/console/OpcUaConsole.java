package dev.opcua.spring.boot.console;

import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint;
import dev.opcua.spring.boot.actuate.endpoint.OpcUaEndpoint.OpcUaServerDescriptor;
import dev.opcua.stack.core.types.builtin.NodeId;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * What the console shows: the overview is the {@code /actuator/opcua} descriptor itself (server,
 * endpoints, certificate, sessions, request queue with its counts by service, subscriptions, client
 * connections and listeners), and the address space comes from an {@link AddressSpaceBrowser} of the
 * application's server. The page computes rates from the counters between two polls.
 */
public class OpcUaConsole {

    private final OpcUaEndpoint endpoint;
    private final AddressSpaceBrowser browser;

    /**
     * @param endpoint where the overview comes from
     * @param browser the server's address space; null in an application without a server
     */
    public OpcUaConsole(OpcUaEndpoint endpoint, AddressSpaceBrowser browser) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.browser = browser;
    }

    /** The state of the server and the clients now; every value read on the call. */
    public OpcUaServerDescriptor overview() {
        return endpoint.opcua();
    }

    /** Whether there is an address space to browse (the application has a server). */
    public boolean hasAddressSpace() {
        return browser != null;
    }

    /**
     * The children of a node (see {@link AddressSpaceBrowser#browse}).
     *
     * @param nodeId the node's text form ({@code i=85} for Objects)
     * @throws IllegalArgumentException when the text is no NodeId
     * @throws IllegalStateException without a server
     */
    public CompletableFuture<List<AddressSpaceBrowser.ConsoleNode>> browse(String nodeId) {
        return browser().browse(NodeId.parse(nodeId));
    }

    /**
     * A node's value (see {@link AddressSpaceBrowser#read}).
     *
     * @throws IllegalArgumentException when the text is no NodeId
     * @throws IllegalStateException without a server
     */
    public CompletableFuture<AddressSpaceBrowser.ConsoleValue> read(String nodeId) {
        return browser().read(NodeId.parse(nodeId));
    }

    private AddressSpaceBrowser browser() {
        if (browser == null) {
            throw new IllegalStateException("this application has no OPC UA server to browse");
        }
        return browser;
    }
}
