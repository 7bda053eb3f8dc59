package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.server.addressspace.UaReference;

/**
 * A request for the references of one node, handed to the node manager that owns it (Part 4,
 * 5.8.2). The manager gives all references the node holds; the View services filter them by
 * direction, type and node class and describe the targets.
 */
public final class BrowseOperation {

    private final NodeId nodeId;
    private UaReference[] references;
    private int status = StatusCodes.Good;
    private boolean complete;

    BrowseOperation(NodeId nodeId) {
        this.nodeId = nodeId;
    }

    public NodeId nodeId() {
        return nodeId;
    }

    /** Answers with the node's references (not copied: the caller does not change the array). */
    public void complete(UaReference[] references) {
        this.references = references;
        this.complete = true;
    }

    /** Answers with a status, e.g. BadNodeIdUnknown. */
    public void fail(int status) {
        this.status = status;
        this.complete = true;
    }

    public boolean isComplete() {
        return complete;
    }

    /** The references; null when the operation failed or was not answered. */
    public UaReference[] references() {
        return references;
    }

    /** Good, the failure status, or BadInternalError when the manager did not answer. */
    public int status() {
        return complete ? status : StatusCodes.BadInternalError;
    }
}
