package dev.opcua.stack.server.nodeset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.eclipse.milo.opcua.stack.core.types.builtin.unsigned.Unsigned.uint;

import java.util.List;
import org.eclipse.milo.opcua.sdk.client.OpcUaClient;
import org.eclipse.milo.opcua.stack.core.AttributeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.DataValue;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExpandedNodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.ExtensionObject;
import org.eclipse.milo.opcua.stack.core.types.builtin.NodeId;
import org.eclipse.milo.opcua.stack.core.types.builtin.QualifiedName;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseDirection;
import org.eclipse.milo.opcua.stack.core.types.enumerated.BrowseResultMask;
import org.eclipse.milo.opcua.stack.core.types.enumerated.TimestampsToReturn;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.BrowseResult;
import org.eclipse.milo.opcua.stack.core.types.structured.ReadValueId;
import org.eclipse.milo.opcua.stack.core.types.structured.ReferenceDescription;
import org.eclipse.milo.opcua.stack.core.types.structured.StructureDefinition;

/** What the Milo tests of imported models ask a client: ids by namespace URI, browses, a DataTypeDefinition. */
final class MiloBrowsing {

    private MiloBrowsing() {
    }

    /** The numeric id in the namespace of {@code uri}, by the client's namespace table. */
    static NodeId id(OpcUaClient client, String uri, int id) {
        return new NodeId(client.getNamespaceTable().getIndex(uri), uint(id));
    }

    static NodeId local(OpcUaClient client, ExpandedNodeId id) {
        return id.toNodeId(client.getNamespaceTable()).orElseThrow();
    }

    static List<String> names(List<ReferenceDescription> references) {
        return references.stream().map(r -> r.getBrowseName().getName()).toList();
    }

    /** The forward references of {@code referenceType} and its subtypes; fails unless the Browse is Good. */
    static List<ReferenceDescription> browse(OpcUaClient client, NodeId node, NodeId referenceType) throws Exception {
        BrowseResult result = client.browse(new BrowseDescription(node, BrowseDirection.Forward, referenceType, true,
                uint(0), uint(BrowseResultMask.All.getValue())));
        assertThat(result.getStatusCode().isGood()).as("browse %s", node).isTrue();
        return result.getReferences() == null ? List.of() : List.of(result.getReferences());
    }

    /** The DataTypeDefinition attribute of a DataType, decoded; fails unless the read is Good. */
    static StructureDefinition structureDefinition(OpcUaClient client, NodeId dataType) throws Exception {
        DataValue value = client.read(0, TimestampsToReturn.Neither, List.of(new ReadValueId(dataType,
                AttributeId.DataTypeDefinition.uid(), null, QualifiedName.NULL_VALUE))).getResults()[0];
        assertThat(value.getStatusCode().isGood()).as("DataTypeDefinition of %s", dataType).isTrue();
        return (StructureDefinition) ((ExtensionObject) value.getValue().getValue())
                .decode(client.getStaticEncodingContext());
    }
}
