package dev.opcua.stack.server.services.history;

import dev.opcua.stack.core.ids.AttributeIds;
import dev.opcua.stack.core.ids.NodeIds;
import dev.opcua.stack.core.ids.StatusCodes;
import dev.opcua.stack.core.types.builtin.DataValue;
import dev.opcua.stack.core.types.builtin.NodeId;
import dev.opcua.stack.core.types.builtin.QualifiedName;
import dev.opcua.stack.core.types.enumerated.TimestampsToReturn;
import dev.opcua.stack.core.types.structured.ReadValueId;
import dev.opcua.stack.server.addressspace.UaReference;
import dev.opcua.stack.server.nodes.BrowseOperation;
import dev.opcua.stack.server.nodes.NodeManagers;
import dev.opcua.stack.server.nodes.OperationContext;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;

/**
 * Whether a variable's history is stepped, as its address space says (Part 11, 5.2.2): the Stepped property
 * of the HistoricalDataConfiguration it references with HasHistoricalConfiguration. A variable without one
 * has the default configuration (Part 11, 5.7.3), which is not stepped.
 *
 * <p>Asked once per node of an at-time or processed HistoryRead, on a request worker: the node managers'
 * answers are awaited (bounded), as history reads are not run on event loops.
 */
public final class SteppedLookup implements Predicate<NodeId> {

    private static final NodeId HAS_HISTORICAL_CONFIGURATION = NodeId.ns0(NodeIds.HasHistoricalConfiguration);
    private static final NodeId HAS_PROPERTY = NodeId.ns0(NodeIds.HasProperty);
    private static final long WAIT_SECONDS = 10;

    private final NodeManagers managers;

    public SteppedLookup(NodeManagers managers) {
        this.managers = managers;
    }

    @Override
    public boolean test(NodeId variable) {
        try {
            NodeId configuration = firstTarget(variable, HAS_HISTORICAL_CONFIGURATION);
            if (configuration == null) {
                return false;
            }
            List<NodeId> properties = targets(configuration, HAS_PROPERTY);
            if (properties.isEmpty()) {
                return false;
            }
            // each property's BrowseName and Value in one read
            ReadValueId[] reads = new ReadValueId[2 * properties.size()];
            for (int k = 0; k < properties.size(); k++) {
                reads[2 * k] = new ReadValueId(properties.get(k), AttributeIds.BrowseName, null, QualifiedName.NULL);
                reads[2 * k + 1] = new ReadValueId(properties.get(k), AttributeIds.Value, null, QualifiedName.NULL);
            }
            DataValue[] read = await(managers.read(OperationContext.INTERNAL, reads, 0, TimestampsToReturn.Neither));
            for (int k = 0; k < properties.size(); k++) {
                if (read[2 * k].value().value() instanceof QualifiedName name && name.namespaceIndex() == 0
                        && "Stepped".equals(name.name())) {
                    DataValue value = read[2 * k + 1];
                    return value.statusCode().isGood() && Boolean.TRUE.equals(value.value().value());
                }
            }
            return false;
        } catch (RuntimeException e) {
            return false; // unreadable configuration: the default one (Part 11, 5.7.3)
        }
    }

    private NodeId firstTarget(NodeId node, NodeId referenceType) {
        List<NodeId> targets = targets(node, referenceType);
        return targets.isEmpty() ? null : targets.get(0);
    }

    /** Local targets of the node's forward references of exactly this type. */
    private List<NodeId> targets(NodeId node, NodeId referenceType) {
        BrowseOperation operation = await(managers.references(OperationContext.INTERNAL, new NodeId[] {node}))[0];
        List<NodeId> targets = new ArrayList<>();
        if (operation.status() != StatusCodes.Good || operation.references() == null) {
            return targets;
        }
        for (UaReference reference : operation.references()) {
            if (reference.forward() && referenceType.equals(reference.referenceTypeId())
                    && reference.targetId().isLocal()) {
                targets.add(reference.targetId().nodeId());
            }
        }
        return targets;
    }

    private static <T> T await(CompletableFuture<T> future) {
        try {
            return future.get(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException(e);
        }
    }
}
