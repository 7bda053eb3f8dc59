package dev.opcua.stack.server.nodes;

import dev.opcua.stack.core.types.builtin.ExpandedNodeId;
import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.NodeClass;

/**
 * A request for what a Browse result says about the target of one reference (Part 4, 5.8.2,
 * ReferenceDescription): its NodeClass, BrowseName, DisplayName and, when asked, the TypeDefinition
 * of an Object or Variable. Handed to the manager that owns the target; one left unanswered (an
 * unknown node) describes as Unspecified with null names and no type definition.
 */
public final class DescribeOperation {

    private final NodeId nodeId;
    private final boolean typeDefinitionWanted;
    private NodeClass nodeClass = NodeClass.Unspecified;
    private QualifiedName browseName = QualifiedName.NULL;
    private LocalizedText displayName = LocalizedText.NULL;
    private ExpandedNodeId typeDefinition;

    /**
     * @param nodeId the target, a node of this server
     * @param typeDefinitionWanted whether the browse asked for type definitions (its resultMask)
     */
    public DescribeOperation(NodeId nodeId, boolean typeDefinitionWanted) {
        this.nodeId = nodeId;
        this.typeDefinitionWanted = typeDefinitionWanted;
    }

    public NodeId nodeId() {
        return nodeId;
    }

    /** Whether the TypeDefinition is asked for; a manager may skip looking it up otherwise. */
    public boolean typeDefinitionWanted() {
        return typeDefinitionWanted;
    }

    /**
     * Answers with the target's attributes; null names read as the null QualifiedName and
     * LocalizedText.
     *
     * @param typeDefinition the target of its HasTypeDefinition reference, or null for none
     */
    public void complete(NodeClass nodeClass, QualifiedName browseName, LocalizedText displayName,
            ExpandedNodeId typeDefinition) {
        this.nodeClass = nodeClass == null ? NodeClass.Unspecified : nodeClass;
        this.browseName = browseName == null ? QualifiedName.NULL : browseName;
        this.displayName = displayName == null ? LocalizedText.NULL : displayName;
        this.typeDefinition = typeDefinition;
    }

    public NodeClass nodeClass() {
        return nodeClass;
    }

    public QualifiedName browseName() {
        return browseName;
    }

    public LocalizedText displayName() {
        return displayName;
    }

    /** The type definition, or null when there is none, it was not asked for or not found. */
    public ExpandedNodeId typeDefinition() {
        return typeDefinition;
    }
}
