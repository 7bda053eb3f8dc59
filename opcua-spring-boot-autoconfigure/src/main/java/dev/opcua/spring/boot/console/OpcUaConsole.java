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
 * connections and listeners), and the address space comes from the application's server (an
 * {@link AddressSpaceBrowser}). The page computes rates from the counters between two polls. Like the
 * endpoint, it names no type of {@code opcua-stack-server} or {@code opcua-stack-client}.
 */
public class OpcUaConsole {

    private final OpcUaEndpoint endpoint;
    private final ConsoleAddressSpace addressSpace;

    /**
     * @param endpoint where the overview comes from
     * @param addressSpace the server's address space; null in an application without a server
     */
    public OpcUaConsole(OpcUaEndpoint endpoint, ConsoleAddressSpace addressSpace) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.addressSpace = addressSpace;
    }

    /** The state of the server and the clients now; every value read on the call. */
    public OpcUaServerDescriptor overview() {
        return endpoint.opcua();
    }

    /** Whether there is an address space to browse (the application has a server). */
    public boolean hasAddressSpace() {
        return addressSpace != null;
    }

    /**
     * The children of a node (see {@link ConsoleAddressSpace#browse}).
     *
     * @param nodeId the node's text form ({@code i=85} for Objects)
     * @throws IllegalArgumentException when the text is no NodeId
     * @throws IllegalStateException without a server
     */
    public CompletableFuture<List<ConsoleAddressSpace.ConsoleNode>> browse(String nodeId) {
        return addressSpace().browse(NodeId.parse(nodeId));
    }

    /**
     * A node's value (see {@link ConsoleAddressSpace#read}).
     *
     * @throws IllegalArgumentException when the text is no NodeId
     * @throws IllegalStateException without a server
     */
    public CompletableFuture<ConsoleAddressSpace.ConsoleValue> read(String nodeId) {
        return addressSpace().read(NodeId.parse(nodeId));
    }

    /**
     * Writes a Variable's Value from text typed for its DataType (see {@link ConsoleAddressSpace#write}). Who may
     * write is decided before, by a {@link ConsoleWriteAccess}.
     *
     * @throws IllegalArgumentException when the text is no NodeId
     * @throws IllegalStateException without a server
     */
    public CompletableFuture<ConsoleAddressSpace.ConsoleWrite> write(String nodeId, String value) {
        return addressSpace().write(NodeId.parse(nodeId), value);
    }

    private ConsoleAddressSpace addressSpace() {
        if (addressSpace == null) {
            throw new IllegalStateException("this application has no OPC UA server to browse");
        }
        return addressSpace;
    }
}
