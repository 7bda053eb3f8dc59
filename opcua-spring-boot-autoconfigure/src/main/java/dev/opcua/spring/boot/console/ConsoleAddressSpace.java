package dev.opcua.spring.boot.console;

import dev.opcua.stack.core.types.builtin.NodeId;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The address space the console browses: the children of a node and a node's value, as the View and
 * Attribute services give them (Part 4, 5.8.2 and 5.11.2). The console names only this type, so that it
 * serves an application without {@code opcua-stack-server} (clients only); the server's implementation is
 * {@link AddressSpaceBrowser}.
 */
public interface ConsoleAddressSpace {

    /**
     * The children of a node: the targets of its forward hierarchical references, each once. The future
     * fails with a {@link ConsoleNodeException} when the node cannot be browsed, and with a
     * {@link java.util.concurrent.TimeoutException} when the address space does not answer in time.
     */
    CompletableFuture<List<ConsoleNode>> browse(NodeId nodeId);

    /** A node's Value and DataType; for a node that is no Variable, the Value's Bad status. */
    CompletableFuture<ConsoleValue> read(NodeId nodeId);

    /**
     * Writes a Variable's Value from text typed for its DataType (Part 4, 5.11.4). The future completes with the
     * Write's status, Bad ones included (BadNotWritable, BadTypeMismatch ...), and fails with an
     * {@link IllegalArgumentException} naming the problem when the text is no value of the DataType.
     */
    CompletableFuture<ConsoleWrite> write(NodeId nodeId, String text);

    /**
     * One child node.
     *
     * @param nodeId its text form ({@code ns=2;s=FillingLine}), to browse or read it with
     * @param nodeClass Object, Variable, Method ...
     * @param hasChildren whether browsing it gives anything
     */
    record ConsoleNode(String nodeId, String browseName, String displayName, String nodeClass,
            boolean hasChildren) {
    }

    /**
     * A node's value.
     *
     * @param value its text, null for a null value
     * @param number the value when it is a scalar number, for a chart; null otherwise
     * @param dataType the DataType's BrowseName ({@code Double})
     * @param status the Value's StatusCode name ({@code Good}, {@code BadAttributeIdInvalid} for a node
     *        that is no Variable)
     * @param writable whether the node's AccessLevel has CurrentWrite (Part 3, 5.6.2)
     */
    record ConsoleValue(String nodeId, String value, Double number, String dataType, String status,
            Instant sourceTimestamp, Instant serverTimestamp, boolean writable) {
    }

    /**
     * What a write did.
     *
     * @param dataType the DataType's BrowseName the value was typed for
     * @param oldValue the value before, as text
     * @param newValue the value written, as text
     * @param status the Write's StatusCode name ({@code Good}, {@code BadNotWritable} ...)
     */
    record ConsoleWrite(String nodeId, String dataType, String oldValue, String newValue, String status) {

        /** Whether the server took the value. */
        public boolean succeeded() {
            return status.startsWith("Good");
        }
    }
}
