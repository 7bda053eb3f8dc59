package dev.opcua.stack.server.subscriptions.items;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.types.builtin.BuiltinType;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.ExtensionObject;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.builtin.Variant;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.Range;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Finds the EURange property (Part 8, 5.3.2 AnalogItemType) of variables for percent deadbands
 * (Part 8, 6.2), for all items of a request at once: one batch of references (the forward
 * HasProperty targets), one batched read of their BrowseNames, one batched read of the values of
 * those named "EURange".
 */
final class EuRangeLookup {

    static final String EU_RANGE = "EURange";
    private static final NodeId HAS_PROPERTY = NodeId.ns0(NodeIds.HasProperty);

    private EuRangeLookup() {
    }

    /**
     * The EURange of each variable; an element is null when the variable has no EURange property
     * or its value is not a usable Range (finite, high >= low).
     */
    static CompletableFuture<Range[]> lookup(NodeManagers managers, OperationContext context, NodeId[] variables) {
        Range[] ranges = new Range[variables.length];
        if (variables.length == 0) {
            return CompletableFuture.completedFuture(ranges);
        }
        return managers.references(context, variables).thenCompose(operations -> {
            List<Integer> owners = new ArrayList<>();
            List<NodeId> properties = new ArrayList<>();
            for (int i = 0; i < operations.length; i++) {
                UaReference[] references = operations[i].references();
                if (references == null) {
                    continue;
                }
                for (UaReference reference : references) {
                    if (reference.forward() && HAS_PROPERTY.equals(reference.referenceTypeId())
                            && reference.targetId().isLocal()) {
                        owners.add(i);
                        properties.add(reference.targetId().nodeId());
                    }
                }
            }
            if (properties.isEmpty()) {
                return CompletableFuture.completedFuture(ranges);
            }
            return managers.read(context, reads(properties, AttributeIds.BrowseName), 0, TimestampsToReturn.Neither)
                    .thenCompose(names -> readRanges(managers, context, ranges, owners, properties, names));
        });
    }

    private static CompletableFuture<Range[]> readRanges(NodeManagers managers, OperationContext context,
            Range[] ranges, List<Integer> owners, List<NodeId> properties, DataValue[] names) {
        NodeId[] euRanges = new NodeId[ranges.length];
        List<Integer> found = new ArrayList<>();
        List<NodeId> nodes = new ArrayList<>();
        for (int j = 0; j < names.length; j++) {
            int owner = owners.get(j);
            if (euRanges[owner] == null && isEuRange(names[j])) {
                euRanges[owner] = properties.get(j);
                found.add(owner);
                nodes.add(properties.get(j));
            }
        }
        if (nodes.isEmpty()) {
            return CompletableFuture.completedFuture(ranges);
        }
        return managers.read(context, reads(nodes, AttributeIds.Value), 0, TimestampsToReturn.Neither)
                .thenApply(values -> {
                    for (int k = 0; k < values.length; k++) {
                        ranges[found.get(k)] = toRange(values[k]);
                    }
                    return ranges;
                });
    }

    /** The standard property is 0:EURange; a companion model's own namespace index is accepted too. */
    private static boolean isEuRange(DataValue name) {
        Variant value = name.value();
        return name.statusCode().isGood() && value.value() instanceof QualifiedName qualified
                && EU_RANGE.equals(qualified.name());
    }

    static Range toRange(DataValue value) {
        if (value == null || !value.statusCode().isGood()) {
            return null;
        }
        Variant variant = value.value();
        if (variant.type() != BuiltinType.ExtensionObject || variant.isArray()) {
            return null;
        }
        ExtensionObject object = (ExtensionObject) variant.value();
        if (!(object.decoded() instanceof Range range)) {
            return null;
        }
        boolean usable = Double.isFinite(range.low()) && Double.isFinite(range.high()) && range.high() >= range.low();
        return usable ? range : null;
    }

    private static ReadValueId[] reads(List<NodeId> nodes, int attributeId) {
        ReadValueId[] reads = new ReadValueId[nodes.size()];
        for (int i = 0; i < reads.length; i++) {
            reads[i] = new ReadValueId(nodes.get(i), attributeId, null, null);
        }
        return reads;
    }
}
