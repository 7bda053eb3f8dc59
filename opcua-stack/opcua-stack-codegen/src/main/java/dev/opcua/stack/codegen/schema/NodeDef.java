package dev.opcua.stack.codegen.schema;

import dev.opcua.stack.core.types.builtin.LocalizedText;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.NodeClass;
import java.util.List;

/**
 * One node of a UANodeSet (Part 6, Annex F) with the attributes of all node classes; an attribute
 * the node class lacks, or the file leaves out, holds the default of the UANodeSet schema.
 *
 * @param nodeClass the node class, from the element name (UAObject, UAVariable ...)
 * @param nodeId the NodeId
 * @param browseName the BrowseName ({@code ns:name} in the file)
 * @param displayName the first DisplayName element (the BrowseName's name when there is none)
 * @param description the first Description element, or null
 * @param writeMask WriteMask (UInt32)
 * @param userWriteMask UserWriteMask (UInt32)
 * @param isAbstract IsAbstract of the four type node classes
 * @param symmetric Symmetric of reference types
 * @param inverseName InverseName of reference types, or null
 * @param eventNotifier EventNotifier of objects and views (Byte)
 * @param containsNoLoops ContainsNoLoops of views
 * @param dataType DataType of variables and variable types, its alias resolved (default BaseDataType i=24)
 * @param valueRank ValueRank of variables and variable types (default -1, scalar)
 * @param arrayDimensions ArrayDimensions of variables and variable types, or null when not given
 * @param accessLevel AccessLevel of variables (UInt32 in the file: the AccessLevelEx bits; default 1)
 * @param userAccessLevel UserAccessLevel of variables (default 1)
 * @param minimumSamplingInterval MinimumSamplingInterval of variables in ms (default 0)
 * @param historizing Historizing of variables
 * @param executable Executable of methods (default true)
 * @param userExecutable UserExecutable of methods (default true)
 * @param value the Value of variables and variable types, or null when absent or not convertible
 * @param references the references in file order
 */
public record NodeDef(
        NodeClass nodeClass,
        NodeId nodeId,
        QualifiedName browseName,
        LocalizedText displayName,
        LocalizedText description,
        long writeMask,
        long userWriteMask,
        boolean isAbstract,
        boolean symmetric,
        LocalizedText inverseName,
        short eventNotifier,
        boolean containsNoLoops,
        NodeId dataType,
        int valueRank,
        long[] arrayDimensions,
        long accessLevel,
        long userAccessLevel,
        double minimumSamplingInterval,
        boolean historizing,
        boolean executable,
        boolean userExecutable,
        Variant value,
        List<ReferenceDef> references) {

    public NodeDef {
        references = List.copyOf(references);
        arrayDimensions = arrayDimensions == null ? null : arrayDimensions.clone();
    }

    /** ArrayDimensions, or null; a copy. */
    @Override
    public long[] arrayDimensions() {
        return arrayDimensions == null ? null : arrayDimensions.clone();
    }
}
